package incremental

import (
	"context"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Changes out of order. §12.1 asks a Source for forward chronological
// order, and the cursor relies on it: a change dated before the cursor is
// taken for one processed. A Source may break it - resync-build dates a
// deletion with the deleted file's old lastmod, earlier than the list's
// other entries - so a change before the cursor that the state does not
// record as applied (history.add) is not dropped: it is applied unless a
// later change to the same URI is applied already or the copy held is
// newer than it, and each change ignored is reported with its URI, date
// and reason. Re-reading a list never applies a change twice: the records
// of a list read again are kept until it is done (finish), and the held
// copy's lastmod judges the rest.

// orderNamed is how many changes out of order are reported one by one;
// the rest are counted in one line.
const orderNamed = 10

// orderTag is put on a unit with changes dated before the cursor, for
// Recorded: ignored of its changes were ignored; inEffect says its effect
// was there already (counted as done before, not as applied).
type orderTag struct {
	ignored  int
	inEffect bool
}

// outOfOrder decides about a unit with changes dated before the cursor;
// it may mark u settled (its changes recorded, nothing done).
func (r *run) outOfOrder(ctx context.Context, bu *resourcesync.BacklogUnit, u *transfer.Unit) error {
	cursor := r.set.Cursor
	final := bu.Final
	if final == nil || earliest(bu.Pending).Compare(cursor) >= 0 {
		return nil
	}
	if bu.Settled {
		var tag orderTag
		for _, p := range bu.Pending {
			if p.Time.Before(cursor) {
				tag.ignored++
				r.ignored(p, fmt.Sprintf("a later change to it (%s, %s) is applied already", final.Change, resourcesync.FormatDatetime(final.Time)))
			}
		}
		u.Tag = tag
		return nil
	}
	if !final.Time.Before(cursor) {
		return nil // brought to a later change, which settles it with them
	}
	held, err := r.d.Store.HeldMany(ctx, r.set.ID, []string{bu.URI})
	if err != nil {
		return fmt.Errorf("look up %s: %w: %w", bu.URI, resourcesync.ErrLocal, err)
	}
	h, isHeld := held[bu.URI]
	version := final.Time
	if final.Change != resourcesync.ChangeDeleted && !final.Version.LastMod.IsZero() {
		version = final.Version.LastMod
	}
	switch {
	case isHeld && h.LastMod.After(version):
		for _, p := range bu.Pending {
			r.ignored(p, "the copy held is newer (lastmod "+resourcesync.FormatDatetime(h.LastMod)+")")
		}
		u.Settled, u.Gone, u.Want, u.Wanted, u.Origins = true, false, resourcesync.Version{}, false, nil
		if u.PatchPackage != nil {
			u.PatchPackage.Release()
			u.Patches, u.PatchPackage = nil, nil
		}
		u.Tag = orderTag{ignored: len(bu.Pending)}
	case !isHeld && final.Change == resourcesync.ChangeDeleted,
		isHeld && final.Change != resourcesync.ChangeDeleted && resourcesync.InStep(h.Version(), final.Version):
		// Its effect is there already (a change before the baseline
		// point, which the baseline reflects, or one applied before its
		// record was pruned): recorded, nothing more to say.
		u.Tag = orderTag{inEffect: true}
	default:
		r.sum.OutOfOrder++
		if r.sum.OutOfOrder <= orderNamed {
			r.d.Log.Warn().Str("uri", bu.URI).Str("change", string(final.Change)).Str("change_list", r.hist.lists[final.List].url).
				Int("position", final.Position).Time("cursor", cursor).
				Msgf("change dated %s, before the cursor, not recorded as applied (listed out of order): applied", resourcesync.FormatDatetime(final.Time))
		}
	}
	return nil
}

// ignored reports a change not applied, with its reason.
func (r *run) ignored(p resourcesync.Pending, why string) {
	r.sum.Ignored++
	if r.sum.Ignored <= orderNamed {
		r.d.Log.Warn().Str("uri", p.URI).Str("change", string(p.Change)).Str("change_list", r.hist.lists[p.List].url).
			Int("position", p.Position).
			Msgf("change dated %s, before the cursor, not recorded as applied (listed out of order): ignored, since %s", resourcesync.FormatDatetime(p.Time), why)
	}
}

// reportOrder counts in one line the changes out of order not named.
func (r *run) reportOrder() {
	if n := r.sum.OutOfOrder; n > orderNamed {
		r.d.Log.Warn().Str("uri", r.set.doc()).Int64("changes", n).
			Msgf("%d changes dated before the cursor were listed out of order and applied (%d named above)", n, orderNamed)
	}
	if n := r.sum.Ignored; n > orderNamed {
		r.d.Log.Warn().Str("uri", r.set.doc()).Int64("changes", n).
			Msgf("%d changes dated before the cursor were listed out of order and ignored (%d named above)", n, orderNamed)
	}
}

// keepFrom is where the change records must be kept from: the cursor,
// or the earliest change of the first list not done, which is read again.
func (r *run) keepFrom(cursor time.Time, firstNotDone int) time.Time {
	if firstNotDone < len(r.hist.lists) {
		if f := r.hist.lists[firstNotDone].first; !f.IsZero() && f.Before(cursor) {
			return f
		}
	}
	return cursor
}

// unknownStart guards a history that does not say where it starts: its
// first list gives no from (mandatory, but a Source may omit it - the
// simulator does when its oldest remembered change is a deletion). A lost
// stretch of history then cannot be seen from the dates the Source gives,
// so the list's own entries must reach back to the cursor; otherwise it
// is a gap. It is said in either case. A list without entries names no
// change that could be missing after the cursor; it is warned about.
func (r *run) unknownStart() error {
	h := r.hist
	if !h.earliest.IsZero() || len(h.lists) == 0 || !h.lists[0].from.IsZero() {
		return nil
	}
	r.sum.HistoryUnknown = true
	ls := h.lists[0]
	log := r.d.Log.Warn().Str("change_list", ls.url).Time("cursor", r.set.Cursor)
	switch {
	case ls.first.IsZero():
		log.Msg("the Change List gives no from (mandatory) and lists no change: where its history starts is unknown")
	case ls.first.After(r.set.Cursor):
		return &GapError{ChangeList: r.set.doc(), Cursor: r.set.Cursor, Earliest: ls.first, NoFrom: true}
	default:
		log.Time("earliest_change", ls.first).
			Msg("the Change List gives no from (mandatory): where its history starts is unknown, but its changes reach back to the cursor")
	}
	return nil
}
