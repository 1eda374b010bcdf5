package incremental

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Store is the state.
type Store interface {
	transfer.Store
	HeldCount(ctx context.Context, setID int64) (int64, error)
	Failures(ctx context.Context, setID int64) ([]resourcesync.Failure, error)
	// EachApplied visits the changes recorded as applied at or after
	// since.
	EachApplied(ctx context.Context, setID int64, since time.Time, fn func(uri string, ch resourcesync.Change, t time.Time) error) error
	ListDone(ctx context.Context, setID int64, url string) (bool, error)
	PruneChanges(ctx context.Context, setID int64, before time.Time) (int64, error)
}

// Backlog keeps the history read since the cursor on disk for one run and
// hands it back one unit of work per resource (state.Backlog).
type Backlog interface {
	// Applied and Retry say what earlier runs recorded; they come before
	// the changes.
	Applied(uri string, ch resourcesync.Change, t time.Time) error
	Retry(uri string) error
	// Add appends a change, lists in order, each in document order.
	Add(p resourcesync.Pending) error
	// AddUnapplied adds a change dated before the cursor only when it is
	// not recorded as applied, and reports whether it did.
	AddUnapplied(p resourcesync.Pending) (bool, error)
	// Counts, PendingPerList, Units and Deletions read it back, once every
	// change was added.
	Counts() (changes, done int64, err error)
	PendingPerList() (map[int]int64, error)
	Units(fn func(resourcesync.BacklogUnit) error) error
	Deletions(fn func(resourcesync.BacklogUnit) error) error
	Close() error
}

// Deps are the adapters a run uses.
type Deps struct {
	// Open reads the Source's documents (Change Lists, dumps, manifest
	// copies); Fetcher its bitstreams and packages.
	Open    resourcesync.Opener
	Fetcher transfer.Fetcher
	Mirror  transfer.Mirror
	Store   Store
	// NewBacklog makes an empty Backlog for this run.
	NewBacklog func() (Backlog, error)
	// TempDir holds the packages of a Change Dump while they are read;
	// "" means the system's temp directory.
	TempDir string
	Log     zerolog.Logger
}

func (d Deps) transfer() transfer.Deps {
	return transfer.Deps{Fetcher: d.Fetcher, Mirror: d.Mirror, Store: d.Store, Log: d.Log}
}
