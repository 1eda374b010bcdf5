package incremental_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// finalFetches is the number of resources whose last change in the
// Source's history is a creation or an update: what a run that applies the
// whole history fetches, once each.
func finalFetches(changes []fixtures.ChangeInfo) int {
	last := map[string]resourcesync.Change{}
	for _, c := range changes {
		last[c.URI] = c.Change
	}
	n := 0
	for _, ch := range last {
		if ch != resourcesync.ChangeDeleted {
			n++
		}
	}
	return n
}

func TestAppliesChangeListIndex(t *testing.T) {
	for _, v11 := range []bool{false, true} {
		name := "v1.0 lastmod"
		if v11 {
			name = "v1.1 datetime"
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, func(s *fixtures.Spec) { s.Datetime = v11 })
			h.baseline()
			h.advance(25) // five closed lists of 5 and an empty open one
			changes := h.Src.Changes(0)
			h.Src.ResetCounts()
			sum := h.mustRun(withDelete)
			if sum.ListsRead != 6 || sum.Changes != 25 || sum.Applied != 25 || sum.AlreadyDone != 0 || sum.Failed != 0 || sum.ChangesFailed != 0 {
				t.Fatalf("%+v", sum)
			}
			h.assertIdentical()
			if got, want := h.Src.ResourceBodies(), finalFetches(changes); got != want {
				t.Errorf("fetched %d bodies, want %d (one per resource whose last change is not a deletion)", got, want)
			}
			last := changes[len(changes)-1].At
			if st := h.state(); !st.Cursor.Equal(last) || !sum.Cursor.Equal(last) {
				t.Errorf("cursor %v (summary %v), want the last change %v", st.Cursor, sum.Cursor, last)
			}
			for n := 1; n <= 5; n++ {
				u := strings.Replace(h.Src.ChangeListURL(0), "changelist.xml", "changelist-"+string(rune('0'+n))+".xml", 1)
				if done, err := h.DB.ListDone(context.Background(), h.SetID, u); err != nil || !done {
					t.Errorf("closed list %s not recorded as done (%v)", u, err)
				}
			}
			// Records the cursor covers are pruned; those at it are kept.
			if h.changeDone(changes[0]) {
				t.Errorf("the record of the first change was not pruned")
			}
			if !h.changeDone(changes[len(changes)-1]) {
				t.Errorf("the record of the change at the cursor is gone")
			}

			// Nothing changed: the closed lists are not fetched again, the
			// open one is, nothing is fetched.
			h.Src.ResetCounts()
			sum = h.mustRun(withDelete)
			if sum.ListsSkipped != 1 || sum.ListsRead != 1 || sum.Listed != 0 || sum.AlreadyDone != sum.Changes {
				t.Errorf("second run: %+v", sum)
			}
			for n := 1; n <= 5; n++ {
				if r := h.Src.Requests("/dataset1/changelist-" + string(rune('0'+n)) + ".xml"); r != 0 {
					t.Errorf("closed list %d fetched %d times", n, r)
				}
			}
			if h.Src.Requests("/dataset1/changelist-6.xml") != 1 || h.Src.ResourceBodies() != 0 {
				t.Errorf("open list fetched %d times, %d bodies", h.Src.Requests("/dataset1/changelist-6.xml"), h.Src.ResourceBodies())
			}
		})
	}
}

func TestOneResourceCreatedUpdatedDeleted(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	const p = "/dataset1/res/new/x.txt"
	at := h.Src.At()
	step := func(d int, k fixtures.Kind) {
		t.Helper()
		if err := h.Src.Apply(at.Add(time.Duration(d)*time.Second), fixtures.Mutation{Kind: k, Path: p}); err != nil {
			t.Fatal(err)
		}
	}
	// In one run: collapsed to the deletion, nothing fetched, every change
	// recorded.
	step(1, fixtures.Create)
	step(2, fixtures.Update)
	step(3, fixtures.Delete)
	h.Src.ResetCounts()
	sum := h.mustRun(withDelete)
	if sum.Applied != 3 || sum.Listed != 1 || h.Src.ResourceBodies() != 0 {
		t.Fatalf("%+v, %d bodies", sum, h.Src.ResourceBodies())
	}
	for _, c := range h.Src.Changes(0) {
		if c.At.Equal(sum.Cursor) && !h.changeDone(c) {
			t.Errorf("change %s at %v not recorded", c.Change, c.At)
		}
	}
	h.assertIdentical()

	// One run per change.
	uri := h.Src.URI(p)
	for i, k := range []fixtures.Kind{fixtures.Create, fixtures.Update, fixtures.Delete, fixtures.Create} {
		step(4+i, k)
		sum := h.mustRun(withDelete)
		if sum.Applied != 1 || sum.Failed != 0 {
			t.Fatalf("%s: %+v", k, sum)
		}
		h.assertIdentical()
		_, held, _ := h.DB.Held(context.Background(), h.SetID, uri)
		if held != (k != fixtures.Delete) {
			t.Errorf("after %s the state holds it: %v", k, held)
		}
	}
}

func TestDeletedThenCreatedAgainInOneRun(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	r := h.Src.Resources(0)[4]
	at := h.Src.At()
	if err := h.Src.Apply(at.Add(time.Second), fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path}); err != nil {
		t.Fatal(err)
	}
	if err := h.Src.Apply(at.Add(2*time.Second), fixtures.Mutation{Kind: fixtures.Create, Path: r.Path, Size: 77}); err != nil {
		t.Fatal(err)
	}
	sum := h.mustRun(withDelete)
	if sum.Updated != 1 || sum.Deleted != 0 || sum.Applied != 2 {
		t.Fatalf("%+v", sum)
	}
	if b, err := os.ReadFile(h.PathOf(r.URI)); err != nil || len(b) != 77 {
		t.Fatalf("the re-created resource: %d bytes, %v", len(b), err)
	}
	h.assertIdentical()
}

func TestEqualTimesKeepDocumentOrder(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	rs := h.Src.Resources(0)
	x, y := rs[1], rs[2]
	const t1, t0 = "2024-01-02T00:00:00Z", "2024-01-01T12:00:00Z"
	h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", rawChangeList("2024-01-01T00:00:00Z",
		rawChange{x.URI, t1, "updated", md(x)},
		rawChange{x.URI, t1, "deleted", ""}, // same instant, later in the document: last
		rawChange{y.URI, t1, "deleted", ""},
		rawChange{y.URI, t1, "updated", md(y)},  // y ends present
		rawChange{rs[3].URI, t0, "deleted", ""}, // earlier, listed last: applied first
	))
	sum := h.mustRun(withDelete)
	if sum.Applied != 5 || sum.Deleted != 2 || sum.Unchanged != 1 {
		t.Fatalf("%+v", sum)
	}
	if _, err := os.Stat(h.PathOf(x.URI)); !os.IsNotExist(err) {
		t.Errorf("x: updated then deleted at one instant, but present (%v)", err)
	}
	if _, err := os.Stat(h.PathOf(y.URI)); err != nil {
		t.Errorf("y: deleted then updated at one instant, but absent: %v", err)
	}
	if want, _ := time.Parse(time.RFC3339, t1); !h.state().Cursor.Equal(want) {
		t.Errorf("cursor %v, want %v", h.state().Cursor, want)
	}
}

func TestOffsetsAreInstants(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	rs := h.Src.Resources(0)
	x, z, w, v := rs[1], rs[2], rs[3], rs[4]
	h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", rawChangeList("2024-01-01T00:00:00+00:00",
		// v: the latest instant (02:30Z), listed first.
		rawChange{v.URI, "2024-01-02T04:30:00+02:00", "updated", md(v)},
		// x: 02:00+02:00 is 00:00Z, before 01:30Z: deleted, then created.
		rawChange{x.URI, "2024-01-02T01:30:00Z", "created", md(x)},
		rawChange{x.URI, "2024-01-02T02:00:00+02:00", "deleted", ""},
		// z: 03:00+02:00 is 01:00Z, before 02:00Z: created, then deleted.
		rawChange{z.URI, "2024-01-02T03:00:00+02:00", "created", md(z)},
		rawChange{z.URI, "2024-01-02T02:00:00Z", "deleted", ""},
		// w (1.1): datetime, not lastmod, is the time of the change.
		rawChange{w.URI, "2024-01-02T05:00:00Z", "created", md(w) + ` datetime="2024-01-02T01:00:00Z"`},
		rawChange{w.URI, "2024-01-02T02:00:00Z", "deleted", ""},
	))
	sum := h.mustRun(withDelete)
	if sum.Applied != 7 || sum.Failed != 0 {
		t.Fatalf("%+v", sum)
	}
	if _, err := os.Stat(h.PathOf(x.URI)); err != nil {
		t.Errorf("x must end present: %v", err)
	}
	for _, r := range []fixtures.ResourceInfo{z, w} {
		if _, err := os.Stat(h.PathOf(r.URI)); !os.IsNotExist(err) {
			t.Errorf("%s must end deleted (%v)", r.URI, err)
		}
	}
	// Recorded as an instant (the records before the cursor are pruned).
	want, _ := resourcesync.ParseDatetime("2024-01-02T02:30:00Z")
	if rec, _, err := h.DB.ChangeStatus(context.Background(), h.SetID, v.URI, resourcesync.ChangeUpdated, want); err != nil || !rec {
		t.Errorf("the update of v at 02:30Z is not recorded: %v", err)
	}
	if st := h.state(); !st.Cursor.Equal(want) {
		t.Errorf("cursor %v, want the latest instant %v", st.Cursor, want)
	}
}

func TestGapStopsAndChangesNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	cursor := h.state().Cursor
	h.advance(12)
	if n := h.Src.TrimHistory(cursor.Add(6 * time.Second)); n == 0 {
		t.Fatal("nothing trimmed")
	}
	before := h.Files()
	h.Src.ResetCounts()
	sum, err := h.run(withDelete)
	var gap *incremental.GapError
	if !errors.As(err, &gap) || !errors.Is(err, resourcesync.ErrSafetyStop) {
		t.Fatalf("err = %v, want a gap (safety stop)", err)
	}
	if !gap.Cursor.Equal(cursor) || !gap.Earliest.After(cursor) || !strings.Contains(err.Error(), "baseline") {
		t.Errorf("%+v: %v", gap, err)
	}
	if h.Src.ResourceBodies() != 0 || sum.Listed != 0 {
		t.Errorf("a run with a gap fetched %d bodies", h.Src.ResourceBodies())
	}
	after := h.Files()
	if len(after) != len(before) {
		t.Errorf("%d files before, %d after", len(before), len(after))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed", p)
		}
	}
	if !h.state().Cursor.Equal(cursor) {
		t.Errorf("the cursor moved to %v", h.state().Cursor)
	}
}

func TestOpenListGrowsBetweenRuns(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.NoChangeListIndex = true })
	h.baseline()
	h.advance(4)
	if sum := h.mustRun(withDelete); sum.Applied != 4 || sum.ListsRead != 1 {
		t.Fatalf("%+v", sum)
	}
	h.advance(3)
	h.Src.ResetCounts()
	sum := h.mustRun(withDelete)
	// The change at the cursor is read again and found done; the three new
	// ones are applied.
	if sum.Changes != 4 || sum.AlreadyDone != 1 || sum.Applied != 3 {
		t.Fatalf("%+v", sum)
	}
	h.assertIdentical()
}

func TestCrossListChangesCollapse(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.ChangeListMax = 2 })
	h.baseline()
	rs := h.Src.Resources(0)
	at := h.Src.At()
	for i, m := range []fixtures.Mutation{
		{Kind: fixtures.Update, Path: rs[0].Path},
		{Kind: fixtures.Update, Path: rs[1].Path}, // closes list 1
		{Kind: fixtures.Update, Path: rs[0].Path}, // list 2, open
	} {
		if err := h.Src.Apply(at.Add(time.Duration(i+1)*time.Second), m); err != nil {
			t.Fatal(err)
		}
	}
	h.Src.ResetCounts()
	sum := h.mustRun(withDelete)
	// rs[0] is fetched once, at its final version: fetching it for list 1
	// with list 1's hash would fail (the Source serves the later version).
	if sum.Applied != 3 || sum.Failed != 0 || sum.Updated != 2 || h.Src.ResourceBodies() != 2 {
		t.Fatalf("%+v, %d bodies", sum, h.Src.ResourceBodies())
	}
	h.assertIdentical()
}
