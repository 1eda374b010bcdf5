package incremental_test

import (
	"context"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Issue 16, changes out of order: a change dated before the cursor that
// the state does not record as applied is applied - resync-build's
// deletion dated with the file's old lastmod - unless a later change to
// the resource is applied already or the copy held is newer, which is
// ignored and counted; and reading the same list again applies nothing
// twice.
func TestChangesOutOfOrder(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, nil)
	h.baseline()
	rs := h.Src.Resources(0)
	x, z, w, v := rs[1], rs[2], rs[3], rs[4]
	date := resourcesync.FormatDatetime
	cursor := h.state().Cursor
	// The first run applies x and v; z's deletion and w's update are
	// listed after them, dated before the cursor the run leaves (z's with
	// its own lastmod, as resync-build does; w's before the copy held).
	first := []rawChange{
		{x.URI, date(cursor.Add(24 * time.Hour)), "updated", md(x)},
		{v.URI, date(cursor.Add(48 * time.Hour)), "updated", md(v)},
	}
	const from = "2020-01-01T00:00:00Z"
	h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", rawChangeList(from, first...))
	if sum := h.mustRun(withDelete); sum.Applied != 2 || sum.OutOfOrder != 0 || sum.Ignored != 0 {
		t.Fatalf("first run: %+v", sum)
	}
	later := append(first,
		rawChange{z.URI, date(z.LastMod), "deleted", ""},
		rawChange{w.URI, date(w.LastMod.Add(-time.Hour)), "updated", md(w)},
		rawChange{v.URI, date(cursor.Add(time.Hour)), "deleted", ""},
	)
	h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", rawChangeList(from, later...))
	if err := h.Src.Apply(h.Src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Delete, Path: z.Path}); err != nil {
		t.Fatal(err)
	}
	sum := h.mustRun(withDelete)
	if sum.OutOfOrder != 1 || sum.Ignored != 2 || sum.Applied != 1 || sum.Deleted != 1 || sum.ChangesFailed != 0 {
		t.Fatalf("second run: want z's deletion applied, w's update and v's deletion ignored: %+v", sum)
	}
	for _, c := range []struct {
		r    fixtures.ResourceInfo
		held bool
	}{{z, false}, {w, true}, {v, true}, {x, true}} {
		if _, held, err := h.DB.Held(ctx, h.SetID, c.r.URI); err != nil || held != c.held {
			t.Errorf("%s held %v (%v), want %v", c.r.URI, held, err, c.held)
		}
		p, err := h.Mirror.Path(c.r.URI)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Mirror.Stat(p); (err == nil) != c.held {
			t.Errorf("%s on disk: %v, want %v", p, err, c.held)
		}
	}
	// The same list again: every change is processed, none applied twice.
	for range 2 {
		again := h.mustRun(withDelete)
		if again.Applied != 0 || again.OutOfOrder != 0 || again.Ignored != 0 || again.Listed != 0 {
			t.Fatalf("the list read again: %+v", again)
		}
	}
	h.AssertHeld()
}
