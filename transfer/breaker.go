package transfer

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Breaker stops a run when the Source is down rather than failing every
// remaining resource after its full retry budget: Max resources in a row
// failing with resourcesync.ErrUnavailable trip it. Safe for concurrent
// use.
type Breaker struct {
	Max int
	n   atomic.Int64
}

// Note records one resource's outcome (err nil on success) and returns a
// fatal error wrapping resourcesync.ErrUnavailable once the breaker trips.
func (b *Breaker) Note(uri string, err error) error {
	if err == nil || !errors.Is(err, resourcesync.ErrUnavailable) {
		if err == nil {
			b.n.Store(0)
		}
		return nil
	}
	if n := b.n.Add(1); b.Max > 0 && n >= int64(b.Max) {
		return fmt.Errorf("%d resources in a row failed because the Source is unavailable, the last %s: %w", n, uri, err)
	}
	return nil
}
