package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
)

// What gets synced: the set a URL stands for, and the discovery of a
// bare list or a robots.txt with an ordinary sitemap (issue 15).

// mirrored reports, for each resource of set k, whether dest holds a file
// with its current bytes.
func mirrored(t *testing.T, src *fixtures.Source, k int, dest string) (held, missing int) {
	t.Helper()
	for _, r := range src.Resources(k) {
		want, _ := src.Content(r.URI)
		got, err := os.ReadFile(filepath.Join(dest, relPath(t, r.URI)))
		if err == nil && string(got) == string(want) {
			held++
		} else {
			missing++
		}
	}
	return held, missing
}

// wantSets asserts that dest holds every resource of the sets in only and
// none of the others', and that the state knows only those sets.
func wantSets(t *testing.T, src *fixtures.Source, dest string, only ...int) {
	t.Helper()
	for k := range src.Sets() {
		held, missing := mirrored(t, src, k, dest)
		want := false
		for _, o := range only {
			want = want || o == k
		}
		known := readState(t, dest, src.CapabilityListURL(k)).ok
		switch {
		case want && (missing > 0 || !known):
			t.Errorf("set %d: %d resources missing (known to the state: %v), want all", k, missing, known)
		case !want && (held > 0 || known):
			t.Errorf("set %d: %d resources mirrored (known to the state: %v), want none", k, held, known)
		}
	}
}

func TestOneSetFromItsURL(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2; s.Resources = 12 })

	// A Capability List stands for its set; the Source's root for all.
	one := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", one}, src.CapabilityListURL(0))...).want(t, 0)
	contains(t, r.stdout, src.CapabilityListURL(0))
	if strings.Contains(r.stdout, src.CapabilityListURL(1)) {
		t.Errorf("the baseline of dataset1 reports dataset2:\n%s", r.stdout)
	}
	wantSets(t, src, one, 0)
	all := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", all}, srv.URL)...).want(t, 0)
	wantSets(t, src, all, 0, 1)

	// A Resource List (a document within the set) too, for sync.
	two := t.TempDir()
	runCLI(t, args([]string{"sync", "--dest", two}, src.ResourceListURL(1))...).want(t, 0)
	wantSets(t, src, two, 1)

	// audit of one set: the other set's resources are not missing.
	runCLI(t, args([]string{"audit", "--dest", one}, src.CapabilityListURL(0))...).want(t, 0)
	runCLI(t, args([]string{"audit", "--dest", one}, srv.URL)...).want(t, exitDifferences)

	// incremental of one set applies that set's changes only.
	for k := range 2 {
		if err := src.Apply(src.At().Add(1e9), fixtures.Mutation{Kind: fixtures.Update, Path: src.Resources(k)[0].Path}); err != nil {
			t.Fatal(err)
		}
	}
	runCLI(t, args([]string{"incremental", "--dest", all}, src.ChangeListURL(0))...).want(t, 0)
	if _, missing := mirrored(t, src, 0, all); missing != 0 {
		t.Errorf("set 0: %d resources not in step after its incremental", missing)
	}
	if _, missing := mirrored(t, src, 1, all); missing != 1 {
		t.Errorf("set 1: %d resources not in step, want the 1 change left for its own run", missing)
	}

	// --capability-list still chooses explicitly, and wins.
	three := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", three, "--capability-list", src.CapabilityListURL(1)}, srv.URL)...).want(t, 0)
	wantSets(t, src, three, 1)

	// discover says which sets a run takes.
	r = runCLI(t, args([]string{"discover"}, src.CapabilityListURL(1))...).want(t, 0)
	contains(t, r.stdout, "a run takes", "the set of "+src.CapabilityListURL(1)+" only")
	r = runCLI(t, args([]string{"discover"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "a run takes", "every set")
	var disc struct {
		Selected string `json:"selected"`
	}
	r = runCLI(t, args([]string{"discover", "--json"}, src.ResourceListURL(0))...).want(t, 0)
	if err := resultOf(r.stdout, &disc); err != nil || disc.Selected != src.CapabilityListURL(0) {
		t.Errorf("discover --json selected %q (%v), want %s", disc.Selected, err, src.CapabilityListURL(0))
	}

	// In a --config file, a Source's url is read the same way.
	four := filepath.Join(t.TempDir(), "four")
	cfg := writeConfig(t, `
defaults:
  max-retry-wait: 5ms
  progress: never
sources:
  - url: `+src.CapabilityListURL(1)+`
    dest: `+four+`
`)
	runCLI(t, "sync", "--config", cfg).want(t, 0)
	wantSets(t, src, four, 1)
}

func TestLenientDiscovery(t *testing.T) {
	t.Parallel()
	t.Run("a bare Resource List is a one-set Source", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true; s.Resources = 8 })
		rl := sourceDoc(t, srv, "/dataset1/resourcelist.xml")
		src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(strings.Replace(rl, `rel="up"`, `rel="related"`, 1)))
		dest := t.TempDir()
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, src.ResourceListURL(0))...).want(t, 0)
		contains(t, r.stderr, `has no rel="up" link`, "one-set Source")
		if held, missing := mirrored(t, src, 0, dest); held == 0 || missing != 0 {
			t.Errorf("%d mirrored, %d missing", held, missing)
		}
		if !readState(t, dest, src.ResourceListURL(0)).ok {
			t.Errorf("the state does not know the set by its Resource List's URL")
		}
		runCLI(t, args([]string{"audit", "--dest", dest}, src.ResourceListURL(0))...).want(t, 0)
	})
	t.Run("robots.txt listing an ordinary sitemap first", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true; s.Resources = 8 })
		src.SetRaw("/", "text/html", []byte("<html><head><title>home</title></head></html>"))
		src.SetRaw("/sitemap.xml", "application/xml", []byte(`<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+srv.URL+`</loc></url></urlset>`))
		src.SetRaw("/robots.txt", "text/plain", []byte("User-agent: *\nSitemap: "+srv.URL+"sitemap.xml\nSitemap: "+src.ResourceListURL(0)+"\n"))
		r := runCLI(t, args([]string{"discover"}, srv.URL)...).want(t, 0)
		contains(t, r.stdout, "robots.txt", src.CapabilityListURL(0))
		contains(t, r.stderr, srv.URL+"sitemap.xml", "not a ResourceSync document (skipped)")
		dest := t.TempDir()
		runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
		wantSets(t, src, dest, 0)
	})
	t.Run("a plain sitemap given as the Source", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true })
		src.SetRaw("/sitemap.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+srv.URL+`</loc></url></urlset>`))
		src.SetRaw("/", "text/html", []byte("<html></html>"))
		src.SetNotFound("/robots.txt")
		r := runCLI(t, args([]string{"discover"}, srv.URL+"sitemap.xml")...).want(t, exitFatal)
		contains(t, r.stderr, "no ResourceSync Source found", srv.URL+"sitemap.xml", "not a ResourceSync document")
	})
	t.Run("an unknown capability is named", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetRaw("/odd.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcelist-v2"/></urlset>`))
		r := runCLI(t, args([]string{"baseline", "--dest", t.TempDir()}, srv.URL+"odd.xml")...).want(t, exitFatal)
		contains(t, r.stderr, srv.URL+"odd.xml", `"resourcelist-v2"`, "does not know")
	})
}

// A run of one set, given by its URL, retires no other set: only a run
// over every set may (TestGuaranteeOrphanedSetIsRetired).
func TestOneSetRunRetiresNoOther(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 8; s.Sets = 2 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	gone := src.CapabilityListURL(1)
	sdPath := fixtures.PathOf(t, src.SourceDescriptionURL())
	src.SetRaw(sdPath, "application/xml", withoutSet(t, sourceDoc(t, srv, sdPath), gone))
	runCLI(t, args([]string{"sync", "--dest", dest}, src.CapabilityListURL(0))...).want(t, 0)
	if !readState(t, dest, gone).ok {
		t.Fatal("a run of dataset1 by its URL retired dataset2")
	}
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	if readState(t, dest, gone).ok {
		t.Fatal("a run over every set did not retire the set the Source no longer names")
	}
}
