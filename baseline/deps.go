package baseline

import (
	"context"
	"io"
	"io/fs"
	"net/http"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Fetcher gets documents and bitstreams from the Source.
type Fetcher interface {
	OpenDocument(ctx context.Context, url string) (finalURL string, header http.Header, body io.ReadCloser, err error)
	Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error)
}

// Mirror is the local tree.
type Mirror interface {
	transfer.Mirror
	Path(uri string) (string, error)
	Stat(rel string) (fs.FileInfo, error)
	HashFile(rel string, algs []string) (resourcesync.Fixity, int64, error)
	Remove(rel string) error
	Walk(dir string, fn func(rel string, info fs.FileInfo) error) error
}

// Store is the state.
type Store interface {
	Held(ctx context.Context, setID int64, uri string) (resourcesync.Held, bool, error)
	HeldMany(ctx context.Context, setID int64, uris []string) (map[string]resourcesync.Held, error)
	HeldAt(ctx context.Context, setID int64, path string) (resourcesync.Held, bool, error)
	HeldCount(ctx context.Context, setID int64) (int64, error)
	EachHeld(ctx context.Context, setID int64, fn func(resourcesync.Held) error) error
	PathHolders(ctx context.Context, path string) ([]int64, error)
	transfer.Store
}

// Listing remembers, on disk, the paths the Source listed in this run.
type Listing interface {
	Add(e resourcesync.Listed) error
	Has(path string) (bool, error)
	Close() error
}

// Deps are the adapters a run uses.
type Deps struct {
	Fetcher Fetcher
	Mirror  Mirror
	Store   Store
	// NewListing makes an empty Listing for this run.
	NewListing func() (Listing, error)
	// TempDir holds the packages of a Resource Dump while they are read;
	// "" means the system's temp directory.
	TempDir string
	Log     zerolog.Logger
}
