package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// planScene is a mirror with every kind of work to do against a fixture
// Source: resources created, updated and deleted at the Source, a local
// copy lost, a stray local file, entries out of scope, and a new entry
// whose list gives no length.
type planScene struct {
	src       *fixtures.Source
	srv       *fixtures.Server
	dest      string
	noLength  fixtures.ResourceInfo // listed without its length
	listedLen int64                 // the listed lengths of what is to be downloaded
}

func newPlanScene(t *testing.T) planScene {
	t.Helper()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 20 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	rs := src.Resources(0)
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	muts := []fixtures.Mutation{
		{Kind: fixtures.Create, Path: "/dataset1/res/new/a.txt", Size: 1000},
		{Kind: fixtures.Create, Path: "/dataset1/res/new/b.txt", Size: 2000},
		{Kind: fixtures.Update, Path: rs[1].Path, Size: 300},
		{Kind: fixtures.Update, Path: rs[2].Path, Size: 400},
		{Kind: fixtures.Update, Path: rs[3].Path, Size: 500},
		{Kind: fixtures.Delete, Path: rs[4].Path},
		{Kind: fixtures.Delete, Path: rs[5].Path},
	}
	if err := src.Apply(at, muts...); err != nil {
		t.Fatal(err)
	}
	// A lost local copy is fetched again; a stray file in the set's tree
	// is one the list no longer names.
	if err := os.Remove(filepath.Join(dest, relPath(t, rs[6].URI))); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(filepath.Dir(filepath.Join(dest, relPath(t, rs[7].URI))), "stray.txt")
	if err := os.WriteFile(stray, []byte("not the Source's"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The list as the Source now gives it, with two entries out of scope
	// and b.txt without its length.
	body := sourceDoc(t, srv, "/dataset1/resourcelist.xml")
	noLength, _ := src.Resource("/dataset1/res/new/b.txt")
	entry := regexp.MustCompile(`(?s)<loc>` + regexp.QuoteMeta(noLength.URI) + `</loc>.*?</url>`)
	list := entry.ReplaceAllStringFunc(body, func(e string) string {
		return regexp.MustCompile(` length="\d+"`).ReplaceAllString(e, "")
	})
	if list == body {
		t.Fatalf("no length to remove for %s in:\n%s", noLength.URI, body)
	}
	list = strings.Replace(list, "</urlset>",
		"<url><loc>http://elsewhere.example/1.txt</loc></url><url><loc>ftp://127.0.0.1/2.txt</loc></url></urlset>", 1)
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(list))

	var listed int64
	for _, p := range []string{"/dataset1/res/new/a.txt", rs[1].Path, rs[2].Path, rs[3].Path, rs[6].Path} {
		r, _ := src.Resource(p)
		listed += r.Size
	}
	return planScene{src: src, srv: srv, dest: dest, noLength: noLength, listedLen: listed}
}

// A dry run's plan adds up: one action per entry considered (22 listed,
// 3 local files no longer listed), the bytes to download from the listed
// lengths and the entry without one counted apart; the real run that
// follows does what the plan said, and the dry run wrote nothing.
func TestDryRunPlanAddsUp(t *testing.T) {
	t.Parallel()
	sc := newPlanScene(t)
	for _, tc := range []struct {
		name   string
		delete bool
		want   resourcesync.Plan
	}{
		{"without --delete", false, resourcesync.Plan{Considered: 25, Fetch: 3, Update: 3, InStep: 14, Keep: 3, OutOfScope: 2, Bytes: sc.listedLen, UnknownLength: 1}},
		{"with --delete", true, resourcesync.Plan{Considered: 25, Fetch: 3, Update: 3, InStep: 14, Delete: 3, OutOfScope: 2, Bytes: sc.listedLen, UnknownLength: 1}},
	} {
		argv := []string{"baseline", "--dest", sc.dest, "--dry-run", "--json"}
		if tc.delete {
			argv = append(argv, "--delete", "--max-delete", "100%")
		}
		before := fixtures.TreeSnapshot(t, sc.dest, false)
		r := runCLI(t, args(argv, sc.srv.URL)...).want(t, 0)
		var rep agent.Report
		if err := resultOf(r.stdout, &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Sets) != 1 || rep.Sets[0].Baseline == nil || rep.Sets[0].Baseline.Plan == nil || rep.Plan == nil {
			t.Fatalf("%s: no plan:\n%s", tc.name, r.stdout)
		}
		got := *rep.Sets[0].Baseline.Plan
		if got != tc.want || *rep.Plan != tc.want {
			t.Errorf("%s: plan %+v (total %+v), want %+v", tc.name, got, *rep.Plan, tc.want)
		}
		if got.Actions() != got.Considered {
			t.Errorf("%s: %d actions for %d entries considered", tc.name, got.Actions(), got.Considered)
		}
		sameSnapshot(t, "the mirror and its state after a dry run", before, fixtures.TreeSnapshot(t, sc.dest, false))
	}

	// The real run does what the plan said.
	r := runCLI(t, args([]string{"baseline", "--dest", sc.dest, "--json", "--delete", "--max-delete", "100%"}, sc.srv.URL)...).want(t, 0)
	var rep agent.Report
	if err := resultOf(r.stdout, &rep); err != nil {
		t.Fatal(err)
	}
	c := rep.Sets[0].Baseline.Counts
	want := resourcesync.Counts{Listed: 22, Created: 3, Updated: 3, Unchanged: 14, Deleted: 3, Skipped: 2, Bytes: sc.listedLen + sc.noLength.Size}
	if c != want {
		t.Errorf("the real run: %+v, want what the plan said: %+v", c, want)
	}
	// Nothing is left to do: a dry run now plans nothing but in step
	// (and the entries out of scope).
	r = runCLI(t, args([]string{"baseline", "--dest", sc.dest, "--dry-run", "--json", "--delete"}, sc.srv.URL)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil {
		t.Fatal(err)
	}
	if p := *rep.Plan; p != (resourcesync.Plan{Considered: 22, InStep: 20, OutOfScope: 2}) {
		t.Errorf("after the real run: plan %+v", p)
	}
}

// The dry run's plan for a person, and its JSON's shape (golden files).
func TestDryRunPlanGolden(t *testing.T) {
	t.Parallel()
	sc := newPlanScene(t)
	r := runCLI(t, args([]string{"baseline", "--dest", sc.dest, "--dry-run", "--delete", "--max-delete", "100%"}, sc.srv.URL)...).want(t, 0)
	golden(t, "dry-run-baseline.golden", planText(r.stdout, sc.srv.URL))
	r = runCLI(t, args([]string{"baseline", "--dest", sc.dest, "--dry-run"}, sc.srv.URL)...).want(t, 0)
	golden(t, "dry-run-baseline-keep.golden", planText(r.stdout, sc.srv.URL))
	r = runCLI(t, args([]string{"baseline", "--dest", sc.dest, "--dry-run", "--json", "--delete", "--max-delete", "100%"}, sc.srv.URL)...).want(t, 0)
	golden(t, "json-baseline-dry-run.golden", shape(decodeEnvelope(t, r.stdout)))
}

// planText is a dry run's stdout without what changes from run to run:
// the Source's address, and the order of the action lines (as the workers
// finish), which are sorted.
func planText(stdout, srvURL string) string {
	stdout = strings.ReplaceAll(stdout, strings.TrimSuffix(strings.TrimPrefix(srvURL, "http://"), "/"), "SOURCE")
	lines := strings.Split(stdout, "\n")
	var actions, rest []string
	for _, l := range lines {
		if strings.HasPrefix(l, "create ") || strings.HasPrefix(l, "update ") || strings.HasPrefix(l, "delete ") {
			actions = append(actions, l)
		} else {
			rest = append(rest, l)
		}
	}
	slices.Sort(actions)
	return strings.Join(append(actions, rest...), "\n")
}

// An incremental dry run plans the changes since the cursor, and the real
// sync that follows does what it said.
func TestDryRunPlanIncremental(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 20 })
	dest := t.TempDir()
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	rs := src.Resources(0)
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	if err := src.Apply(at,
		fixtures.Mutation{Kind: fixtures.Create, Path: "/dataset1/res/new/a.txt", Size: 1000},
		fixtures.Mutation{Kind: fixtures.Update, Path: rs[1].Path, Size: 300},
		fixtures.Mutation{Kind: fixtures.Update, Path: rs[2].Path, Size: 400},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[3].Path},
	); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, args([]string{"sync", "--dest", dest, "--dry-run", "--json", "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	var rep agent.Report
	if err := resultOf(r.stdout, &rep); err != nil {
		t.Fatal(err)
	}
	want := resourcesync.Plan{Considered: 4, Fetch: 1, Update: 2, Delete: 1, Bytes: 1700}
	if rep.Plan == nil || *rep.Plan != want {
		t.Fatalf("plan %+v, want %+v\n%s", rep.Plan, want, r.stdout)
	}
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--dry-run", "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "plan for 4 entries: 1 to fetch (new), 2 to update, 0 in step, 1 to delete", "to download: 1.7 KiB (as listed)", "4 to apply")
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--json", "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil {
		t.Fatal(err)
	}
	c := rep.Counts
	if c.Created != 1 || c.Updated != 2 || c.Deleted != 1 || c.Unchanged != 0 || c.Bytes != 1700 {
		t.Errorf("the real sync: %+v, want what the plan said: %+v", c, want)
	}
}

// Against a Source that gives no hashes, a copy whose listed lastmod
// changed cannot be told apart by the list: the plan counts it as an
// update only if the Source says it changed (conditional), and the real
// run downloads the two whose bytes changed and finds the third - only
// its lastmod moved - in step (304).
func TestDryRunPlanConditional(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources, s.HashAlgs = 10, []string{} })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	rs := src.Resources(0)
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	if err := src.Apply(at, fixtures.Mutation{Kind: fixtures.Update, Path: rs[1].Path}, fixtures.Mutation{Kind: fixtures.Update, Path: rs[2].Path}); err != nil {
		t.Fatal(err)
	}
	const rlPath = "/dataset1/resourcelist.xml"
	touched := regexp.MustCompile(`(?s)(<loc>` + regexp.QuoteMeta(rs[3].URI) + `</loc>\s*<lastmod>)[^<]*`)
	src.SetRaw(rlPath, "application/xml", []byte(touched.ReplaceAllString(sourceDoc(t, srv, rlPath), "${1}"+resourcesync.FormatDatetime(at))))

	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--dry-run", "--json"}, srv.URL)...).want(t, 0)
	var rep agent.Report
	if err := resultOf(r.stdout, &rep); err != nil {
		t.Fatal(err)
	}
	var listed int64
	for _, r := range rs[1:4] {
		listed += r.Size // the sizes are kept by the updates
	}
	want := resourcesync.Plan{Considered: 10, Update: 3, Conditional: 3, InStep: 7, Bytes: listed}
	if rep.Plan == nil || *rep.Plan != want {
		t.Fatalf("plan %+v, want %+v", rep.Plan, want)
	}
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--dry-run"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "3 of the updates only if the Source says the resource changed")
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil {
		t.Fatal(err)
	}
	if c := rep.Counts; c.Updated != 2 || c.Unchanged != 8 || c.Created != 0 {
		t.Errorf("the real run: %+v; want 2 updated, the third found in step", c)
	}
}
