package agent

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Client is the Source as the jobs need it.
type Client interface {
	Fetcher
	baseline.Fetcher
}

// Store is the state as the jobs need it: the union of what the workers
// declare, plus the set records the orchestration keeps.
type Store interface {
	baseline.Store
	EnsureSet(ctx context.Context, capabilityList, source string) (resourcesync.SetState, error)
	Set(ctx context.Context, capabilityList string) (resourcesync.SetState, bool, error)
	Sets(ctx context.Context) ([]resourcesync.SetState, error)
	Failures(ctx context.Context, setID int64) ([]resourcesync.Failure, error)
	ChangeStatus(ctx context.Context, setID int64, uri string, ch resourcesync.Change, t time.Time) (recorded, failed bool, err error)
	ListDone(ctx context.Context, setID int64, url string) (bool, error)
	PruneChanges(ctx context.Context, setID int64, before time.Time) (int64, error)
}

// Deps are the adapters, built by the command line.
type Deps struct {
	Client     Client
	Mirror     baseline.Mirror
	Store      Store
	NewListing func() (baseline.Listing, error)
	// NewAuditListing makes an empty Listing for one set's audit.
	NewAuditListing func() (audit.Listing, error)
	// TempDir is where a run keeps temporary files (downloaded packages);
	// inside the mirror's .resync-dest when it may write there.
	TempDir string
	Log     zerolog.Logger
}

func (d Deps) baseline() baseline.Deps {
	return baseline.Deps{Fetcher: d.Client, Mirror: d.Mirror, Store: d.Store, NewListing: d.NewListing, TempDir: d.TempDir, Log: d.Log}
}
