package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// §14.4: an updated JSON resource whose copy held is the previous version
// is patched - one GET of the patch and none of <loc>; a patch that does
// not apply or makes bytes other than the change's hash (fetched, then
// <loc>), a copy held that is not the version the
// state recorded, a patch on a host not allowed (never contacted): <loc>
// is fetched instead; a patch of a type
// this Destination does not apply is ignored (not fetched). The standard's
// own type name (application/json-patch) is applied like the registered
// one. The mirror ends as the Source, and the summary says what was
// patched and saved.
func TestLinksPatches(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 2 })
	canary := fixtures.NewCanary(t)
	names := []string{"good", "rs-type", "bad", "wrong", "unknown", "tampered", "far"}
	path, updates, dest := jsonDocsBaselined(t, src, srv, names)

	const notApplying = "/dataset1/patches/bad.json-patch"
	src.SetRaw(notApplying, "application/json-patch+json", []byte(`[{"op":"remove","path":"/nothing/here"}]`))
	// Applies, but makes another version than the change's.
	const wrongResult = "/dataset1/patches/wrong.json-patch"
	src.SetRaw(wrongResult, "application/json-patch+json", []byte(`[{"op":"replace","path":"/d","value":"xxxxxxxxxxxxxxxx"}]`))
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		if s.Change != resourcesync.ChangeUpdated {
			return nil
		}
		l := resourcesync.Link{Rel: resourcesync.RelPatch, Href: src.URI(fixtures.PatchPath(s.Path, s.Version)), Type: "application/json-patch+json"}
		switch {
		case s.Path == path("rs-type"):
			l.Type = "application/json-patch"
		case s.Path == path("bad"):
			l.Href = src.URI(notApplying)
		case s.Path == path("wrong"):
			l.Href = src.URI(wrongResult)
		case s.Path == path("unknown"):
			l.Type = "application/x-bsdiff"
		case s.Path == path("far"):
			l.Href = canary.URL + fixtures.PatchPath(s.Path, s.Version)
		}
		return []resourcesync.Link{l}
	})
	if err := src.Apply(src.At().Add(time.Second), updates...); err != nil {
		t.Fatal(err)
	}
	// The copy held of "tampered" is no longer what the state recorded
	// (same length, one byte changed).
	tampered := filepath.Join(dest, filepath.FromSlash(relPath(t, src.URI(path("tampered")))))
	b, err := os.ReadFile(tampered)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-3] ^= 1
	if err := os.WriteFile(tampered, b, 0o644); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()

	r := runCLI(t, args([]string{"incremental", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
	incAssertIsSource(t, src, dest)
	for _, tc := range []struct {
		name         string
		patch, whole int
	}{{"good", 1, 0}, {"rs-type", 1, 0}, {"bad", 1, 1}, {"wrong", 1, 1}, {"unknown", 0, 1}, {"tampered", 0, 1}, {"far", 0, 1}} {
		p := path(tc.name)
		patchPath := fixtures.PatchPath(p, 2)
		switch tc.name {
		case "bad":
			patchPath = notApplying
		case "wrong":
			patchPath = wrongResult
		}
		if n := src.Count(patchPath).Bodies; n != tc.patch {
			t.Errorf("%s: %d GETs of the patch, want %d", tc.name, n, tc.patch)
		}
		if n := src.Count(p).Bodies; n != tc.whole {
			t.Errorf("%s: %d GETs of <loc>, want %d", tc.name, n, tc.whole)
		}
	}
	if n := canary.Requests(); n != 0 {
		t.Errorf("the patch on a host not allowed got %d requests", n)
	}
	c := countsOf(t, r.stdout)
	if c.Patched != 2 || c.PatchFailures != 3 || c.PatchSaved <= 0 || c.PatchSaved >= c.Bytes {
		t.Errorf("counts %+v: want 2 patched, 3 patches not applied (bad, wrong, tampered), bytes saved", c)
	}
	contains(t, r.stderr, "patch not applied", notApplying, "does not apply to the copy held",
		"the copy held is not the version the state recorded", wrongResult+": the patched copy is not the change's version")
	if strings.Contains(r.stderr, "x-bsdiff") {
		t.Errorf("a patch of an unknown type was warned about, not ignored:\n%s", r.stderr)
	}
}

// §14.4 in a Change Dump (incremental --via dump): an updated JSON
// resource whose manifest entry has no bitstream of its own is made by the
// patch its link's path names in the package - no GET of <loc>, none of
// the patch's href; a patch member that does not apply, or whose path
// climbs out of the package: one GET of <loc>, a warning naming the member
// and the cause; an entry with its own bitstream is copied from it, its
// patch unused. The mirror ends as the Source, and the summary counts what
// was patched. sync --via dump does the same.
func TestLinksPatchesChangeDump(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 2; s.ChangeDump = true })
	names := []string{"good", "whole", "bad", "escape"}
	path, updates, dest := jsonDocsBaselined(t, src, srv, names)
	src.SetDumpPatches(func(s fixtures.LinkSite) fixtures.DumpPatch {
		dp := fixtures.DumpPatch{Patch: true, NoBitstream: true}
		switch s.Path {
		case path("whole"):
			dp.NoBitstream = false
		case path("bad"):
			dp.Body = []byte(`[{"op":"remove","path":"/nothing/here"}]`)
		case path("escape"):
			dp.Path = "/../../escape.json-patch"
		}
		return dp
	})
	if err := src.Apply(src.At().Add(time.Second), updates...); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()

	r := runCLI(t, args([]string{"incremental", "--dest", dest, "--via", "dump", "--json"}, srv.URL)...).want(t, 0)
	incAssertIsSource(t, src, dest)
	for _, tc := range []struct {
		name  string
		whole int
	}{{"good", 0}, {"whole", 0}, {"bad", 1}, {"escape", 1}} {
		p := path(tc.name)
		if n := src.Count(p).Bodies; n != tc.whole {
			t.Errorf("%s: %d GETs of <loc>, want %d", tc.name, n, tc.whole)
		}
		if n := src.Requests(fixtures.PatchPath(p, 2)); n != 0 {
			t.Errorf("%s: %d requests for the patch's href: in a Change Dump the patch is a member", tc.name, n)
		}
	}
	c := countsOf(t, r.stdout)
	if c.Patched != 1 || c.PatchFailures != 2 || c.PatchSaved <= 0 || c.PatchSaved >= c.Bytes {
		t.Errorf("counts %+v: want 1 patched, 2 patches not applied (bad, escape), bytes saved", c)
	}
	contains(t, r.stderr, "patch not applied", "/patches/v2/res/doc/bad.json.json-patch", "of package",
		"does not apply to the copy held", "unsafe name", "/../../escape.json-patch")
	if _, err := os.Stat(filepath.Join(filepath.Dir(dest), "escape.json-patch")); err == nil {
		t.Errorf("a file was written outside the mirror")
	}

	// sync --via dump does the same: the copy just patched is patched again.
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: path("good")}); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--via", "dump", "--json"}, srv.URL)...).want(t, 0)
	incAssertIsSource(t, src, dest)
	if c := countsOf(t, r.stdout); c.Patched != 1 || c.PatchFailures != 0 {
		t.Errorf("sync --via dump: counts %+v, want 1 patched", c)
	}
	if n := src.Count(path("good")).Bodies; n != 0 {
		t.Errorf("sync --via dump: %d GETs of <loc>, want 0", n)
	}
}

// jsonDocsBaselined publishes a JSON document of 2,000 bytes per name
// (the fixture's patchable resources) and baselines the Source into a new
// mirror; it returns where each name's document is, an update of each
// (to apply when the patches are set up) and the mirror.
func jsonDocsBaselined(t *testing.T, src *fixtures.Source, srv *fixtures.Server, names []string) (path func(string) string, updates []fixtures.Mutation, dest string) {
	t.Helper()
	path = func(name string) string { return "/dataset1/res/doc/" + name + ".json" }
	var creates []fixtures.Mutation
	for _, n := range names {
		creates = append(creates, fixtures.Mutation{Kind: fixtures.Create, Path: path(n), Size: 2000})
		updates = append(updates, fixtures.Mutation{Kind: fixtures.Update, Path: path(n)})
	}
	if err := src.Apply(src.At().Add(time.Second), creates...); err != nil {
		t.Fatal(err)
	}
	dest = t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	return path, updates, dest
}
