package agent

import (
	"context"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Client is the Source as the jobs need it.
type Client interface {
	Fetcher
	baseline.Fetcher
}

// Store is the state as the jobs need it.
type Store interface {
	baseline.Store
	EnsureSet(ctx context.Context, capabilityList, source string) (resourcesync.SetState, error)
	Set(ctx context.Context, capabilityList string) (resourcesync.SetState, bool, error)
}

// Deps are the adapters, built by the command line.
type Deps struct {
	Client     Client
	Mirror     baseline.Mirror
	Store      Store
	NewListing func() (baseline.Listing, error)
	Log        zerolog.Logger
}

func (d Deps) baseline() baseline.Deps {
	return baseline.Deps{Fetcher: d.Client, Mirror: d.Mirror, Store: d.Store, NewListing: d.NewListing, Log: d.Log}
}
