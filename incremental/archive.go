package incremental

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Catching up from the archives. A Source drops old Change Lists from its
// index, and a Destination that was offline longer finds the history
// starting after its cursor: a gap. The Change List Archive (the Archives
// specification) keeps naming those lists "to allow Destinations to catch
// up with changes after having been offline": the run reads the archived
// lists that cover the gap, in order, before the current ones, from the
// exact first unprocessed change (the cursor and the records work as for
// any list). Only a gap the archive does not close stops the run.

// archivedList is a closed Change List a Change List Archive names.
type archivedList struct {
	url         string
	from, until time.Time
}

func (a archivedList) span() resourcesync.Span {
	return resourcesync.Span{URL: a.url, From: a.from, Until: a.until}
}

// archiveLists returns the lists of the set's Change List Archive that
// close the gap between the cursor and earliest (where the current history
// starts), in order; nil when there is no archive or it does not close the
// gap (a list reaching back to the cursor, and no hole up to earliest).
// An archive that cannot be read is an error naming it.
//
// With a Change Dump, the Change Dump Archive plays the part: it names
// Change Dumps, each covering a period, whose packages are read before the
// current dump's (readDumpHistory).
func (r *run) archiveLists(ctx context.Context, earliest time.Time) ([]archivedList, error) {
	archive, cursor := r.archive()
	if archive == "" {
		return nil, nil
	}
	capability := resourcesync.CapChangeListArchive
	if r.set.viaDump() {
		capability = resourcesync.CapChangeDumpArchive
	}
	var lists []archivedList
	_, err := resourcesync.Walk(ctx, r.d.Open, archive, capability,
		resourcesync.WalkOptions{Limits: r.opts.Limits}, func(_ *resourcesync.Part, e *resourcesync.Entry) error {
			a := archivedList{url: e.Loc, from: e.MD.From, until: e.MD.Until}
			// A list that cannot be placed (no from or until), or lies
			// wholly outside the gap, does not help close it.
			if a.from.IsZero() || a.until.IsZero() || a.until.Before(cursor) || !a.from.Before(earliest) {
				return nil
			}
			lists = append(lists, a)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read the %s %s: %w", capability.Name(), archive, err)
	}
	resourcesync.SortSpans(lists, archivedList.span)
	if len(lists) == 0 || lists[0].from.After(cursor) {
		return nil, nil
	}
	spans := make([]resourcesync.Span, 0, len(lists)+1)
	for _, a := range lists {
		spans = append(spans, a.span())
	}
	spans = append(spans, resourcesync.Span{URL: r.set.doc(), From: earliest})
	if hole := resourcesync.FindHole(archive, spans, cursor); hole != nil {
		r.d.Log.Warn().Err(hole).Msgf("the %s does not close the gap", capability.Name())
		return nil, nil
	}
	return lists, nil
}

// catchUp answers a gap: when the archive closes it, the history is read
// again into a new backlog, the archived lists first; the run goes on if
// the history then reaches back to the cursor. Otherwise the gap stands.
func (r *run) catchUp(ctx context.Context, gap *GapError) error {
	if gap.Hole != nil || gap.NoFrom {
		return gap
	}
	lists, err := r.archiveLists(ctx, gap.Earliest)
	if err != nil {
		return errors.Join(gap, err)
	}
	if lists == nil {
		return gap
	}
	if err := r.backlog.Close(); err != nil {
		return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
	}
	backlog, err := r.d.NewBacklog()
	if err != nil {
		return fmt.Errorf("incremental sync of %s: %w: %w", r.set.doc(), resourcesync.ErrLocal, err)
	}
	r.closePackages()
	r.backlog, r.hist, r.archived = backlog, &history{}, lists
	r.sum.Misdated = 0
	r.sum.Archive, _ = r.archive()
	r.d.Log.Info().Str("archive", r.sum.Archive).Int("lists", len(lists)).
		Time("cursor", r.set.Cursor).Time("earliest", gap.Earliest).
		Msg("the change history no longer reaches back to the cursor: catching up from the archive")
	return nil
}

// archive is the set's archive of the kind its changes come from, and
// the cursor.
func (r *run) archive() (string, time.Time) {
	if r.set.viaDump() {
		return r.set.ChangeDumpArchive, r.set.Cursor
	}
	return r.set.ChangeListArchive, r.set.Cursor
}

// archivedPackages returns the packages of the archived Change Dumps that
// close the gap, in their order.
func (r *run) archivedPackages(ctx context.Context) ([]*resourcesync.Entry, error) {
	var refs []*resourcesync.Entry
	for _, a := range r.archived {
		_, err := resourcesync.Walk(ctx, r.d.Open, a.url, resourcesync.CapChangeDump, resourcesync.WalkOptions{Limits: r.opts.Limits},
			func(_ *resourcesync.Part, e *resourcesync.Entry) error {
				refs = append(refs, e)
				return nil
			})
		if err != nil {
			return nil, fmt.Errorf("read Change Dump %s (listed by the Change Dump Archive %s): %w", a.url, r.set.ChangeDumpArchive, err)
		}
	}
	return refs, nil
}

// readArchived streams the archived lists that close the gap into the
// backlog, before the current history; closed lists recorded as done are
// not fetched.
func (r *run) readArchived(ctx context.Context, opts resourcesync.HistoryOptions, v resourcesync.HistoryVisitor) error {
	for _, a := range r.archived {
		done, err := r.d.Store.ListDone(ctx, r.set.ID, a.url)
		if err != nil {
			return fmt.Errorf("look up Change List %s in the state: %w: %w", a.url, resourcesync.ErrLocal, err)
		}
		if done {
			r.hist.skipped++
			continue
		}
		if err := resourcesync.WalkList(ctx, r.d.Open, a.url, opts, v); err != nil {
			return fmt.Errorf("read Change List %s (listed by the Change List Archive %s): %w", a.url, r.set.ChangeListArchive, err)
		}
		r.sum.ArchiveLists++
	}
	return nil
}
