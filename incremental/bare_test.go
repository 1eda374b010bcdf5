package incremental_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// 150 deletions without links, over two Change Lists (120 and 30): each
// deletes the metadata record fetched with its resource, named by the
// describedby link the state recorded - looked up in a batch of 100, the
// rest of the first list before the second list's first change, the
// second list's at the end of the history. The other resources keep
// theirs.
func TestBareDeletionsDeleteTheirCompanions(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources, s.ChangeListMax = 200, 120 })
	rs := h.Src.Resources(0)
	meta := func(p string) string { return strings.Replace(p, "/res/", "/meta/", 1) + ".xml" }
	for _, r := range rs {
		h.Src.SetRaw(meta(r.Path), "application/xml", []byte("<dc>"+r.Path+"</dc>"))
	}
	h.Src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		if s.Change == resourcesync.ChangeDeleted {
			return nil
		}
		return []resourcesync.Link{{Rel: resourcesync.RelDescribedBy, Href: h.Src.URI(meta(s.Path)), Type: "application/xml"}}
	})
	if _, err := h.Baseline(0, func(o *baseline.Options) { o.WithMetadata = true }); err != nil {
		t.Fatal(err)
	}
	var gone []fixtures.Mutation
	for _, r := range rs[:150] {
		gone = append(gone, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
	}
	if err := h.Src.Apply(h.Src.At().Add(time.Second), gone...); err != nil {
		t.Fatal(err)
	}
	sum := h.mustRun(func(o *incremental.Options) {
		o.Delete, o.WithMetadata, o.MaxDelete = true, true, transfer.DeleteLimit{Count: 300}
	})
	if sum.Deleted != 300 || sum.Failed != 0 {
		t.Fatalf("counts %+v, want 150 resources and their 150 metadata records deleted", sum.Counts)
	}
	for i, r := range rs {
		_, err := os.Stat(h.PathOf(h.Src.URI(meta(r.Path))))
		if there, want := err == nil, i >= 150; there != want {
			t.Errorf("the metadata record of %s: there %v, want %v", r.Path, there, want)
		}
	}
}
