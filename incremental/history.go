package incremental

import (
	"context"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// list is one Change List read (or one Change Dump package): only its
// description is kept in memory, its changes go to the backlog.
type list struct {
	url         string
	from, until time.Time // until is zero for the open list
	skipped     int       // changes before the cursor, left out
	// pkg is the Change Dump package the list stands for; nil for a
	// Change List. released: the planner let go of its reference.
	pkg      *transfer.Package
	released bool
}

// history is what a run learned of the set's change history while it
// streamed it into the backlog.
type history struct {
	lists    []list
	earliest time.Time
	latest   time.Time // the latest time of any change read
	skipped  int       // closed lists recorded as done and not fetched
	unknown  int       // changes of an unknown kind, treated as updated
}

// load fills the backlog: first what earlier runs recorded (the changes
// applied since the cursor, the failures to retry), then the history
// after the cursor. It returns an error wrapping resourcesync.ErrLocal when
// the state or the backlog cannot be used; document errors as the
// readers report them.
func (r *run) load(ctx context.Context) error {
	err := r.d.Store.EachApplied(ctx, r.set.ID, r.set.Cursor, func(uri string, ch resourcesync.Change, t time.Time) error {
		if err := r.backlog.Applied(uri, ch, t); err != nil {
			return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read the changes recorded since the cursor: %w: %w", resourcesync.ErrLocal, err)
	}
	failures, err := r.d.Store.Failures(ctx, r.set.ID)
	if err != nil {
		return fmt.Errorf("read the set's failures: %w: %w", resourcesync.ErrLocal, err)
	}
	for _, f := range failures {
		if err := r.backlog.Retry(f.URI); err != nil {
			return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
		}
	}
	if r.set.viaDump() {
		err = r.readDumpHistory(ctx)
	} else {
		err = r.readHistory(ctx)
	}
	if r.hist.unknown > 0 {
		r.d.Log.Warn().Str("uri", r.set.doc()).Int("changes", r.hist.unknown).
			Msg("changes without a known change attribute (created, updated, deleted): treated as updated")
	}
	return err
}

// readHistory streams the set's Change Lists after the cursor into the
// backlog; closed lists recorded as done are not fetched.
func (r *run) readHistory(ctx context.Context) error {
	h := r.hist
	var stateErr error
	opts := resourcesync.HistoryOptions{
		Limits: r.opts.Limits,
		Since:  r.set.Cursor,
		SkipList: func(u string, _, _ time.Time) bool {
			done, err := r.d.Store.ListDone(ctx, r.set.ID, u)
			if err != nil && stateErr == nil {
				stateErr = fmt.Errorf("look up Change List %s in the state: %w: %w", u, resourcesync.ErrLocal, err)
			}
			if done {
				h.skipped++
			}
			return done
		},
	}
	hist, err := resourcesync.WalkHistory(ctx, r.d.Open, r.set.ChangeList, opts, resourcesync.HistoryVisitor{
		StartList: func(p *resourcesync.ChangeListPart) error {
			if stateErr != nil {
				return stateErr
			}
			h.lists = append(h.lists, list{url: p.URL, from: p.From, until: p.Until})
			return nil
		},
		Change: func(_ *resourcesync.ChangeListPart, c resourcesync.ChangeEntry) error {
			return r.add(c)
		},
		EndList: func(p *resourcesync.ChangeListPart) error {
			h.lists[len(h.lists)-1].skipped = p.Skipped
			return nil
		},
	})
	if hist != nil {
		h.earliest = hist.Earliest
	}
	if err == nil {
		err = stateErr
	}
	return err
}

// add appends one change of the last list to the backlog.
func (r *run) add(c resourcesync.ChangeEntry) error {
	h := r.hist
	kind := c.MD.Change
	if !kind.Known() {
		// A change of unknown kind still says the resource changed: bring
		// it to what the Source serves now.
		h.unknown++
		kind = resourcesync.ChangeUpdated
	}
	p := resourcesync.Pending{URI: c.Loc, Change: kind, Time: c.Time, List: len(h.lists) - 1, Position: c.Position}
	if kind != resourcesync.ChangeDeleted {
		lastmod := c.LastMod
		if lastmod.IsZero() {
			lastmod = c.Time
		}
		p.Version = resourcesync.Version{Fixity: c.MD.Hash, Length: c.MD.Length, HasLength: c.MD.HasLength, LastMod: lastmod}
	}
	if c.Time.After(h.latest) {
		h.latest = c.Time
	}
	if err := r.backlog.Add(p); err != nil {
		return fmt.Errorf("keep change %s of %s: %w: %w", kind, c.Loc, resourcesync.ErrLocal, err)
	}
	return nil
}
