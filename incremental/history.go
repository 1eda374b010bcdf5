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
	read        time.Time // when this run began to read it (Options.Now)
	skipped     int       // changes before the cursor recorded as applied, left out
	// first is the earliest time of a change the list holds, read or
	// left out: the records of applied changes are kept from there while
	// the list is read again (finish), so that a change a Source lists
	// late, dated before the cursor, is told from one already applied.
	first time.Time
	// pkg is the Change Dump package the list stands for; nil for a
	// Change List. released: the planner let go of its reference.
	pkg      *transfer.Package
	released bool
}

// bound is the latest time a change of the list can have: a closed list
// covers up to its until, and no list holds a change after the time it
// was read. Read times are cut to the second, the precision Sources
// publish, so that a change a Source dates in the same second as the
// read is never taken for one before the cursor.
func (l *list) bound() time.Time {
	read := l.read.Truncate(time.Second)
	if !l.until.IsZero() && l.until.Before(read) {
		return l.until
	}
	return read
}

// history is what a run learned of the set's change history while it
// streamed it into the backlog.
type history struct {
	lists    []list
	earliest time.Time
	latest   time.Time // the latest time of any change read
	skipped  int       // closed lists recorded as done and not fetched
	unknown  int       // changes of an unknown kind, treated as updated
	misdated int64     // changes dated outside their list's interval or after the run's time
}

// misdatedNamed is how many misdated changes are warned about one by one;
// the rest are counted in one line.
const misdatedNamed = 10

// load fills the backlog: first what earlier runs recorded (the changes
// applied since the cursor, the failures to retry), then the history
// after the cursor. It returns an error wrapping resourcesync.ErrLocal when
// the state or the backlog cannot be used; document errors as the
// readers report them.
func (r *run) load(ctx context.Context) error {
	// Every record kept, the ones before the cursor too: they say which
	// changes dated before it, in the lists read again, were applied.
	err := r.d.Store.EachApplied(ctx, r.set.ID, time.Time{}, func(uri string, ch resourcesync.Change, t time.Time) error {
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
	if err == nil {
		err = r.flushBare(ctx)
	}
	r.bare.pending = r.bare.pending[:0]
	if n := r.hist.misdated; n > misdatedNamed && r.opts.Condition == nil {
		r.d.Log.Warn().Str("uri", r.set.doc()).Int64("changes", n).
			Msgf("%d changes in all were dated outside their list's interval or after this run's time (%d named above); each was applied, and held the cursor at its list's bound", n, misdatedNamed)
	}
	if r.hist.unknown > 0 && r.opts.Condition == nil {
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
		Limits:    r.opts.Limits,
		Since:     r.set.Cursor,
		KeepEarly: true,
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
	v := resourcesync.HistoryVisitor{
		StartList: func(p *resourcesync.ChangeListPart) error {
			if stateErr != nil {
				return stateErr
			}
			h.lists = append(h.lists, list{url: p.URL, from: p.From, until: p.Until, read: r.opts.Now()})
			return nil
		},
		Change: func(_ *resourcesync.ChangeListPart, c resourcesync.ChangeEntry) error {
			return r.add(ctx, c)
		},
		EndList: func(p *resourcesync.ChangeListPart) error {
			h.lists[len(h.lists)-1].skipped += p.Skipped
			return nil
		},
	}
	if err := r.readArchived(ctx, opts, v); err != nil {
		return err
	}
	hist, err := resourcesync.WalkHistory(ctx, r.d.Open, r.set.ChangeList, opts, v)
	if hist != nil {
		h.earliest = hist.Earliest
	}
	if len(r.archived) > 0 {
		// The archive closed the gap up to the current history's start.
		h.earliest = r.archived[0].from
	}
	if err == nil {
		err = stateErr
	}
	return err
}

// add appends one change of the last list to the backlog.
//
// A change dated after its list's bound (a closed list's until, the time
// the list was read) is a Source's mistake that must not swallow the
// history: were its date taken as is, the cursor would move there and
// every real change before it would be skipped by later runs. It is
// reported, applied, and kept in the history at its list's bound, which
// is where it holds the cursor. A change before its list's from is only
// reported: an earlier date can only hold the cursor back.
//
// A change dated before the cursor is history already processed, left
// out, unless it is not recorded as applied: a Source that breaks
// chronological order (resync-build dates a deletion with the deleted
// file's old lastmod) listed it after the cursor had passed its date. It
// goes to the backlog then, and the planner decides (outOfOrder).
func (r *run) add(ctx context.Context, c resourcesync.ChangeEntry) error {
	h := r.hist
	ls := &h.lists[len(h.lists)-1]
	t := c.Time
	if ls.first.IsZero() || t.Before(ls.first) {
		ls.first = t
	}
	early := t.Before(r.set.Cursor)
	switch bound := ls.bound(); {
	case early:
		// Never after the bound; before the list's from it is warned
		// about only if it is applied (below).
	case t.After(bound):
		why := "after this run's time"
		if bound.Equal(ls.until) {
			why = "after its list's until " + resourcesync.FormatDatetime(ls.until)
		}
		r.misdated(c, why)
		t = bound
	case !ls.from.IsZero() && t.Before(ls.from):
		r.misdated(c, "before its list's from "+resourcesync.FormatDatetime(ls.from))
	}
	kind := c.MD.Change
	if !kind.Known() {
		// A change of unknown kind still says the resource changed: bring
		// it to what the Source serves now.
		h.unknown++
		r.sum.UnknownChanges++
		if r.opts.Condition != nil {
			r.opts.Condition(transfer.ConditionChangeKind, c.Loc, fmt.Sprintf("change %q is none of created, updated, deleted; treated as updated", c.MD.Change))
		}
		kind = resourcesync.ChangeUpdated
	}
	p := resourcesync.Pending{URI: c.Loc, Change: kind, Time: t, List: len(h.lists) - 1, Position: c.Position}
	if kind != resourcesync.ChangeDeleted {
		lastmod := c.LastMod
		if lastmod.IsZero() {
			lastmod = c.Time
		}
		p.Version = resourcesync.Version{Fixity: c.MD.Hash, Length: c.MD.Length, HasLength: c.MD.HasLength, LastMod: lastmod}
		p.Links = resourcesync.ActedOn(c.Links)
		if ls.pkg != nil {
			p.Links = dumpLinks(c.Entry, kind, p.Links)
		}
	}
	// A deletion's collection links too: --collection decides by them.
	p.Links = append(p.Links, resourcesync.Collections(c.Links)...)
	if len(r.bare.pending) > 0 && r.bare.list != p.List {
		// The backlog takes a list's changes before the next one's.
		if err := r.flushBare(ctx); err != nil {
			return err
		}
	}
	if early {
		added, err := r.backlog.AddUnapplied(p)
		if err != nil {
			return fmt.Errorf("keep change %s of %s: %w: %w", kind, c.Loc, resourcesync.ErrLocal, err)
		}
		if !added {
			ls.skipped++
		} else if !ls.from.IsZero() && t.Before(ls.from) {
			r.misdated(c, "before its list's from "+resourcesync.FormatDatetime(ls.from))
		}
		return nil
	}
	if t.After(h.latest) {
		h.latest = t
	}
	if err := r.backlog.Add(p); err != nil {
		return fmt.Errorf("keep change %s of %s: %w: %w", kind, c.Loc, resourcesync.ErrLocal, err)
	}
	// The resources fetched along with this one (--alternate,
	// --with-metadata) change with it: created, updated to what the link
	// says, or deleted - only when the filters take it (a companion
	// follows its resource; one left out is not touched).
	if r.wantsCompanions(p, c.Links) {
		return r.addBare(ctx, p) // the state knows what went along with it
	}
	if r.opts.Filter.CheckEntry(c.Loc, c.Links) != nil {
		return nil
	}
	for _, l := range r.opts.Companions(c.Links) {
		cp := resourcesync.Pending{URI: l.Href, Change: kind, Time: t, List: p.List, Position: p.Position, Companion: true}
		if kind != resourcesync.ChangeDeleted {
			cp.Version = transfer.CompanionUnit(l).Want
		}
		if err := r.backlog.Add(cp); err != nil {
			return fmt.Errorf("keep change %s of %s: %w: %w", kind, l.Href, resourcesync.ErrLocal, err)
		}
	}
	return nil
}

// misdated reports a change dated where its list cannot hold it; the
// first ones by name, the rest counted.
func (r *run) misdated(c resourcesync.ChangeEntry, why string) {
	h := r.hist
	h.misdated++
	r.sum.Misdated++
	if r.opts.Condition != nil {
		// The caller warns about the condition once, when it appears.
		r.opts.Condition(transfer.ConditionMisdated, c.Loc, fmt.Sprintf("change dated %s, %s", resourcesync.FormatDatetime(c.Time), why))
		r.d.Log.Debug().Str("uri", c.Loc).Str("change_list", c.List).Int("position", c.Position).Time("at", c.Time).Msg("misdated change: " + why)
		return
	}
	if h.misdated <= misdatedNamed {
		r.d.Log.Warn().Str("uri", c.Loc).Str("change_list", c.List).Int("position", c.Position).
			Msgf("change dated %s, %s: applied, but the cursor does not follow its date", resourcesync.FormatDatetime(c.Time), why)
	}
}
