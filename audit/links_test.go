package audit_test

import (
	"os"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// A resource reported missing (its file gone), changed or extra (no
// longer listed) carries the links the state recorded with it (§14).
func TestDifferencesCarryLinks(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 5 })
	coll := func(p string) resourcesync.Link {
		return resourcesync.Link{Rel: resourcesync.RelCollection, Href: "http://example.com/aggregation" + p}
	}
	h.Src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link { return []resourcesync.Link{coll(s.Path)} })
	h.baseline(0, nil)
	res := h.Src.Resources(0)
	if err := os.Remove(h.file(h.rel(res[0].URI))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.file(h.rel(res[1].URI)), []byte("other bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.Src.Apply(h.Src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Delete, Path: res[2].Path}); err != nil {
		t.Fatal(err)
	}
	rep := h.mustAudit(nil)
	for _, c := range []struct {
		what  string
		diffs []audit.Difference
		res   fixtures.ResourceInfo
	}{
		{"missing", rep.Missing, res[0]},
		{"changed", rep.Changed, res[1]},
		{"extra", rep.Extra, res[2]},
	} {
		if len(c.diffs) != 1 || c.diffs[0].URI != c.res.URI {
			t.Errorf("%s: %+v, want %s", c.what, c.diffs, c.res.URI)
			continue
		}
		want := coll(c.res.Path)
		if l := c.diffs[0].Links; len(l) != 1 || l[0].Rel != want.Rel || l[0].Href != want.Href {
			t.Errorf("%s %s: links %+v, want %s %s", c.what, c.res.URI, l, want.Rel, want.Href)
		}
	}
}
