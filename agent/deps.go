package agent

import (
	"context"
	"io"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Client is the Source as the jobs need it: discovery reads documents
// with their headers (Link hints), the sync paths bitstreams.
type Client interface {
	Fetcher
	transfer.Fetcher
}

// Store is the state as the jobs need it: the union of what the workers
// declare, plus the set records the orchestration keeps.
type Store interface {
	baseline.Store
	incremental.Store
	EnsureSet(ctx context.Context, capabilityList, source string) (resourcesync.SetState, error)
	Set(ctx context.Context, capabilityList string) (resourcesync.SetState, bool, error)
	Sets(ctx context.Context) ([]resourcesync.SetState, error)
	MoveSet(ctx context.Context, from, to string) (bool, error)
	ForgetSet(ctx context.Context, capabilityList string) (bool, error)
}

// Deps are the adapters, built by the command line.
type Deps struct {
	Client     Client
	Mirror     baseline.Mirror
	Store      Store
	NewListing func() (baseline.Listing, error)
	// NewAuditListing makes an empty Listing for one set's audit.
	NewAuditListing func() (audit.Listing, error)
	// NewBacklog makes an empty Backlog for one set's incremental sync.
	NewBacklog func() (incremental.Backlog, error)
	// TempDir is where a run keeps temporary files (downloaded packages);
	// inside the mirror's .resync-dest when it may write there.
	TempDir string
	Log     zerolog.Logger
}

// open reads the Source's documents for the jobs, which need no headers.
func (d Deps) open(ctx context.Context, u string) (string, io.ReadCloser, error) {
	final, _, body, err := d.Client.OpenDocument(ctx, u)
	return final, body, err
}

func (d Deps) baseline(log zerolog.Logger) baseline.Deps {
	return baseline.Deps{Open: d.open, Fetcher: d.Client, Mirror: d.Mirror, Store: d.Store, NewListing: d.NewListing,
		TempDir: d.TempDir, Log: log}
}

func (d Deps) incremental(log zerolog.Logger) incremental.Deps {
	return incremental.Deps{Open: d.open, Fetcher: d.Client, Mirror: d.Mirror, Store: d.Store, NewBacklog: d.NewBacklog,
		TempDir: d.TempDir, Log: log}
}
