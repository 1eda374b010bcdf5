package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// sourceDoc is the body of a document the fixture Source serves at path.
func sourceDoc(t *testing.T, srv *fixtures.Server, path string) string {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(srv.URL, "/") + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
	}
	return string(b)
}

// withChange is a Change List with one more entry, an update of uri at
// lastmod, appended to its changes.
func withChange(t *testing.T, doc, uri, lastmod string) []byte {
	t.Helper()
	if !strings.Contains(doc, "</urlset>") {
		t.Fatalf("not a urlset:\n%s", doc)
	}
	e := `<url><loc>` + uri + `</loc><lastmod>` + lastmod + `</lastmod><rs:md change="updated"/></url>`
	return []byte(strings.Replace(doc, "</urlset>", e+"</urlset>", 1))
}

// checkedCursor checks the state after a run (checkState: integrity, every
// record's file present with its hash, one record per file) and returns set
// 0's cursor.
func checkedCursor(t *testing.T, src *fixtures.Source, dest string) time.Time {
	t.Helper()
	v := checkState(t, dest, src.CapabilityListURL(0))
	if !v.ok {
		t.Fatal("the state does not know the set")
	}
	return v.set.Cursor
}

// Issue 22, item 5a: a date a Source got wrong cannot poison the cursor.
// A change dated 9999, a Resource List whose at is in the year 3000, and a
// closed Change List with an entry after its own until are each applied
// and reported by name; the cursor stays within the Source's bounds (the
// run's time, the closed list's until), so a real change published after
// that run is applied by the next one instead of being skipped forever.
func TestGuaranteePoisonedDatesKeepTheCursor(t *testing.T) {
	t.Parallel()
	// The Source's history ends before the tests run, as a real one's does.
	start := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Second)
	// later applies a real change, dated after every run so far.
	later := func(t *testing.T, src *fixtures.Source, path string) {
		t.Helper()
		at := time.Now().UTC().Add(2 * time.Second).Truncate(time.Second)
		if err := src.Apply(at, fixtures.Mutation{Kind: fixtures.Update, Path: path, Size: 777}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("a change dated 9999", func(t *testing.T) {
		t.Parallel()
		src, srv := served(t, func(s *fixtures.Spec) { s.Start, s.NoChangeListIndex = start, true })
		dest := t.TempDir()
		runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		rs := src.Resources(0)
		if err := src.Apply(start.Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: rs[0].Path, Size: 100}); err != nil {
			t.Fatal(err)
		}
		clPath := "/dataset1/changelist.xml"
		src.SetRaw(clPath, "application/xml", withChange(t, sourceDoc(t, srv, clPath), rs[1].URI, "9999-01-01T00:00:00Z"))
		before := time.Now()
		r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		contains(t, r.stdout+r.stderr, rs[1].URI, "9999-01-01T00:00:00Z", "after this run's time", "1 changes dated outside")
		if c := checkedCursor(t, src, dest); c.After(time.Now()) || c.Before(start.Add(time.Second)) {
			t.Fatalf("cursor %s after a change dated 9999 (the run began at %s)", c, before)
		}
		src.ClearRaw(clPath)
		later(t, src, rs[2].Path)
		r = runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		contains(t, r.stdout, "1 applied")
		checkedCursor(t, src, dest)
		incAssertIsSource(t, src, dest)
	})
	t.Run("a Resource List at in the year 3000", func(t *testing.T) {
		t.Parallel()
		src, srv := served(t, func(s *fixtures.Spec) { s.Start = start })
		dest := t.TempDir()
		rlPath := "/dataset1/resourcelist.xml"
		rl := sourceDoc(t, srv, rlPath)
		at := `at="` + resourcesync.FormatDatetime(start) + `"`
		if !strings.Contains(rl, at) {
			t.Fatalf("no %s in the Resource List:\n%s", at, rl)
		}
		src.SetRaw(rlPath, "application/xml", []byte(strings.Replace(rl, at, `at="3000-01-01T00:00:00Z"`, 1)))
		r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		contains(t, r.stdout+r.stderr, rlPath, "3000-01-01T00:00:00Z", "dated after this run's time")
		if c := checkedCursor(t, src, dest); c.After(time.Now()) {
			t.Fatalf("cursor %s after a Resource List dated 3000", c)
		}
		src.ClearRaw(rlPath)
		later(t, src, src.Resources(0)[0].Path)
		r = runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		contains(t, r.stdout, "1 applied")
		checkedCursor(t, src, dest)
		incAssertIsSource(t, src, dest)
	})
	t.Run("an entry after its closed list's until", func(t *testing.T) {
		t.Parallel()
		src, srv := served(t, func(s *fixtures.Spec) { s.Start, s.ChangeListMax = start, 2 })
		dest := t.TempDir()
		runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		rs := src.Resources(0)
		until := start.Add(time.Second)
		if err := src.Apply(until, fixtures.Mutation{Kind: fixtures.Update, Path: rs[0].Path, Size: 100},
			fixtures.Mutation{Kind: fixtures.Update, Path: rs[1].Path, Size: 100}); err != nil {
			t.Fatal(err)
		}
		// The closed list says it covers up to until, and holds a change an
		// hour later: before now, so only the list's until bounds it.
		clPath := "/dataset1/changelist-1.xml"
		cl := sourceDoc(t, srv, clPath)
		contains(t, cl, `until="`+resourcesync.FormatDatetime(until)+`"`)
		src.SetRaw(clPath, "application/xml", withChange(t, cl, rs[2].URI, resourcesync.FormatDatetime(start.Add(time.Hour))))
		r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		contains(t, r.stdout+r.stderr, rs[2].URI, "after its list's until", "3 applied")
		if c := checkedCursor(t, src, dest); c.After(until) {
			t.Fatalf("cursor %s past the closed list's until %s", c, until)
		}
		src.ClearRaw(clPath)
		// A real change between the list's until and the misdated entry.
		if err := src.Apply(start.Add(10*time.Minute), fixtures.Mutation{Kind: fixtures.Update, Path: rs[3].Path, Size: 555}); err != nil {
			t.Fatal(err)
		}
		r = runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		contains(t, r.stdout, "1 applied")
		checkedCursor(t, src, dest)
		incAssertIsSource(t, src, dest)
	})
}

// Issue 22, item 5b: a hole in the middle of the history is a gap. The
// Change List Index loses the list of the changes between two others: the
// run stops with exit 7 before changing anything, naming both lists and
// the lost interval. The same lists named out of order in the index are
// the whole history, sorted and applied (exit 0); and once the Source's
// index is whole again, the stopped mirror catches up.
func TestGuaranteeHoleInTheHistoryIsAGap(t *testing.T) {
	t.Parallel()
	start := time.Now().UTC().Add(-24 * time.Hour).Truncate(time.Second)
	src, srv := served(t, func(s *fixtures.Spec) { s.Start, s.ChangeListMax = start, 2 })
	holed, shuffled := t.TempDir(), t.TempDir()
	runCLI(t, args([]string{"sync", "--dest", holed}, srv.URL)...).want(t, 0)
	runCLI(t, args([]string{"sync", "--dest", shuffled}, srv.URL)...).want(t, 0)
	rs := src.Resources(0)
	// Closed lists of two changes each: changelist-1 up to start+1h,
	// changelist-2 from there to start+3h, changelist-3 to start+5h; then
	// changelist-4, open and empty.
	for i, h := range []int{1, 3, 5} {
		at := start.Add(time.Duration(h) * time.Hour)
		if err := src.Apply(at, fixtures.Mutation{Kind: fixtures.Update, Path: rs[2*i].Path, Size: 200},
			fixtures.Mutation{Kind: fixtures.Update, Path: rs[2*i+1].Path, Size: 200}); err != nil {
			t.Fatal(err)
		}
	}
	const ixPath = "/dataset1/changelist.xml"
	ix := sourceDoc(t, srv, ixPath)
	var head, tail string
	var parts []string // <sitemap> elements
	head, rest, _ := strings.Cut(ix, "<sitemap>")
	for _, p := range strings.Split("<sitemap>"+rest, "<sitemap>")[1:] {
		p, after, _ := strings.Cut(p, "</sitemap>")
		parts, tail = append(parts, "<sitemap>"+p+"</sitemap>"), after
	}
	if len(parts) != 4 || !strings.Contains(parts[1], "changelist-2.xml") {
		t.Fatalf("the fixture's index is not four lists:\n%s", ix)
	}

	src.SetRaw(ixPath, "application/xml", []byte(head+parts[0]+parts[2]+parts[3]+tail))
	before := filesOnly(fixtures.TreeSnapshot(t, holed, true))
	cursor := checkedCursor(t, src, holed)
	r := runCLI(t, args([]string{"sync", "--dest", holed}, srv.URL)...).want(t, exitSafetyStop)
	contains(t, r.stdout+r.stderr, "changelist-1.xml", "changelist-3.xml",
		resourcesync.FormatDatetime(start.Add(time.Hour)), resourcesync.FormatDatetime(start.Add(3*time.Hour)),
		"in no list", "nothing was changed")
	sameSnapshot(t, "a run that found a hole", before, filesOnly(fixtures.TreeSnapshot(t, holed, true)))
	if c := checkedCursor(t, src, holed); !c.Equal(cursor) {
		t.Errorf("a run that found a hole moved the cursor from %s to %s", cursor, c)
	}

	src.SetRaw(ixPath, "application/xml", []byte(head+parts[3]+parts[2]+parts[0]+parts[1]+tail))
	r = runCLI(t, args([]string{"sync", "--dest", shuffled}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "6 applied")
	checkedCursor(t, src, shuffled)
	incAssertIsSource(t, src, shuffled)

	src.ClearRaw(ixPath)
	runCLI(t, args([]string{"sync", "--dest", holed}, srv.URL)...).want(t, 0)
	checkedCursor(t, src, holed)
	incAssertIsSource(t, src, holed)
}

// Issue 16, "a failure that never clears": a resource the baseline could
// not fetch (it was deleted after the Resource List was written) is never
// held; the Change List's deletion of it settles its failure record too,
// so the sync that applies it exits 0, as does the next, and status shows
// no failure waiting to be retried - with --delete and without.
func TestGuaranteeAChangeSettlesItsFailure(t *testing.T) {
	t.Parallel()
	for _, del := range []bool{false, true} {
		name := "without --delete"
		if del {
			name = "with --delete"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, srv := served(t, nil)
			dest := t.TempDir()
			gone := src.Resources(0)[3]
			src.SetNotFound(gone.Path)
			r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, exitPartial)
			contains(t, r.stdout, gone.URI)
			if v := readState(t, dest, src.CapabilityListURL(0)); len(v.fail) != 1 || v.fail[0].URI != gone.URI {
				t.Fatalf("failures after the baseline: %+v", v.fail)
			}
			src.ClearRaw(gone.Path)
			if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Delete, Path: gone.Path}); err != nil {
				t.Fatal(err)
			}
			flags := []string{"sync", "--dest", dest}
			if del {
				flags = append(flags, "--delete")
			}
			for run := 1; run <= 2; run++ {
				runCLI(t, args(flags, srv.URL)...).want(t, 0)
				checkedCursor(t, src, dest)
				if v := readState(t, dest, src.CapabilityListURL(0)); len(v.fail) != 0 {
					t.Fatalf("run %d: failures left after the deletion was applied: %+v", run, v.fail)
				}
			}
			r = runCLI(t, "status", "--dest", dest)
			if strings.Contains(r.stdout, "waiting to be retried") {
				t.Errorf("status still shows failures:\n%s", r.stdout)
			}
			incAssertIsSource(t, src, dest)
		})
	}
}

// Issue 16, "a baseline from an older Resource List": the Source's
// Resource List predates a change (its length and hash are the old
// version's). A first sync is the baseline and then the changes since the
// list's at, in one run: the mismatch the change explains is not a
// failure, the run ends in step and exits 0, and the next run too.
func TestGuaranteeFirstSyncAppliesTheChangesSinceItsList(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	const rlPath = "/dataset1/resourcelist.xml"
	old := sourceDoc(t, srv, rlPath)
	changed := src.Resources(0)[5]
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: changed.Path, Size: 1866}); err != nil {
		t.Fatal(err)
	}
	src.SetRaw(rlPath, "application/xml", []byte(old))
	r := runCLI(t, args([]string{"sync", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
	s := incJSON(t, r)
	if len(s.Sets) != 1 || s.Sets[0].Baseline == nil || s.Sets[0].Incremental == nil || s.Sets[0].Incremental.Applied != 1 {
		t.Fatalf("a first sync is the baseline and the changes since its list:\n%s", r.stdout)
	}
	if v := readState(t, dest, src.CapabilityListURL(0)); len(v.fail) != 0 {
		t.Errorf("failures left: %+v", v.fail)
	}
	checkedCursor(t, src, dest)
	incAssertIsSource(t, src, dest)
	src.ClearRaw(rlPath)
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	checkedCursor(t, src, dest)
}
