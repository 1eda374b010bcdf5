package incremental_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// A bare deletion (no collection link, no other change of the run naming
// the resource) is judged under --collection by the collection links the
// state recorded with the copy: applied for a member, left out for a
// resource recorded in another collection or in none; --max-delete counts
// what will be deleted, so the guard stops a run the old rule let through.
func TestDeletionsByRecordedCollection(t *testing.T) {
	const collA, collB = "http://example.com/aggregation/a", "http://example.com/aggregation/b"
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 10 })
	rs := h.Src.Resources(0)
	member := map[string]string{rs[0].Path: collA, rs[1].Path: collA, rs[2].Path: collB, rs[3].Path: collB}
	h.Src.SetLinks(fixtures.CollectionLinks(member, true)) // deletions are bare

	h.baseline() // records every resource's collection link
	if err := h.Src.Apply(h.Src.At().Add(time.Second),
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[0].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[1].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[2].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[5].Path}); err != nil {
		t.Fatal(err)
	}
	inA, err := resourcesync.Filter{}.InCollections([]string{collA})
	if err != nil {
		t.Fatal(err)
	}
	// Two members' deletions are more than --max-delete 1 allows.
	_, err = h.run(func(o *incremental.Options) {
		o.Filter, o.Delete, o.MaxDelete = inA, true, transfer.DeleteLimit{Count: 1}
	})
	if !errors.Is(err, resourcesync.ErrSafetyStop) {
		t.Fatalf("err = %v, want the deletion guard counting the two members", err)
	}
	sum := h.mustRun(func(o *incremental.Options) {
		o.Filter, o.Delete, o.MaxDelete = inA, true, transfer.DeleteLimit{Count: 2}
	})
	if sum.Deleted != 2 || sum.LeftOut != 2 {
		t.Fatalf("counts %+v, want 2 deleted, 2 left out", sum.Counts)
	}
	for i, r := range rs[:6] {
		_, held, err := h.DB.Held(context.Background(), h.SetID, r.URI)
		if err != nil {
			t.Fatal(err)
		}
		_, serr := os.Stat(h.PathOf(r.URI))
		if want := i > 1; held != want || (serr == nil) != want {
			t.Errorf("%s (collection %q): held %v, file there %v, want %v", r.Path, member[r.Path], held, serr == nil, want)
		}
	}
}

// A failure retried that no change of the run names is judged under
// --collection by the collection links recorded with the copy held: a
// member's is retried (its copy brought up to date), the others are left
// out.
func TestRetryByRecordedCollection(t *testing.T) {
	const collA, collB = "http://example.com/aggregation/a", "http://example.com/aggregation/b"
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 6 })
	rs := h.Src.Resources(0)
	member := map[string]string{rs[0].Path: collA, rs[1].Path: collB}
	h.Src.SetLinks(fixtures.CollectionLinks(member, false))
	h.baseline() // records every resource's collection link
	var muts []fixtures.Mutation
	for _, r := range rs[:3] {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Update, Path: r.Path})
		h.Src.SetFault(r.Path, fixtures.Fault{Status: []int{404, 404, 404, 404}})
	}
	if err := h.Src.Apply(h.Src.At().Add(time.Second), muts...); err != nil {
		t.Fatal(err)
	}
	if sum := h.baseline(); sum.Failed != 3 {
		t.Fatalf("second baseline: counts %+v, want the 3 updated failed", sum.Counts)
	}
	h.Src.ClearFaults()
	// The run after it reads no change naming them.
	h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", rawChangeList(resourcesync.FormatDatetime(h.Cursor())))
	before := h.Files()
	inA, err := resourcesync.Filter{}.InCollections([]string{collA})
	if err != nil {
		t.Fatal(err)
	}
	sum := h.mustRun(func(o *incremental.Options) { o.Filter = inA })
	if sum.Retried != 3 || sum.Updated != 1 || sum.LeftOut != 2 {
		t.Fatalf("counts %+v, retried %d; want 3 retried: 1 updated, 2 left out", sum.Counts, sum.Retried)
	}
	after := h.Files()
	for i, r := range rs[:3] {
		if changed := !bytes.Equal(after[h.PathOf(r.URI)], before[h.PathOf(r.URI)]); changed != (i == 0) {
			t.Errorf("%s (collection %q): changed %v", r.Path, member[r.Path], changed)
		}
	}
	if got, err := h.DB.Failures(context.Background(), h.SetID); err != nil || len(got) != 2 {
		t.Errorf("failures left %+v (%v), want those of the 2 left out", got, err)
	}
}
