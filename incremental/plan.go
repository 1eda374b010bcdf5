package incremental

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Units emits one unit per resource of the backlog, in the order the
// backlog gives (failures retried alone, then by URI): each brings its
// resource to the state of its final change and settles its pending
// changes. Each unit with pending changes is registered with the ledger
// before it is emitted.
func (r *run) Units(ctx context.Context, f *transfer.Feed) error {
	defer r.releasePackages()
	defer r.reportOrder()
	err := r.backlog.Units(func(bu resourcesync.BacklogUnit) error {
		u := r.unit(&bu)
		if err := r.outOfOrder(ctx, &bu, u); err != nil {
			return err
		}
		if len(bu.Pending) > 0 {
			r.ledger.register(bu.URI, earliest(bu.Pending))
		}
		return f.Emit(u)
	})
	if err != nil {
		if errors.Is(err, transfer.ErrDrained) || transfer.Fatal(err) {
			return err
		}
		return fmt.Errorf("read the backlog: %w: %w", resourcesync.ErrLocal, err)
	}
	r.ledger.allEmitted()
	return nil
}

// collections are the collection links (§14.7) of a backlog unit's
// changes, its final one's and those still pending: a resource any of
// them names a member of a --collection is taken, so a deletion that
// carries no link still deletes what a change of this run admitted.
func collections(bu *resourcesync.BacklogUnit) []resourcesync.Link {
	var out []resourcesync.Link
	if bu.Final != nil {
		out = resourcesync.Collections(bu.Final.Links)
	}
	for _, p := range bu.Pending {
		out = append(out, resourcesync.Collections(p.Links)...)
	}
	return out
}

// byRecord reports whether the changes of bu say nothing of which
// collections its resource is a member of: there is none (a failure
// retried that no change names), or each is a deletion that carries no
// collection link. The collection links the state recorded with the copy
// held then decide (transfer.Unit.ByRecord). A created or updated change
// without one says the resource is in no collection.
func byRecord(bu *resourcesync.BacklogUnit) bool {
	if bu.Final != nil && bu.Final.Change != resourcesync.ChangeDeleted {
		return false
	}
	for _, p := range bu.Pending {
		if p.Change != resourcesync.ChangeDeleted {
			return false
		}
	}
	return len(collections(bu)) == 0
}

// unit is the engine's work for one resource of the backlog.
func (r *run) unit(bu *resourcesync.BacklogUnit) *transfer.Unit {
	u := &transfer.Unit{URI: bu.URI, Settled: bu.Settled, Retry: bu.Retry, Gone: bu.Gone(),
		Collections: collections(bu), ByRecord: byRecord(bu), Companion: bu.Final != nil && bu.Final.Companion}
	switch final := bu.Final; {
	case final == nil:
		// A failure retried that no change names: nothing says which
		// version is wanted; ask whether the copy held is current.
		u.Revalidate = true
	case !u.Gone:
		u.Want, u.Wanted = final.Version, true
		u.Mirrors = resourcesync.Mirrors(final.Links)
		if !final.Companion {
			u.Links, u.RecordLinks = resourcesync.Recorded(final.Links), true
		}
		p, updated := r.hist.lists[final.List].pkg, final.Change == resourcesync.ChangeUpdated
		switch patches := resourcesync.Patches(final.Links); {
		case p == nil:
			if updated {
				u.Patches = patches
			}
		case bu.Settled || final.Companion:
		case len(patches) > 0 && updated:
			// The entry has no bitstream of its own, only patches
			// (dumpLinks): the one its package holds, else <loc>.
			p.Acquire()
			u.Patches, u.PatchPackage = patches, p
		default:
			u.Origins = []transfer.Origin{newChangeOrigin(p, final)}
		}
	}
	for _, c := range bu.Pending {
		// The versions announced with a memento link (§14.6): kept with
		// --keep-versions, the last an origin of the wanted one.
		if ms := resourcesync.Mementos(c.Links); len(ms) > 0 && c.Change != resourcesync.ChangeDeleted && !c.Companion {
			u.Mementos = append(u.Mementos, transfer.Memento{Link: ms[0], Version: c.Version})
		}
	}
	if len(bu.Pending) > 0 {
		u.Changes = make([]resourcesync.ChangeRecord, len(bu.Pending))
		for i, c := range bu.Pending {
			u.Changes[i] = resourcesync.ChangeRecord{URI: c.URI, Change: c.Change, Time: c.Time,
				List: r.hist.lists[c.List].url, Position: c.Position}
		}
	}
	return u
}

// Recorded counts a unit's changes once its result is recorded (the
// engine's goroutine for results, one at a time).
func (r *run) Recorded(res transfer.Result) {
	u := res.Unit
	if u.Retry {
		r.sum.Retried++
	}
	tag, _ := u.Tag.(orderTag)
	switch {
	case res.Outcome == transfer.Failed:
		r.sum.ChangesFailed += int64(len(u.Changes))
	case tag.inEffect:
		r.sum.AlreadyDone += int64(len(u.Changes))
	default:
		// The changes ignored are recorded as processed, counted as
		// ignored (outOfOrder).
		r.sum.Applied += int64(len(u.Changes) - tag.ignored)
	}
}

// BeforeCommit adds to a batch the cursor and the closed lists its change
// records complete, so that they are recorded with the records that
// justify them.
func (r *run) BeforeCommit(b *resourcesync.Batch) { r.ledger.record(b) }

func earliest(ps []resourcesync.Pending) time.Time {
	t := ps[0].Time
	for _, p := range ps[1:] {
		if p.Time.Before(t) {
			t = p.Time
		}
	}
	return t
}

// releasePackages lets go of the planner's reference on each Change Dump
// package: once every unit is emitted, only the units still to apply keep
// a package.
func (r *run) releasePackages() {
	for i := range r.hist.lists {
		if p := r.hist.lists[i].pkg; p != nil && !r.hist.lists[i].released {
			r.hist.lists[i].released = true
			p.Release()
		}
	}
}

// guardDeletes refuses, before anything is applied, a run whose deletions
// would remove more of the set's files than --max-delete allows.
func (r *run) guardDeletes(ctx context.Context) error {
	if !r.opts.Delete || r.opts.MaxDelete.All() {
		// 100% cannot be exceeded: n counts held files and untracked ones,
		// and the total both (below). Counting costs a lookup per
		// deletion - 5% of applying a backlog of 60,000 deletions.
		return nil
	}
	var n, untracked int64
	batch := make([]string, 0, guardBatch)
	rec := make(map[string]bool) // of batch: judged by the state's record (byRecord)
	count := func() error {
		held, err := r.d.Store.HeldMany(ctx, r.set.ID, batch)
		if err != nil {
			return fmt.Errorf("look up the resources to delete: %w: %w", resourcesync.ErrLocal, err)
		}
		for _, uri := range batch {
			h, ok := held[uri]
			if rec[uri] {
				var hp *resourcesync.Held
				if ok {
					hp = &h
				}
				if r.opts.Filter.CheckHeld(uri, hp) != nil {
					continue // left out, as the engine will leave it
				}
			}
			if ok {
				n++
				continue
			}
			removes, err := r.removesUntracked(ctx, uri)
			if err != nil {
				return err
			}
			if removes {
				n++
				untracked++
			}
		}
		batch = batch[:0]
		clear(rec)
		return nil
	}
	err := r.backlog.Deletions(func(bu resourcesync.BacklogUnit) error {
		companion := bu.Final != nil && bu.Final.Companion // follows its resource, taken
		switch {
		case companion:
		case byRecord(&bu):
			rec[bu.URI] = true // judged once its record is looked up
		case r.opts.Filter.CheckEntry(bu.URI, collections(&bu)) != nil:
			return nil // left out: not deleted
		}
		if batch = append(batch, bu.URI); len(batch) < guardBatch {
			return nil
		}
		return count()
	})
	if err == nil {
		err = count()
	}
	if err != nil {
		if errors.Is(err, resourcesync.ErrLocal) {
			return err
		}
		return fmt.Errorf("read the backlog: %w: %w", resourcesync.ErrLocal, err)
	}
	if n == 0 {
		return nil
	}
	held, err := r.d.Store.HeldCount(ctx, r.set.ID)
	if err != nil {
		return fmt.Errorf("count the set's resources: %w: %w", resourcesync.ErrLocal, err)
	}
	// Files no set holds at the paths of deleted resources are the set's
	// too: a run that recorded their deletion and died before removing
	// them left them (transfer forgets a resource before removing its
	// file), and its resume must pass the guard the first run passed.
	total := held + untracked
	if !r.opts.MaxDelete.Allows(n, total) {
		return fmt.Errorf("%w: the changes would delete %d local files of a set of %d, more than --max-delete %s allows; nothing was changed (raise --max-delete if this is intended)",
			resourcesync.ErrSafetyStop, n, total, r.opts.MaxDelete)
	}
	return nil
}

// guardBatch is how many deletions guardDeletes looks up at once.
const guardBatch = 100

// removesUntracked reports whether deleting uri, which the set does not
// hold, removes a file: one at its path that no set holds (a copy
// published by a run that died before recording it, or one whose record
// was dropped before its removal).
func (r *run) removesUntracked(ctx context.Context, uri string) (bool, error) {
	if r.opts.Scope.Check(uri) != nil {
		return false, nil // never fetched, so not ours to remove
	}
	path, err := r.d.Mirror.Path(uri)
	if err != nil {
		return false, nil // maps nowhere: the unit fails alone
	}
	info, err := r.d.Mirror.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return false, nil
		}
		return false, fmt.Errorf("stat %s: %w: %w", path, resourcesync.ErrLocal, err)
	}
	if !info.Mode().IsRegular() {
		return false, nil
	}
	holders, err := r.d.Store.PathHolders(ctx, path)
	if err != nil {
		return false, fmt.Errorf("look up the holders of %s: %w: %w", path, resourcesync.ErrLocal, err)
	}
	return len(holders) == 0, nil
}
