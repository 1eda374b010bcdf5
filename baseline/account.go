package baseline

import (
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Recorded remembers each listed resource's path once its result is
// recorded: the set's tree and the listing the deletion pass walks
// against. The engine calls it from one goroutine at a time, so it may
// update the run without locks.
func (r *run) Recorded(res transfer.Result) {
	u := res.Unit
	if u.Path == "" {
		return
	}
	r.roots.add(u.Path)
	if r.listing == nil {
		return
	}
	err := r.listing.Add(resourcesync.Listed{
		URI: u.URI, Path: u.Path, Length: u.Want.Length, HasLength: u.Want.HasLength, Fixity: u.Want.Fixity, LastMod: u.Want.LastMod,
	})
	if err != nil && r.listErr == nil {
		r.listErr = fmt.Errorf("remember listed %s: %w: %w", u.URI, resourcesync.ErrLocal, err)
	}
}
