package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Faults a Source repeats entry by entry, run after run - a lastmod that
// is not a datetime, a change dated 9999 - are warned about once, in one
// line per kind and host, on the run that first finds them; later runs
// count them (INFO, which --quiet hides) and status lists them.
func TestKnownConditionsAreReportedOnce(t *testing.T) {
	t.Parallel()
	start := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Second)
	src, srv := served(t, func(s *fixtures.Spec) { s.Start, s.NoChangeListIndex, s.Resources = start, true, 5 })
	rs := src.Resources(0)
	const rlPath, clPath = "/dataset1/resourcelist.xml", "/dataset1/changelist.xml"
	rl := sourceDoc(t, srv, rlPath)
	for _, r := range rs[:2] {
		entry := regexp.MustCompile(`(?s)<loc>` + regexp.QuoteMeta(r.URI) + `</loc>\s*<lastmod>[^<]*</lastmod>`)
		rl = entry.ReplaceAllString(rl, "<loc>"+r.URI+"</loc><lastmod>yesterday</lastmod>")
	}
	src.SetRaw(rlPath, "application/xml", []byte(rl))
	dest := t.TempDir()
	lines := func(stderr, what string) []string {
		var out []string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, what) {
				out = append(out, l)
			}
		}
		return out
	}

	// The first run: one warning for the two entries, even with --quiet.
	r := runCLI(t, args([]string{"sync", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if l := lines(r.stderr, "lastmod"); len(l) != 1 || !strings.Contains(l[0], "WRN") || !strings.Contains(l[0], "entries=2") || !strings.Contains(l[0], "condition=lastmod") {
		t.Fatalf("the first run, lines about the lastmods:\n%s", r.stderr)
	}
	// Known now: a --quiet baseline says nothing; without it, an INFO line
	// and the count in the summary.
	r = runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("a --quiet run of a known condition said something:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	r = runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if l := lines(r.stderr, "condition=lastmod"); len(l) != 1 || strings.Contains(r.stderr, "WRN") {
		t.Errorf("a known condition:\n%s", r.stderr)
	}
	contains(t, r.stdout, "2 entries have a lastmod that is not a W3C datetime")

	// A change dated 9999 in the open Change List is read by every run
	// (it holds the cursor at the run's time); one of no known kind, by
	// the first.
	if err := src.Apply(start.Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: rs[3].Path, Size: 100}); err != nil {
		t.Fatal(err)
	}
	cl := string(withChange(t, sourceDoc(t, srv, clPath), rs[4].URI, "9999-01-01T00:00:00Z"))
	cl = strings.Replace(cl, "</urlset>", `<url><loc>`+rs[2].URI+`</loc><lastmod>`+resourcesync.FormatDatetime(start.Add(time.Second))+`</lastmod><rs:md change="moved"/></url></urlset>`, 1)
	src.SetRaw(clPath, "application/xml", []byte(cl))
	r = runCLI(t, args([]string{"sync", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	l := lines(r.stderr, "condition=")
	if len(l) != 2 || !strings.Contains(r.stderr, "condition=misdated") || !strings.Contains(r.stderr, "9999") || !strings.Contains(r.stderr, "condition=change") || strings.Count(r.stderr, "WRN") != 2 {
		t.Fatalf("the first run that reads the misdated change and the moved one:\n%s", r.stderr)
	}
	for range 2 {
		r = runCLI(t, args([]string{"sync", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
		if r.stdout != "" || r.stderr != "" {
			t.Errorf("a --quiet run of known changes said something:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
		}
	}
	r = runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "1 changes dated outside")
	// A baseline of every set forgets no misdated change (it reads no
	// Change List).
	runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)

	r = runCLI(t, "status", "--dest", dest).want(t, 0)
	host := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/")
	contains(t, r.stdout, "known conditions", "lastmod  "+host+"  2 entries", "misdated  "+host+"  1 entry", "change  "+host+"  1 entry")
	var st statusReport
	r = runCLI(t, "status", "--dest", dest, "--json").want(t, 0)
	if err := resultOf(r.stdout, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Conditions) != 3 || st.Conditions[0].Kind != "change" || st.Conditions[1].Kind != "lastmod" || st.Conditions[2].Kind != "misdated" || st.Conditions[2].Entries != 1 {
		t.Errorf("status --json conditions: %+v", st.Conditions)
	}
}

// A Resource List without at says so on every run: warned about once.
func TestKnownConditionListAt(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
	const rlPath = "/dataset1/resourcelist.xml"
	rl := regexp.MustCompile(` at="[^"]*"`).ReplaceAllString(sourceDoc(t, srv, rlPath), "")
	src.SetRaw(rlPath, "application/xml", []byte(rl))
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if n := strings.Count(r.stderr, "\n"); n != 1 || !strings.Contains(r.stderr, "WRN") || !strings.Contains(r.stderr, "condition=list-at") || !strings.Contains(r.stderr, "has no at") {
		t.Fatalf("the first run:\n%s", r.stderr)
	}
	r = runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("a --quiet run of a known list without at said something:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	contains(t, runCLI(t, "status", "--dest", dest).want(t, 0).stdout, "list-at  ")
}
