package main

import (
	"crypto/md5"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Issue 22, items 5, 6 and 8: two URIs that map to one file are one file,
// and one URI listed many times is one resource.

// twinServed serves the fixture Source behind a front that tells the two
// spellings of a path apart - the fixture, like most servers, decodes
// %7E to ~ - so that /r/%7Ex.txt can answer other bytes than /r/~x.txt,
// as a hostile Source does. It returns the Source and its root URL.
func twinServed(t *testing.T, twins map[string]string) (*fixtures.Source, string) {
	t.Helper()
	src, err := fixtures.New(func() fixtures.Spec {
		s := fixtures.DefaultSpec()
		s.Resources, s.NoChangeListIndex = 5, true
		return s
	}())
	if err != nil {
		t.Fatal(err)
	}
	h := src.Handler()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, ok := twins[r.RequestURI]; ok {
			_, _ = w.Write([]byte(body))
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	if err := src.SetBaseURL(front.URL); err != nil {
		t.Fatal(err)
	}
	return src, src.URL()
}

// checkState is the check after every run: the state passes PRAGMA
// integrity_check, every record's file is on disk with its recorded hash,
// and no two records of the set name one file.
func checkState(t *testing.T, dest, capList string) stateView {
	t.Helper()
	v := readState(t, dest, capList)
	assertHeldOnDisk(t, dest, v.held)
	byPath := map[string]string{}
	for _, h := range v.held {
		if other, ok := byPath[h.Path]; ok {
			t.Errorf("two records for the file %s: %s and %s", h.Path, other, h.URI)
		}
		byPath[h.Path] = h.URI
	}
	return v
}

// Item 5: a baseline listing /r/~x.txt and /r/%7Ex.txt with different
// bytes keeps the file of the one listed first and fails the other by name
// (exit 3), within one commit window and in every run after; the state
// records one of them. A Source that names the file only by the other
// spelling has moved it: that URI takes the file over (its bytes fetched,
// the old record dropped), and the list's order decides again when both
// come back.
func TestGuaranteeTwinURIsAreOneFile(t *testing.T) {
	t.Parallel()
	src, root := twinServed(t, map[string]string{"/dataset1/r/%7Ex.txt": "the twin's bytes"})
	tilde, pct := root+"dataset1/r/~x.txt", root+"dataset1/r/%7Ex.txt"
	src.SetRaw("/dataset1/r/~x.txt", "text/plain", []byte("the first bytes"))
	rs := src.Resources(0)
	list := func(locs ...string) {
		for _, r := range rs {
			locs = append(locs, r.URI)
		}
		src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(locs))
	}
	if got := resourcesync.Resolve(src.ResourceListURL(0), pct); got != pct {
		t.Fatalf("the loc %s was read as %s: the twins are one URI", pct, got)
	}
	dest := t.TempDir()
	capList := src.CapabilityListURL(0)
	file := filepath.Join(dest, filepath.FromSlash(relPath(t, tilde)))

	for i, tc := range []struct {
		locs       []string
		kept, fail string // fail "": exit 0
		bytes      string
	}{
		{[]string{tilde, pct}, tilde, pct, "the first bytes"}, // both in one commit window
		{[]string{tilde, pct}, tilde, pct, "the first bytes"}, // the held one listed first again
		{[]string{pct}, pct, "", "the twin's bytes"},          // moved to the other spelling
		{[]string{tilde, pct}, tilde, pct, "the first bytes"}, // both again: the first listed
	} {
		list(tc.locs...)
		code := exitPartial
		if tc.fail == "" {
			code = 0
		}
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, root)...).want(t, code)
		v := checkState(t, dest, capList)
		held := heldURIs(v.held)
		if !held[tc.kept] || len(v.held) != len(rs)+1 {
			t.Errorf("run %d: %d records %v, want %s and the %d others", i+1, len(v.held), held, tc.kept, len(rs))
		}
		if b, err := os.ReadFile(file); err != nil || string(b) != tc.bytes {
			t.Errorf("run %d: %s holds %q (%v), want %q", i+1, file, b, err, tc.bytes)
		}
		if tc.fail == "" {
			continue
		}
		contains(t, r.stdout+r.stderr, tc.fail)
		failed := false
		for _, f := range v.fail {
			failed = failed || f.URI == tc.fail && strings.Contains(f.Cause, tc.kept)
		}
		if !failed {
			t.Errorf("run %d: no failure of %s naming %s recorded: %+v", i+1, tc.fail, tc.kept, v.fail)
		}
	}
}

// Item 5c, for a resource: a file the Source now names by another
// spelling of its URI (as when it moves from http to https) is the same
// file - taken over by the new URI without a download when its listed hash
// is the one held, the old record dropped.
func TestGuaranteeMovedURIKeepsItsFile(t *testing.T) {
	t.Parallel()
	src, root := twinServed(t, nil)
	tilde, pct := root+"dataset1/r/~m.txt", root+"dataset1/r/%7Em.txt"
	body := []byte("moved, not changed")
	src.SetRaw("/dataset1/r/~m.txt", "text/plain", body)
	sum := md5.Sum(body)
	entry := func(loc string) listEntry {
		return listEntry{loc: loc, hash: "md5:" + hex.EncodeToString(sum[:]), length: int64(len(body))}
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", handList([]listEntry{entry(tilde)}))
	dest := t.TempDir()
	capList := src.CapabilityListURL(0)
	runCLI(t, args([]string{"baseline", "--dest", dest}, root)...).want(t, 0)
	checkState(t, dest, capList)

	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", handList([]listEntry{entry(pct)}))
	before := src.Requests("/dataset1/r/~m.txt")
	runCLI(t, args([]string{"baseline", "--dest", dest}, root)...).want(t, 0)
	if n := src.Requests("/dataset1/r/~m.txt") - before; n != 0 {
		t.Errorf("the moved file was downloaded again (%d requests)", n)
	}
	v := checkState(t, dest, capList)
	if held := heldURIs(v.held); len(held) != 1 || !held[pct] {
		t.Errorf("records %v, want only %s", held, pct)
	}
}

// Item 6: a set holds /r/~y.txt; its Change List says the resource was
// deleted under the twin spelling /r/%7Ey.txt. With --delete the file goes
// and so does every record of it: the state claims nothing the disk lacks,
// and audit --fast finds the mirror as the Source lists it.
func TestGuaranteeTwinDeletionForgetsTheFile(t *testing.T) {
	t.Parallel()
	src, root := twinServed(t, nil)
	tilde, pct := root+"dataset1/r/~y.txt", root+"dataset1/r/%7Ey.txt"
	src.SetRaw("/dataset1/r/~y.txt", "text/plain", []byte("y"))
	rs := src.Resources(0)
	locs := []string{tilde}
	for _, r := range rs {
		locs = append(locs, r.URI)
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml",
		[]byte(strings.Replace(string(hostileList(locs)), hostileListAt, "2020-01-01T00:00:00Z", 1)))
	dest := t.TempDir()
	capList := src.CapabilityListURL(0)
	runCLI(t, args([]string{"baseline", "--dest", dest}, root)...).want(t, 0)
	if !heldURIs(checkState(t, dest, capList).held)[tilde] {
		t.Fatalf("the baseline does not hold %s", tilde)
	}

	src.SetRaw("/dataset1/resourcelist.xml", "application/xml",
		[]byte(strings.Replace(string(hostileList(locs[1:])), hostileListAt, "2020-01-03T00:00:00Z", 1)))
	src.SetRaw(strings.TrimPrefix(src.ChangeListURL(0), strings.TrimSuffix(root, "/")), "application/xml", []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changelist" from="2020-01-01T00:00:00Z" until="2020-01-03T00:00:00Z"/>
<url><loc>`+pct+`</loc><rs:md change="deleted" datetime="2020-01-02T00:00:00Z"/></url>
</urlset>
`))
	runCLI(t, args([]string{"incremental", "--dest", dest, "--delete"}, root)...).want(t, 0)
	v := checkState(t, dest, capList)
	if heldURIs(v.held)[tilde] {
		t.Errorf("the state still holds %s after its file was deleted as %s", tilde, pct)
	}
	if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(relPath(t, tilde)))); !os.IsNotExist(err) {
		t.Errorf("the file of %s is still there (%v)", tilde, err)
	}
	runCLI(t, "audit", "--dest", dest, "--fast", root).want(t, 0)
}

// Item 8: one loc listed 300 times in one list is fetched once per run
// and recorded once.
func TestGuaranteeRepeatedLocFetchedOnce(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
	rs := src.Resources(0)
	var entries []listEntry
	for range 300 {
		entries = append(entries, listEntry{loc: rs[0].URI, length: -1})
	}
	for _, r := range rs {
		entries = append(entries, listEntry{loc: r.URI, length: -1})
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", handList(entries))
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if n := src.Requests(rs[0].Path); n != 1 {
		t.Errorf("%s was asked for %d times in one run, want once", rs[0].URI, n)
	}
	v := checkState(t, dest, src.CapabilityListURL(0))
	if len(v.held) != len(rs) {
		t.Errorf("%d records, want %d", len(v.held), len(rs))
	}
}

// Item 5e: a change deleting a URI resync-dest never held removes the
// file at its mapped path only inside the set's tree, as baseline
// --delete does (transfer.MayRemove, one rule for both): a user's file
// elsewhere in the mirror survives, with the default --max-delete; a
// stray file among the set's own is removed.
func TestGuaranteeChangeDeletesOnlyInsideTheSetsTree(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.NoChangeListIndex = true })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	capList := src.CapabilityListURL(0)
	checkState(t, dest, capList)

	rs := src.Resources(0)
	inside := src.URI(strings.TrimSuffix(rs[0].Path, "/"+filepath.Base(rs[0].Path)) + "/stray.txt")
	outside := src.URI("/dataset1/notes/user.txt")
	files := map[string]string{}
	for _, u := range []string{inside, outside} {
		f := filepath.Join(dest, filepath.FromSlash(relPath(t, u)))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("the user's"), 0o644); err != nil {
			t.Fatal(err)
		}
		files[u] = f
	}
	at := src.At()
	day := func(h int) string { return at.Add(time.Duration(h) * time.Hour).UTC().Format(time.RFC3339) }
	src.SetRaw(strings.TrimPrefix(src.ChangeListURL(0), strings.TrimSuffix(src.URL(), "/")), "application/xml", []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changelist" from="`+day(0)+`" until="`+day(3)+`"/>
<url><loc>`+outside+`</loc><rs:md change="deleted" datetime="`+day(1)+`"/></url>
<url><loc>`+inside+`</loc><rs:md change="deleted" datetime="`+day(2)+`"/></url>
</urlset>
`))
	runCLI(t, args([]string{"incremental", "--dest", dest, "--delete"}, srv.URL)...).want(t, 0)
	if b, err := os.ReadFile(files[outside]); err != nil || string(b) != "the user's" {
		t.Errorf("the user's file outside the set's tree was touched: %q, %v", b, err)
	}
	if _, err := os.Stat(files[inside]); !os.IsNotExist(err) {
		t.Errorf("the stray file inside the set's tree is still there (%v)", err)
	}
	if v := checkState(t, dest, capList); len(v.held) != len(rs) {
		t.Errorf("%d records, want %d", len(v.held), len(rs))
	}
}
