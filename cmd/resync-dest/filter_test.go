package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// uriPattern is a regular expression matching exactly the URIs of rs.
func uriPattern(rs []fixtures.ResourceInfo) string {
	var alts []string
	for _, r := range rs {
		alts = append(alts, regexp.QuoteMeta(r.URI))
	}
	return "^(" + strings.Join(alts, "|") + ")$"
}

// onDisk returns the bytes dest holds for uri, or "" when it holds none.
func onDisk(t *testing.T, dest, uri string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dest, relPath(t, uri)))
	if err != nil {
		return ""
	}
	return string(b)
}

// TestFiltersLeaveResourcesOut: --exclude and --include through every
// command that reads a set's resources, and filters changed between runs:
// a resource left out is neither fetched nor deleted nor audited, and the
// summaries say how many were left out.
func TestFiltersLeaveResourcesOut(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 20 })
	res := src.Resources(0)
	out := res[:4] // what --exclude leaves out
	exclude := []string{"--exclude", uriPattern(out)}
	dest := t.TempDir()

	// discover --count counts what a run would take.
	r := runCLI(t, args([]string{"discover", "--count"}, append(exclude, srv.URL)...)...).want(t, 0)
	contains(t, r.stdout, "16 resources", "4 left out by the filters")
	runCLI(t, args([]string{"discover"}, append(exclude, srv.URL)...)...).want(t, exitUsage)

	// A dry run plans nothing for them.
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--dry-run"}, append(exclude, srv.URL)...)...).want(t, 0)
	for _, o := range out {
		if strings.Contains(r.stdout, o.URI) {
			t.Errorf("the dry run plans %s, which --exclude leaves out:\n%s", o.URI, r.stdout)
		}
	}
	contains(t, r.stdout, "create ", "4 left out by the filters")

	// baseline: not fetched, counted.
	src.ResetCounts()
	var rep struct {
		Counts resourcesync.Counts `json:"counts"`
	}
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--json"}, append(exclude, srv.URL)...)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil || rep.Counts.Created != 16 || rep.Counts.LeftOut != 4 {
		t.Fatalf("counts %+v (%v), want 16 created, 4 left out", rep.Counts, err)
	}
	for _, o := range out {
		if src.Requests(o.Path) != 0 || onDisk(t, dest, o.URI) != "" {
			t.Errorf("%s fetched (%d requests) or on disk", o.URI, src.Requests(o.Path))
		}
	}

	// audit: not missing with the filters, missing without.
	r = runCLI(t, args([]string{"audit", "--dest", dest}, append(exclude, srv.URL)...)...).want(t, 0)
	contains(t, r.stdout, "4 left out by the filters")
	r = runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout, "4 missing")

	// Filters widened: a baseline takes what they no longer leave out.
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)

	// Narrowed again: the Source deletes one and updates one of them; a
	// run with --delete leaves both as they were.
	before := []string{onDisk(t, dest, out[0].URI), onDisk(t, dest, out[1].URI)}
	if err := src.Apply(src.At().Add(1e9),
		fixtures.Mutation{Kind: fixtures.Delete, Path: out[0].Path},
		fixtures.Mutation{Kind: fixtures.Update, Path: out[1].Path},
		fixtures.Mutation{Kind: fixtures.Update, Path: res[10].Path}); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args([]string{"incremental", "--dest", dest, "--delete", "--max-delete", "100%"}, append(exclude, srv.URL)...)...).want(t, 0)
	contains(t, r.stdout, "left out by the filters")
	if onDisk(t, dest, out[0].URI) != before[0] || onDisk(t, dest, out[1].URI) != before[1] {
		t.Errorf("incremental --delete changed files --exclude leaves out")
	}
	if want, _ := src.Content(res[10].URI); onDisk(t, dest, res[10].URI) != string(want) {
		t.Errorf("the change of a resource the filters take was not applied")
	}
	runCLI(t, args([]string{"baseline", "--dest", dest, "--delete", "--max-delete", "100%"}, append(exclude, srv.URL)...)...).want(t, 0)
	if onDisk(t, dest, out[0].URI) != before[0] || onDisk(t, dest, out[1].URI) != before[1] {
		t.Errorf("baseline --delete changed files --exclude leaves out")
	}
	held := heldURIs(readState(t, dest, src.CapabilityListURL(0)).held)
	if !held[out[0].URI] || !held[out[1].URI] {
		t.Errorf("the state forgot what the filters left out")
	}
	// audit: kept files of left-out resources are not extra.
	runCLI(t, args([]string{"audit", "--dest", dest}, append(exclude, srv.URL)...)...).want(t, 0)
	r = runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout, "1 extra", "1 changed")
	// Its repair command keeps the filters.
	r = runCLI(t, args([]string{"audit", "--dest", dest, "--exclude", uriPattern(out[:1])}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout, "0 extra, 1 changed", "--exclude "+shellQuote(uriPattern(out[:1])))

	// Without the filters, the run brings them in step.
	runCLI(t, args([]string{"baseline", "--dest", dest, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)

	// --include takes only what matches one of them; --exclude first.
	inc := t.TempDir()
	res = src.Resources(0)
	r = runCLI(t, args([]string{"baseline", "--dest", inc, "--include", uriPattern(res[:3]), "--include", uriPattern(res[3:5]),
		"--exclude", regexp.QuoteMeta(res[4].URI)}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "4 created", "left out by the filters")
	for i, x := range res {
		if got := onDisk(t, inc, x.URI) != ""; got != (i < 4) {
			t.Errorf("%s on disk: %v, want %v", x.URI, got, i < 4)
		}
	}
}

func TestFilterFlagErrors(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	for _, c := range [][]string{
		{"baseline", "--dest", t.TempDir(), "--exclude", "("},
		{"sync", "--dest", t.TempDir(), "--include", "a[", "--exclude", "ok"},
		{"audit", "--dest", t.TempDir(), "--exclude", ""},
		{"discover", "--count", "--include", "x**"},
	} {
		r := runCLI(t, args(c, srv.URL)...).want(t, exitUsage)
		if !strings.Contains(r.stderr, "--include") && !strings.Contains(r.stderr, "--exclude") {
			t.Errorf("%v: the error names no flag:\n%s", c, r.stderr)
		}
	}
	cfg := writeConfig(t, `
sources:
  - url: `+srv.URL+`
    dest: `+t.TempDir()+`
    exclude: ["("]
`)
	r := runCLI(t, "sync", "--config", cfg).want(t, exitUsage)
	contains(t, r.stderr, `--exclude "("`)
}

// In a --config file, each Source has its own filters.
func TestFiltersInConfig(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 10 })
	res := src.Resources(0)
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	cfg := writeConfig(t, `
defaults:
  max-retry-wait: 5ms
  progress: never
sources:
  - url: `+srv.URL+`
    dest: `+a+`
    exclude: ['`+uriPattern(res[:2])+`']
  - url: `+srv.URL+`
    dest: `+b+`
    include: ['`+uriPattern(res[:2])+`']
`)
	runCLI(t, "sync", "--config", cfg).want(t, 0)
	for i, x := range res {
		if got := onDisk(t, a, x.URI) != ""; got != (i >= 2) {
			t.Errorf("mirror a: %s on disk %v", x.URI, got)
		}
		if got := onDisk(t, b, x.URI) != ""; got != (i < 2) {
			t.Errorf("mirror b: %s on disk %v", x.URI, got)
		}
	}
}

// A file resync-dest never wrote, at the path of a URI the filters leave
// out, is kept by baseline --delete and is not extra to audit; deletions
// of resources left out do not count against --max-delete; a first sync
// takes the filters for its baseline and its changes alike.
func TestFiltersSpareWhatTheyLeaveOut(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 12 })
	res := src.Resources(0)
	dest := t.TempDir()
	exclude := []string{"--exclude", `/planted\.txt$`, "--exclude", uriPattern(res[:2])}
	runCLI(t, args([]string{"sync", "--dest", dest}, append(exclude, srv.URL)...)...).want(t, 0)
	if onDisk(t, dest, res[0].URI) != "" || onDisk(t, dest, res[2].URI) == "" {
		t.Fatalf("the first sync did not apply the filters")
	}

	planted := strings.Replace(res[2].URI, filepath.Base(res[2].Path), "planted.txt", 1)
	p := filepath.Join(dest, relPath(t, planted))
	if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLI(t, args([]string{"baseline", "--dest", dest, "--delete", "--max-delete", "100%"}, append(exclude, srv.URL)...)...).want(t, 0)
	if b, err := os.ReadFile(p); err != nil || string(b) != "mine" {
		t.Fatalf("baseline --delete removed a file --exclude leaves out: %v", err)
	}
	runCLI(t, args([]string{"audit", "--dest", dest}, append(exclude, srv.URL)...)...).want(t, 0)
	r := runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout, "+ "+relPath(t, planted))

	// The Source deletes two resources: one left out (held from an
	// earlier run without filters), one taken. --max-delete 1 counts
	// only the one the run would delete.
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if err := src.Apply(src.At().Add(1e9),
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[0].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[5].Path}); err != nil {
		t.Fatal(err)
	}
	runCLI(t, args([]string{"sync", "--dest", dest, "--delete", "--max-delete", "1"}, append(exclude, srv.URL)...)...).want(t, 0)
	if onDisk(t, dest, res[0].URI) == "" || onDisk(t, dest, res[5].URI) != "" {
		t.Errorf("sync --delete: the left-out file must stay (%v), the other go (%v)",
			onDisk(t, dest, res[0].URI) != "", onDisk(t, dest, res[5].URI) == "")
	}
}

// watch takes the set its URL stands for and the filters, as sync does.
func TestWatchOneSetFiltered(t *testing.T) {
	src, _ := served(t, func(s *fixtures.Spec) { s.Sets = 2; s.Resources = 12 })
	res := src.Resources(1)
	dest := filepath.Join(t.TempDir(), "mirror")
	stdout := watchFirstSync(t, dest, "--exclude", uriPattern(res[:2]), src.CapabilityListURL(1))
	first, _, _ := strings.Cut(stdout, "\n")
	var rep struct {
		Sets []struct {
			CapabilityList string `json:"capability_list"`
		} `json:"sets"`
		Counts resourcesync.Counts `json:"counts"`
	}
	if err := resultOf(first, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Sets) != 1 || rep.Sets[0].CapabilityList != src.CapabilityListURL(1) || rep.Counts.LeftOut != 2 {
		t.Errorf("watch's first sync: sets %+v, counts %+v; want dataset2 only, 2 left out", rep.Sets, rep.Counts)
	}
	for i, x := range res {
		if got := onDisk(t, dest, x.URI) != ""; got != (i >= 2) {
			t.Errorf("%s on disk: %v", x.URI, got)
		}
	}
	if held, _ := mirrored(t, src, 0, dest); held != 0 {
		t.Errorf("%d resources of dataset1 mirrored by a watch of dataset2", held)
	}
}
