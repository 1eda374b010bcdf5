package baseline_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// The deletion pass under --collection judges a held file the Source no
// longer lists by the collection links recorded with it: a member's is
// deleted (and counted by --max-delete), one recorded in another
// collection or in none is kept, and so is a file no set holds, whose
// membership nothing tells.
func TestDeletePassByRecordedCollection(t *testing.T) {
	const collA, collB = "http://example.com/aggregation/a", "http://example.com/aggregation/b"
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 10 })
	rs := h.Src.Resources(0)
	member := map[string]string{rs[0].Path: collA, rs[1].Path: collA, rs[2].Path: collB, rs[3].Path: collB}
	h.Src.SetLinks(fixtures.CollectionLinks(member, false))
	h.mustRun(nil) // records every resource's collection link
	if err := h.Src.Apply(h.Src.At().Add(time.Hour),
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[0].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[2].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[5].Path}); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(filepath.Dir(h.PathOf(rs[0].URI)), "stray.txt")
	if err := os.WriteFile(stray, []byte("no record"), 0o644); err != nil {
		t.Fatal(err)
	}
	inA, err := resourcesync.Filter{}.InCollections([]string{collA})
	if err != nil {
		t.Fatal(err)
	}
	sum := h.mustRun(func(o *baseline.Options) { o.Filter = inA })
	if sum.WouldDelete != 1 {
		t.Errorf("without --delete: would delete %d, want 1 (the member)", sum.WouldDelete)
	}
	sum = h.mustRun(func(o *baseline.Options) {
		o.Filter, o.Delete = inA, true
		o.MaxDelete, _ = transfer.ParseDeleteLimit("1")
	})
	if sum.Deleted != 1 {
		t.Fatalf("counts %+v, want 1 deleted", sum.Counts)
	}
	for _, c := range []struct {
		r    fixtures.ResourceInfo
		want bool
	}{{rs[0], false}, {rs[1], true}, {rs[2], true}, {rs[5], true}} {
		_, held, err := h.DB.Held(context.Background(), h.SetID, c.r.URI)
		if err != nil {
			t.Fatal(err)
		}
		if _, serr := os.Stat(h.PathOf(c.r.URI)); held != c.want || (serr == nil) != c.want {
			t.Errorf("%s (collection %q): held %v, file there %v, want %v", c.r.Path, member[c.r.Path], held, serr == nil, c.want)
		}
	}
	if _, err := os.Stat(stray); err != nil {
		t.Errorf("a file of unknown membership was deleted: %v", err)
	}
}
