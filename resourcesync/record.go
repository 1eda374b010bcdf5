package resourcesync

import (
	"errors"
	"io"
	"time"
)

// The records below cross package boundaries: the workers (baseline,
// incremental, audit) hand them to the adapters (source, mirror, state)
// through their own small interfaces, and neither side imports the other.

// Fetch describes one bitstream to get from the Source and what it must be.
type Fetch struct {
	URL       string
	Hash      Fixity // every digest the Source gave; all known ones are verified
	Length    int64  // valid only when HasLength
	HasLength bool
	// Validators from the copy held, for a conditional GET; empty for an
	// unconditional one.
	ETag         string
	LastModified string
	// ExtraAlgs are algorithms to compute even when the Source gave none, so
	// that the state can record a digest of what is held.
	ExtraAlgs []string
	// Anonymous sends none of the extra headers the user gave for the
	// Source (--header): a mirror's copy is fetched without credentials,
	// whatever its host.
	Anonymous bool
	// Once makes a single attempt: no retry, no re-fetch after a
	// mismatch - for a mirror or a patch, which have a fallback (the next
	// mirror, <loc>) better than waiting on them.
	Once bool
}

// Fetched is what a completed fetch produced.
type Fetched struct {
	NotModified bool   // 304: the held copy is current; nothing was written
	FinalURL    string // after redirects
	Bytes       int64
	// Resumed is how many of Bytes a partial download held before this
	// fetch, which asked the Source only for the rest.
	Resumed      int64
	Sums         Fixity // digests of the bytes written, per algorithm computed
	ETag         string
	LastModified string
	ContentType  string
}

// Sink receives the body of one fetch. Reset discards what was written so
// that a retried attempt starts again from nothing.
type Sink interface {
	io.Writer
	Reset() error
}

// Held is what the Destination holds of one resource of a set. It is
// recorded only after its bytes are durable in the mirror.
type Held struct {
	URI          string
	Path         string // mirror-relative, slash-separated
	Length       int64
	Fixity       Fixity    // digests of the bytes held
	LastMod      time.Time // the Source's lastmod for this copy; zero if none
	ETag         string
	LastModified string
	Fetched      time.Time
	// Links are the links of section 14 recorded with the copy: those of
	// the entry it was brought to (Recorded); nil when it had none.
	Links []Link
}

// Moved says that the file of a held resource was renamed inside the
// mirror, from From to To (a new version of the URI → path mapping gave it
// a new name): every record of URI at From now points at To.
type Moved struct {
	URI  string
	From string
	To   string
}

// ChangeRecord is one change of a Change List or Change Dump that the
// Destination processed (applied, or failed and to be retried).
type ChangeRecord struct {
	URI      string
	Change   Change
	Time     time.Time // Entry.Time(): datetime, else lastmod
	List     string    // URL of the Change List or Change Dump package
	Position int       // 1-based position of the entry in that document
	Failed   bool
	Cause    string // why it failed, or a note (a deletion not applied)
}

// Failure is a resource that could not be brought in step, kept in the
// state with its cause until a later run succeeds.
type Failure struct {
	URI   string    `json:"uri"`
	Cause string    `json:"cause"`
	At    time.Time `json:"at,omitzero"`
}

// Errors the adapters return and the workers classify. Adapters wrap them
// (errors.Is) so workers need not know which adapter spoke.
var (
	// ErrNotFound: the Source answered 404 or 410.
	ErrNotFound = errors.New("not found at the Source")
	// ErrUnavailable: the Source could not be reached or kept failing
	// (connection errors, 429 or 5xx) after every retry.
	ErrUnavailable = errors.New("Source unavailable")
)

// Outcomes the workers report and the command line maps to exit statuses.
var (
	// ErrSafetyStop: the run stopped itself to protect the mirror - the
	// Source's change history no longer reaches back to the cursor (a new
	// baseline is needed), or a deletion guard tripped.
	ErrSafetyStop = errors.New("safety stop")
	// ErrInterrupted: the user asked the run to stop; what was done is saved.
	ErrInterrupted = errors.New("interrupted")
	// ErrLocal: the mirror or the state cannot be written (disk full, I/O
	// error, read-only file system, database error). It stops the whole
	// run: going on would only fail again.
	ErrLocal = errors.New("local fault")
)

// SetState is what the state knows about one set of resources.
type SetState struct {
	ID                int64
	CapabilityList    string
	Source            string    // the Source Description that names it
	Created           time.Time // first seen
	BaselineAt        time.Time // the at of the Resource List (or Dump) of the last complete baseline; zero if none
	BaselineCompleted time.Time // when that baseline finished
	Cursor            time.Time // the time of the first unprocessed change; zero if none
	Via               Via       // how the last baseline was made: ViaList or ViaDump
}

// Baselined reports whether a complete baseline of the set was recorded.
func (s SetState) Baselined() bool { return !s.BaselineAt.IsZero() }

// ErrSuperseded: a staged write was cancelled by a later removal of the
// same file before it was published; the removal is the final state.
var ErrSuperseded = errors.New("superseded by a later removal")

// Listed is what a Source's list said about one resource, remembered for a
// run (which paths were listed, for deletions and audits).
type Listed struct {
	Path      string
	URI       string
	Length    int64 // valid only when HasLength
	HasLength bool
	Fixity    Fixity
	LastMod   time.Time
}
