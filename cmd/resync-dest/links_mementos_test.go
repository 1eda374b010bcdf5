package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// mementoSource is a Source whose change entries name the memento of the
// version they announce (rel="memento", §14.6, as example 29 of the
// standard: with the version's hash and length, except for the paths in
// bare), with a TimeGate and a TimeMap beside it, which are ignored.
type mementoSource struct {
	src  *fixtures.Source
	srv  *fixtures.Server
	mu   sync.Mutex
	bare map[string]bool
}

func newMementoSource(t *testing.T, n int) *mementoSource {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = n })
	m := &mementoSource{src: src, srv: srv, bare: map[string]bool{}}
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		if s.Change == "" || s.Change == resourcesync.ChangeDeleted {
			return nil
		}
		l := resourcesync.Link{Rel: resourcesync.RelMemento, Href: src.URI(fixtures.MementoPath(s.Path, s.Version))}
		m.mu.Lock()
		if !m.bare[s.Path] {
			l.Hash, l.Length, l.HasLength = s.Fixity, s.Length, true
		}
		m.mu.Unlock()
		return []resourcesync.Link{l,
			{Rel: resourcesync.RelTimeGate, Href: src.URI("/timegate" + s.Path)},
			{Rel: resourcesync.RelTimeMap, Href: src.URI("/timemap" + s.Path), Type: "application/link-format"}}
	})
	return m
}

// keptPath is where the version of uri at lastmod is kept under root: the
// mirror path followed by @ and the lastmod.
func keptPath(t *testing.T, root, uri string, lastmod time.Time) string {
	t.Helper()
	return filepath.Join(root, filepath.FromSlash(relPath(t, uri))) + "@" + lastmod.UTC().Format(mirror.VersionTimeFormat)
}

// kept returns the bytes of the version of uri kept at lastmod under
// root, or false.
func kept(t *testing.T, root, uri string, lastmod time.Time) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(keptPath(t, root, uri, lastmod))
	return string(b), err == nil
}

// countKept counts the versions kept under root, and fails on a temp
// file left behind.
func countKept(t *testing.T, root string) int {
	t.Helper()
	var n int
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
			if strings.HasPrefix(d.Name(), ".keep-") {
				t.Errorf("temp file left: %s", p)
			}
		}
		return nil
	})
	return n
}

// §14.6 with --keep-versions: every version a change announces with a
// memento link is fetched from the memento - once - verified (by the
// link's hash and length, else the change's) and kept under its lastmod,
// beside the versions replaced; a version catching up skipped is kept
// too, and one announced then deleted; a memento serving wrong bytes is
// named in a warning, its version is not kept, and the resource is
// brought in step all the same. TimeGates and TimeMaps get no request.
func TestLinksMementosKeepVersions(t *testing.T) {
	t.Parallel()
	m := newMementoSource(t, 4)
	src, srv := m.src, m.srv
	res := src.Resources(0)
	m.mu.Lock()
	m.bare[res[3].Path] = true // verified by the change's rs:md
	m.mu.Unlock()
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)

	// res[0] is updated twice (version 2 is skipped by a run catching up),
	// res[1] updated then deleted, res[2] updated with a corrupt memento,
	// res[3] updated with a memento link that has no hash.
	type announced struct {
		uri     string
		body    string
		lastmod time.Time
	}
	var want []announced
	at := src.At()
	update := func(r fixtures.ResourceInfo) {
		at = at.Add(time.Second)
		if err := src.Apply(at, fixtures.Mutation{Kind: fixtures.Update, Path: r.Path}); err != nil {
			t.Fatal(err)
		}
		b, _ := src.Content(r.URI)
		info, _ := src.Resource(r.Path)
		want = append(want, announced{r.URI, string(b), info.LastMod})
	}
	var replaced []announced // the versions the baseline holds
	for _, r := range res {
		b, _ := src.Content(r.URI)
		replaced = append(replaced, announced{r.URI, string(b), r.LastMod})
	}
	update(res[0])
	update(res[0])
	update(res[1])
	update(res[2])
	update(res[3])
	if err := src.Apply(at.Add(time.Second), fixtures.Mutation{Kind: fixtures.Delete, Path: res[1].Path}); err != nil {
		t.Fatal(err)
	}
	src.CorruptMemento(res[2].Path, 2)
	src.ResetCounts()

	r := runCLI(t, args([]string{"incremental", "--dest", dest, "--keep-versions", "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	contains(t, r.stderr, "memento failed", src.URI(fixtures.MementoPath(res[2].Path, 2)))
	incAssertIsSource(t, src, dest)
	root := filepath.Join(dest, ".resync-dest", "versions")
	for _, v := range want {
		got, ok := kept(t, root, v.uri, v.lastmod)
		bad := v.uri == res[2].URI
		switch {
		case bad && ok:
			t.Errorf("the version of %s its corrupt memento serves was kept", v.uri)
		case !bad && got != v.body:
			t.Errorf("the version of %s at %s announced with a memento: kept %v, its bytes %v", v.uri, v.lastmod, ok, got == v.body)
		}
	}
	for _, v := range replaced {
		if got, ok := kept(t, root, v.uri, v.lastmod); got != v.body {
			t.Errorf("the version of %s replaced or deleted: kept %v, its bytes %v", v.uri, ok, got == v.body)
		}
	}
	if n := countKept(t, root); n != len(want)-1+len(replaced) {
		t.Errorf("%d versions kept, want %d", n, len(want)-1+len(replaced))
	}
	for i, n := range []int{1, 2} {
		if got := src.Requests(fixtures.MementoPath(res[0].Path, n+1)); got != 1 {
			t.Errorf("memento %d of %s: %d requests, want 1", i+2, res[0].Path, got)
		}
	}
	for _, x := range res {
		if src.Requests("/timegate"+x.Path)+src.Requests("/timemap"+x.Path) != 0 {
			t.Errorf("a TimeGate or TimeMap of %s was asked for", x.Path)
		}
	}

	// A second run fetches no memento again; without --keep-versions no
	// memento is fetched at all.
	src.ResetCounts()
	runCLI(t, args([]string{"incremental", "--dest", dest, "--keep-versions"}, srv.URL)...).want(t, 0)
	plain := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", plain}, srv.URL)...).want(t, 0)
	for _, x := range res {
		for n := 1; n <= 3; n++ {
			if got := src.Requests(fixtures.MementoPath(x.Path, n)); got != 0 {
				t.Errorf("memento %d of %s asked for %d times", n, x.Path, got)
			}
		}
	}
}

// §14.6: when <loc> already serves a later version than the one the
// change announces (a run catching up), the change's memento serves the
// version announced: verified, it is what the mirror holds; a memento
// serving wrong bytes fails the resource, naming <loc>'s and its causes.
func TestLinksMementoIsAnOrigin(t *testing.T) {
	t.Parallel()
	m := newMementoSource(t, 3)
	src, srv := m.src, m.srv
	res := src.Resources(0)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: res[0].Path},
		fixtures.Mutation{Kind: fixtures.Update, Path: res[1].Path}); err != nil {
		t.Fatal(err)
	}
	announced := map[string][]byte{}
	for _, x := range res[:2] {
		announced[x.Path], _ = src.Content(x.URI)
		// <loc> has changed again: a version no change announces yet.
		src.SetRaw(x.Path, "text/plain", []byte("a later version of "+x.Path))
	}
	src.CorruptMemento(res[1].Path, 2)
	src.ResetCounts()

	r := runCLI(t, args([]string{"incremental", "--dest", dest}, srv.URL)...).want(t, exitPartial)
	if got := onDisk(t, dest, res[0].URI); got != string(announced[res[0].Path]) {
		t.Errorf("%s holds %d bytes, not the version its change announced", res[0].Path, len(got))
	}
	if n := src.Requests(fixtures.MementoPath(res[0].Path, 2)); n != 1 {
		t.Errorf("memento of %s: %d requests, want 1", res[0].Path, n)
	}
	contains(t, r.stdout+r.stderr, src.URI(fixtures.MementoPath(res[1].Path, 2)))
	if got := onDisk(t, dest, res[1].URI); got == string(announced[res[1].Path]) || strings.HasPrefix(got, "a later") {
		t.Errorf("%s holds bytes no verified origin served", res[1].Path)
	}
}
