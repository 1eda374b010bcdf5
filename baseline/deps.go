package baseline

import (
	"context"
	"io/fs"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Mirror is the local tree.
type Mirror interface {
	transfer.Mirror
	Walk(dir string, fn func(rel string, info fs.FileInfo) error) error
	// SweepPartials removes the partial downloads kept for the paths
	// wanted does not accept.
	SweepPartials(wanted func(rel string) (bool, error)) (int, error)
	// HasPartials reports whether a partial download is kept.
	HasPartials() (bool, error)
}

// Store is the state.
type Store interface {
	transfer.Store
	HeldAt(ctx context.Context, setID int64, path string) (resourcesync.Held, bool, error)
	HeldCount(ctx context.Context, setID int64) (int64, error)
}

// Listing remembers, on disk, the paths the Source listed in this run.
type Listing interface {
	Add(e resourcesync.Listed) error
	Has(path string) (bool, error)
	Close() error
}

// Deps are the adapters a run uses.
type Deps struct {
	// Open reads the Source's documents (lists, dumps, manifest copies);
	// Fetcher its bitstreams and packages.
	Open    resourcesync.Opener
	Fetcher transfer.Fetcher
	Mirror  Mirror
	Store   Store
	// NewListing makes an empty Listing for this run.
	NewListing func() (Listing, error)
	// TempDir holds the packages of a Resource Dump while they are read;
	// "" means the system's temp directory.
	TempDir string
	Log     zerolog.Logger
}

func (d Deps) transfer() transfer.Deps {
	return transfer.Deps{Fetcher: d.Fetcher, Mirror: d.Mirror, Store: d.Store, Log: d.Log}
}
