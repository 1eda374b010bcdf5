package incremental

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// bareDeletions are the deletions of the list being read whose entries
// carry no links, waiting to be looked up in the state: the files fetched
// along with their resources (--alternate, --with-metadata) are named by
// the links recorded with the copy held, and are deleted with it. They
// are looked up in batches, and always before the next list's first
// change, because the backlog takes a list's changes before the next
// one's.
type bareDeletions struct {
	list    int
	pending []resourcesync.Pending
}

// bareBatch is how many bare deletions are looked up at once.
const bareBatch = 100

// wantsCompanions reports whether deleting p may leave files fetched
// along with its resource that its entry does not name.
func (r *run) wantsCompanions(p resourcesync.Pending, entryLinks []resourcesync.Link) bool {
	return p.Change == resourcesync.ChangeDeleted && (len(r.opts.Alternates) > 0 || r.opts.WithMetadata) &&
		len(r.opts.Companions(entryLinks)) == 0
}

// addBare keeps a bare deletion for the lookup (add has looked up those
// of an earlier list before it added this list's first change).
func (r *run) addBare(ctx context.Context, p resourcesync.Pending) error {
	b := &r.bare
	b.list = p.List
	b.pending = append(b.pending, p)
	if len(b.pending) >= bareBatch {
		return r.flushBare(ctx)
	}
	return nil
}

// flushBare adds to the backlog the deletion of each file the state
// records as fetched along with a bare deletion's resource - only when
// the filters take the resource, judged by its record as the engine
// judges it.
func (r *run) flushBare(ctx context.Context) error {
	b := &r.bare
	if len(b.pending) == 0 {
		return nil
	}
	uris := make([]string, len(b.pending))
	for i, p := range b.pending {
		uris[i] = p.URI
	}
	held, err := r.d.Store.HeldMany(ctx, r.set.ID, uris)
	if err != nil {
		return fmt.Errorf("look up the resources deleted: %w: %w", resourcesync.ErrLocal, err)
	}
	for _, p := range b.pending {
		h, ok := held[p.URI]
		if !ok || len(h.Links) == 0 || r.takes(p, &h) != nil {
			continue
		}
		for _, l := range r.opts.Companions(h.Links) {
			cp := resourcesync.Pending{URI: l.Href, Change: resourcesync.ChangeDeleted, Time: p.Time, List: p.List, Position: p.Position, Companion: true}
			if err := r.backlog.Add(cp); err != nil {
				return fmt.Errorf("keep change deleted of %s: %w: %w", l.Href, resourcesync.ErrLocal, err)
			}
		}
	}
	b.pending = b.pending[:0]
	return nil
}

// takes is the filters' verdict on a bare deletion's resource: by the
// deletion's own collection links when it has some, else by the record.
func (r *run) takes(p resourcesync.Pending, h *resourcesync.Held) error {
	if len(p.Links) > 0 {
		return r.opts.Filter.CheckEntry(p.URI, p.Links)
	}
	return r.opts.Filter.CheckHeld(p.URI, h)
}
