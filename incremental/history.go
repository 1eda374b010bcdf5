package incremental

import (
	"context"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// change is one change of the history after the cursor, kept compact: a
// run holds every change it read in memory (with the plan and the ledger,
// about 1 KiB each), so that each resource can be brought to its final
// state once, whichever list its changes are in.
type change struct {
	uri     string
	kind    resourcesync.Change
	at      time.Time // the time of the change: datetime, else lastmod
	lastmod time.Time // the resource's lastmod after the change
	hash    resourcesync.Fixity
	length  int64
	hasLen  bool
	list    int32 // index in history.lists
	pos     int32 // 1-based position in its list
	done    bool  // recorded as applied by an earlier run
}

// list is one Change List read (or one Change Dump package), with the
// range of its changes.
type list struct {
	url         string
	from, until time.Time // until is zero for the open list
	start, end  int       // its changes are history.changes[start:end]
	skipped     int       // changes before the cursor, left out
	// pkg is the Change Dump package the list stands for; nil for a
	// Change List.
	pkg *dumpPackage
}

func (l *list) closed() bool { return !l.until.IsZero() }

// history is what a run read of the set's change history: every change at
// or after the cursor, in the order they are applied (lists in index
// order, each forward chronological, equal times in document order).
type history struct {
	lists    []list
	changes  []change
	earliest time.Time
	skipped  int // closed lists recorded as done and not fetched
	unknown  int // changes of an unknown kind, treated as updated
}

// readHistory reads the set's history after the cursor and looks up which
// changes an earlier run already recorded as applied. It returns an error
// wrapping resourcesync.ErrLocal when the state cannot be read; document
// errors as resourcesync.ReadHistory reports them.
func (r *run) readHistory(ctx context.Context) (*history, error) {
	h := &history{}
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
	hist, err := resourcesync.ReadHistory(ctx, r.openDoc, r.set.ChangeList, opts, func(p *resourcesync.ChangeListPart) error {
		if stateErr != nil {
			return stateErr
		}
		return r.addList(ctx, h, list{url: p.URL, from: p.From, until: p.Until, skipped: p.Skipped}, p.Changes)
	})
	if hist != nil {
		h.earliest = hist.Earliest
	}
	if err == nil {
		err = stateErr
	}
	r.warnUnknown(h)
	return h, err
}

// addList appends one list (a Change List, or a Change Dump package) and
// its changes, in the order they are applied, looking up which ones an
// earlier run already recorded as applied.
func (r *run) addList(ctx context.Context, h *history, l list, changes []resourcesync.ChangeEntry) error {
	l.start = len(h.changes)
	idx := int32(len(h.lists))
	for _, c := range changes {
		kind := c.MD.Change
		if !kind.Known() {
			// A change of unknown kind still says the resource changed:
			// bring it to what the Source serves now.
			h.unknown++
			kind = resourcesync.ChangeUpdated
		}
		lastmod := c.LastMod
		if lastmod.IsZero() {
			lastmod = c.Time
		}
		ch := change{uri: c.Loc, kind: kind, at: c.Time, lastmod: lastmod, list: idx, pos: int32(c.Position)}
		if kind != resourcesync.ChangeDeleted {
			ch.hash, ch.length, ch.hasLen = c.MD.Hash, c.MD.Length, c.MD.HasLength
		}
		recorded, failed, err := r.d.Store.ChangeStatus(ctx, r.set.ID, ch.uri, ch.kind, ch.at)
		if err != nil {
			return fmt.Errorf("look up change %s of %s in the state: %w: %w", ch.kind, ch.uri, resourcesync.ErrLocal, err)
		}
		ch.done = recorded && !failed
		h.changes = append(h.changes, ch)
	}
	l.end = len(h.changes)
	h.lists = append(h.lists, l)
	return nil
}

func (r *run) warnUnknown(h *history) {
	if h.unknown > 0 {
		r.d.Log.Warn().Str("uri", r.set.doc()).Int("changes", h.unknown).
			Msg("changes without a known change attribute (created, updated, deleted): treated as updated")
	}
}
