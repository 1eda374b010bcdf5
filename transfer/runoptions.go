package transfer

import (
	"context"
	"io"
	"time"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Kinds of condition (RunOptions.Condition).
const (
	ConditionLastMod    = "lastmod"  // a lastmod that is not a W3C datetime, read as none
	ConditionMisdated   = "misdated" // a change dated outside its list's interval or after the run's time
	ConditionChangeKind = "change"   // a change attribute that is none of created, updated, deleted
	ConditionListAt     = "list-at"  // a Resource List (Dump) without at, or dated after the run's time
)

// RunOptions are what every sync job (baseline, incremental) is tuned by:
// its workers, what may be fetched, how results are batched into the
// state, and the hooks of a run. The jobs' Options embed it. Start from
// DefaultRunOptions.
type RunOptions struct {
	Workers int  // concurrent fetches
	DryRun  bool // decide and report; write nothing, state included
	// Delete applies deletions: a unit Gone at the Source is removed from
	// the mirror (else reported and kept), and a baseline removes the
	// set's files its list no longer names.
	Delete bool
	// MaxDelete refuses, before anything is deleted, a run that would
	// delete more of the set's files than it allows.
	MaxDelete DeleteLimit
	// Scope decides which URIs may be fetched.
	Scope resourcesync.Scope
	// Filter is the user's --include and --exclude: a URI it leaves out
	// is neither fetched nor deleted (Skipped, counted as LeftOut).
	Filter resourcesync.Filter
	// Mirrors says when a unit's mirrors (Unit.Mirrors, §14.2) are tried:
	// before the Source (MirrorsPrefer, the default), only after it failed
	// (MirrorsFallback), or never (MirrorsOff).
	Mirrors MirrorMode
	// Alternates (media types) and WithMetadata choose the resources the
	// planners fetch along with an entry's own (resourcesync.Companions):
	// its alternate representations of those types, its metadata records.
	Alternates   []string
	WithMetadata bool
	// Versions, when set, keeps each version an update replaces or a
	// deletion removes (--keep-versions).
	Versions VersionKeeper
	// LocalAlgs are computed for the state when the Source gives no hash
	// this package can verify, so that later checks have a digest.
	LocalAlgs []string
	// BatchSize and BatchInterval bound how many results wait for one
	// state transaction and for how long.
	BatchSize     int
	BatchInterval time.Duration
	// MaxUnavailable consecutive resources failing because the Source is
	// unavailable stop the run (exit 5) instead of failing one by one.
	MaxUnavailable int
	Limits         resourcesync.Limits
	Now            func() time.Time
	// Drain, when done, stops feeding new work; transfers in flight finish
	// and are recorded. Nil means never.
	Drain context.Context
	// Plan receives one line per action in a dry run (nil: none).
	Plan io.Writer
	// Progress, when set, is updated as the run goes (for a progress
	// display); read it with its methods from any goroutine.
	Progress *resourcesync.Progress
	// OutOfScope, when set, is told of each entry skipped as out of scope
	// (resourcesync.ErrOutOfScope) instead of a warning per entry: a
	// Source listing a million of them must not print a million lines;
	// the caller reports them host by host. Called one at a time.
	OutOfScope func(uri string, cause error)
	// Condition, when set, is told of each entry showing a fault a Source
	// repeats run after run and a Destination can only note (kind is
	// ConditionLastMod, ConditionMisdated, ConditionChangeKind, or
	// ConditionListAt of a whole list; detail says what the entry
	// shows) instead of a warning per entry: the caller warns about a
	// condition once, when it first appears, and counts it afterwards.
	// Called from one goroutine at a time.
	Condition func(kind, uri, detail string)
	// Dump tunes how dump packages are downloaded and read (Dump.MaxSize
	// is --max-dump-size); an empty Dump.TempDir means the job's temp
	// directory.
	Dump dumpzip.Options
	// Failpoint is passed to the writer (WriterOptions): a test seam for
	// crash tests; nil in production.
	Failpoint func(name string)
}

// DefaultRunOptions are the command line's defaults.
func DefaultRunOptions() RunOptions {
	return RunOptions{
		Workers:        8,
		MaxDelete:      DeleteLimit{Percent: 10, IsPercent: true},
		Mirrors:        MirrorsPrefer,
		LocalAlgs:      []string{resourcesync.AlgMD5},
		BatchSize:      256,
		BatchInterval:  100 * time.Millisecond,
		MaxUnavailable: 16,
		Now:            time.Now,
		Dump:           dumpzip.DefaultOptions(),
	}
}

// WithDefaults returns o with its zero fields set as DefaultRunOptions
// (Drain never done, a Progress nobody reads).
func (o RunOptions) WithDefaults() RunOptions {
	d := DefaultRunOptions()
	if o.Workers <= 0 {
		o.Workers = d.Workers
	}
	if o.BatchSize <= 0 {
		o.BatchSize = d.BatchSize
	}
	if o.BatchInterval <= 0 {
		o.BatchInterval = d.BatchInterval
	}
	if o.MaxUnavailable <= 0 {
		o.MaxUnavailable = d.MaxUnavailable
	}
	if o.Now == nil {
		o.Now = d.Now
	}
	if o.Mirrors == "" {
		o.Mirrors = d.Mirrors
	}
	if o.Drain == nil {
		o.Drain = context.Background()
	}
	if o.Progress == nil {
		o.Progress = &resourcesync.Progress{}
	}
	return o
}

// WriterOptions are the options of the run's writer.
func (o RunOptions) WriterOptions() WriterOptions {
	wo := DefaultWriterOptions()
	wo.MinBatch, wo.Interval, wo.DryRun, wo.Now, wo.Failpoint = o.BatchSize, o.BatchInterval, o.DryRun, o.Now, o.Failpoint
	return wo
}
