package audit_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Under --collection a held file the Source no longer lists is extra when
// the collection links recorded with it name the collection, and left out
// (not reported) when they name another or none; a file no set holds has
// no known membership and is left out too. Alike inside the tree of what
// the filters take (collection A: a member is still listed) and outside
// it (collection B: none is).
func TestExtraByRecordedCollection(t *testing.T) {
	const collA, collB = "http://example.com/aggregation/a", "http://example.com/aggregation/b"
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 6 })
	res := h.Src.Resources(0)
	member := map[string]string{res[0].Path: collA, res[3].Path: collA, res[1].Path: collB}
	h.Src.SetLinks(fixtures.CollectionLinks(member, false))
	h.baseline(0, nil) // records every resource's collection link
	if err := h.Src.Apply(h.Src.At().Add(time.Second),
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[0].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[1].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[2].Path}); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(filepath.Dir(h.file(h.rel(res[0].URI))), "stray.txt")
	if err := os.WriteFile(stray, []byte("no record"), 0o644); err != nil {
		t.Fatal(err)
	}
	inA, err := resourcesync.Filter{}.InCollections([]string{collA})
	if err != nil {
		t.Fatal(err)
	}
	uris := func(ds []audit.Difference) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.URI)
		}
		return out
	}
	inB, err := resourcesync.Filter{}.InCollections([]string{collB})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		filter resourcesync.Filter
		want   string
	}{{inA, res[0].URI}, {inB, res[1].URI}} {
		rep := h.mustAudit(func(_ *audit.Set, o *audit.Options) { o.Filter = c.filter })
		if got := uris(rep.Extra); !slices.Equal(got, []string{c.want}) {
			t.Errorf("extra with %s: %v, want the member %s only", c.filter, got, c.want)
		}
	}
	// Without the filter every file not listed is extra.
	if rep := h.mustAudit(nil); len(rep.Extra) != 4 {
		t.Errorf("extra without --collection: %v, want 4", uris(rep.Extra))
	}
}
