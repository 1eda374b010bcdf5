package incremental

import (
	"context"
	"io"
	"io/fs"
	"net/http"
	"time"

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
	Remove(rel string) error
}

// Store is the state.
type Store interface {
	Held(ctx context.Context, setID int64, uri string) (resourcesync.Held, bool, error)
	HeldCount(ctx context.Context, setID int64) (int64, error)
	PathHolders(ctx context.Context, path string) ([]int64, error)
	Failures(ctx context.Context, setID int64) ([]resourcesync.Failure, error)
	ChangeStatus(ctx context.Context, setID int64, uri string, ch resourcesync.Change, t time.Time) (recorded, failed bool, err error)
	ListDone(ctx context.Context, setID int64, url string) (bool, error)
	PruneChanges(ctx context.Context, setID int64, before time.Time) (int64, error)
	transfer.Store
}

// Deps are the adapters a run uses.
type Deps struct {
	Fetcher Fetcher
	Mirror  Mirror
	Store   Store
	// TempDir holds the packages of a Change Dump while they are read;
	// "" means the system's temp directory.
	TempDir string
	Log     zerolog.Logger
}
