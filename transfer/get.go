package transfer

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Request is one resource to bring into the mirror.
type Request struct {
	URI     string
	Path    string // mirror-relative target
	Hash    resourcesync.Fixity
	Length  int64
	HasLen  bool
	LastMod time.Time // the Source's lastmod: the file's mtime and the record's
	// Prev is the copy held, if any; with Conditional its validators make
	// the GET conditional.
	Prev        *resourcesync.Held
	Conditional bool
	// LocalAlgs are computed when the Source gives no verifiable hash, so
	// that the record has a digest.
	LocalAlgs []string
	Now       time.Time // when fetched, for the record
}

// Got is the outcome of a successful Get.
type Got struct {
	// Ticket is the staged file to publish; "" when the Source said the
	// copy held is current (304).
	Ticket string
	// Held is the record to store once the ticket is published (or at
	// once when there is no ticket).
	Held  resourcesync.Held
	Bytes int64
}

// Get fetches r.URI, verifying length and every hash given, into a staged
// file at r.Path. The error is per-resource (the caller records it and goes
// on) unless it wraps resourcesync.ErrLocal (the disk cannot take writes)
// or is the context's error: both must stop the run.
func Get(ctx context.Context, f Fetcher, m Stager, r Request) (Got, error) {
	fetch := resourcesync.Fetch{URL: r.URI, Hash: r.Hash, Length: r.Length, HasLength: r.HasLen}
	if !r.Hash.Verifiable() {
		fetch.ExtraAlgs = r.LocalAlgs
	}
	if r.Conditional && r.Prev != nil {
		fetch.ETag, fetch.LastModified = r.Prev.ETag, r.Prev.LastModified
	}
	var got resourcesync.Fetched
	ticket, err := m.Put(r.Path, r.LastMod, func(s resourcesync.Sink) (bool, error) {
		var err error
		got, err = f.Download(ctx, fetch, s)
		return err == nil && !got.NotModified, err
	})
	if err != nil {
		// The fetcher's errors name the URL already: say it once.
		return Got{}, Classify(ctx, fmt.Errorf("%w (into %s)", err, r.Path))
	}
	if ticket == "" {
		h := resourcesync.Held{URI: r.URI, Path: r.Path}
		if r.Prev != nil {
			h = *r.Prev
		}
		h.Path, h.LastMod = r.Path, r.LastMod
		return Got{Held: h}, nil
	}
	return Got{Ticket: ticket, Bytes: got.Bytes, Held: resourcesync.Held{
		URI: r.URI, Path: r.Path, Length: got.Bytes, Fixity: got.Sums, LastMod: r.LastMod,
		ETag: got.ETag, LastModified: got.LastModified, Fetched: r.Now,
	}}, nil
}

// Classify marks errors that must stop a run: the context's own error is
// returned as is, a local disk fault is wrapped with resourcesync.ErrLocal.
// Anything else is a per-resource failure and comes back unchanged.
func Classify(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, resourcesync.ErrLocal) {
		return err
	}
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EIO, syscall.EROFS, syscall.EDQUOT} {
		if errors.Is(err, errno) {
			return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
		}
	}
	return err
}

// Fatal reports whether a classified error must stop the run.
func Fatal(err error) bool {
	return errors.Is(err, resourcesync.ErrLocal) || errors.Is(err, context.Canceled) ||
		errors.Is(err, context.DeadlineExceeded)
}
