package transfer

import (
	"context"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Fetcher downloads a bitstream, verified, into a sink.
type Fetcher interface {
	Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error)
}

// Mirror stages files and publishes them durably.
type Mirror interface {
	// Put writes rel's new content into a staged temp file; ticket is ""
	// when fill declined (keep=false).
	Put(rel string, mtime time.Time, fill func(resourcesync.Sink) (keep bool, err error)) (ticket string, err error)
	// Publish renames staged files into place durably, returning one error
	// per ticket and a fatal error when durability failed.
	Publish(tickets []string) ([]error, error)
}

// Store records a batch in one transaction.
type Store interface {
	Commit(ctx context.Context, setID int64, b *resourcesync.Batch) error
}
