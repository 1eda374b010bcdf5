package transfer

import (
	"context"
	"io/fs"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Fetcher downloads a bitstream, verified, into a sink: the Source's HTTP
// client, or a member of a dump package.
type Fetcher interface {
	Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error)
}

// Stager writes a file's new content into a staged temp file.
type Stager interface {
	// Put writes rel's new content into a staged temp file; ticket is ""
	// when fill declined (keep=false).
	Put(rel string, mtime time.Time, fill func(resourcesync.Sink) (keep bool, err error)) (ticket string, err error)
}

// Publisher makes staged files (and removals) durable.
type Publisher interface {
	// Sync makes durable, in one barrier, the data of every file staged
	// so far and every rename and removal made so far; an error is fatal.
	Sync() error
	// Place renames staged files into place, returning one error per
	// ticket; the renames are durable once the next Sync returns.
	Place(tickets []string) []error
}

// Committer records a batch in one transaction.
type Committer interface {
	Commit(ctx context.Context, setID int64, b *resourcesync.Batch) error
}

// Mirror is the local tree as the engine's workers use it.
type Mirror interface {
	Stager
	Publisher
	Path(uri string) (string, error)
	Stat(rel string) (fs.FileInfo, error)
	// Mark and MadeSince spare the stat of a path nothing can be at:
	// MadeSince(rel, mark) reports that rel's directory was made after
	// Mark returned mark, and so holds only what was placed in it since.
	// A mirror that makes no directories returns false.
	Mark() uint64
	MadeSince(rel string, mark uint64) bool
	HashFile(rel string, algs []string) (resourcesync.Fixity, int64, error)
	Remove(rel string) error
	// DropPartial removes the partial download kept for rel, if any.
	DropPartial(rel string) error
}

// Store is the state as the engine uses it.
type Store interface {
	Committer
	HeldMany(ctx context.Context, setID int64, uris []string) (map[string]resourcesync.Held, error)
	PathHolders(ctx context.Context, path string) ([]int64, error)
	// OtherSetsHold reports whether a set other than setID holds a
	// resource, or may come to while the run lasts. When none does, no
	// deletion of the run asks PathHolders (a query per deletion).
	OtherSetsHold(ctx context.Context, setID int64) (bool, error)
	// PathOwners maps each of paths the set holds to the URI it holds
	// there.
	PathOwners(ctx context.Context, setID int64, paths []string) (map[string]string, error)
	EachHeld(ctx context.Context, setID int64, fn func(resourcesync.Held) error) error
}

// Deps are the adapters a run uses.
type Deps struct {
	Fetcher Fetcher // the Source
	Mirror  Mirror
	Store   Store
	Log     zerolog.Logger
}
