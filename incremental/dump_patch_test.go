package incremental_test

import (
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// §14.4 in a Change Dump: an update whose manifest entry has no bitstream
// of its own is made by applying the patch its link's path names in the
// package to the copy held - no GET of <loc>, none of the patch's href;
// a patch member that does not apply, a missing one, an unsafe name: one
// GET of <loc>, counted as a patch failure; a patch of a type not applied:
// <loc>, not a failure, as for a patch link without a path (its href is
// not fetched). An entry with its own bitstream is copied from it,
// its patch unused.
func TestChangeDumpPatches(t *testing.T) {
	h := newHarness(t, dumpSpec)
	names := []string{"whole", "patch", "bad", "unsafe", "missing", "unknown", "hrefonly"}
	path := func(n string) string { return "/dataset1/res/doc/" + n + ".json" }
	var creates, updates []fixtures.Mutation
	for _, n := range names {
		creates = append(creates, fixtures.Mutation{Kind: fixtures.Create, Path: path(n), Size: 2000})
		updates = append(updates, fixtures.Mutation{Kind: fixtures.Update, Path: path(n)})
	}
	if err := h.Src.Apply(h.Src.At().Add(time.Second), creates...); err != nil {
		t.Fatal(err)
	}
	h.baseline()
	if err := h.Src.Apply(h.Src.At().Add(time.Second), updates...); err != nil {
		t.Fatal(err)
	}
	h.Src.SetDumpPatches(func(s fixtures.LinkSite) fixtures.DumpPatch {
		dp := fixtures.DumpPatch{Patch: true, NoBitstream: true}
		switch s.Path {
		case path("whole"):
			dp.NoBitstream = false
		case path("bad"):
			dp.Body = []byte(`[{"op":"remove","path":"/nothing/here"}]`)
		case path("unsafe"):
			dp.Path = "/../patches/v2/doc/unsafe.json.json-patch"
		case path("missing"):
			dp.Path = "/patches/none"
		case path("unknown"):
			dp.Type = "application/x-bsdiff"
		case path("hrefonly"):
			dp.Patch = false
		}
		return dp
	})
	// A patch link with no path names no member: ignored, its href never
	// fetched.
	h.Src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		if s.Path != path("hrefonly") || s.Change != resourcesync.ChangeUpdated {
			return nil
		}
		return []resourcesync.Link{{Rel: resourcesync.RelPatch, Href: h.Src.URI(fixtures.PatchPath(s.Path, s.Version)),
			Type: "application/json-patch+json"}}
	})
	h.Src.ResetCounts()
	sum := h.mustRunDump(t.TempDir(), nil)
	if sum.Failed != 0 || sum.Patched != 1 || sum.PatchFailures != 3 || sum.PatchSaved <= 0 {
		t.Errorf("counts %+v: want 1 patched, 3 patch failures (bad, unsafe, missing), bytes saved, none failed", sum.Counts)
	}
	for _, n := range names {
		whole := 1
		if n == "whole" || n == "patch" {
			whole = 0
		}
		if got := h.Src.Count(path(n)).Bodies; got != whole {
			t.Errorf("%s: %d GETs of <loc>, want %d", n, got, whole)
		}
		if got := h.Src.Requests(fixtures.PatchPath(path(n), 2)); got != 0 {
			t.Errorf("%s: %d requests for the patch's href: a Change Dump's patch is its member", n, got)
		}
	}
	h.assertIdentical()
}
