package main

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// companionSource serves, for each of its resources, a PDF and an HTML
// alternate and a metadata record (raw paths of the Source's host), and
// names them in its entries' links; version says which bytes they hold.
type companionSource struct {
	src  *fixtures.Source
	srv  *fixtures.Server
	vers map[string]int // path of a companion -> version served
}

func companionPath(resPath, kind string) string {
	base := strings.TrimSuffix(filepath.Base(resPath), filepath.Ext(resPath))
	switch kind {
	case "pdf":
		return "/dataset1/alt/" + base + ".pdf"
	case "html":
		return "/dataset1/alt/" + base + ".html"
	}
	return "/dataset1/meta/" + base + ".xml"
}

func (c *companionSource) body(p string) []byte {
	return []byte(fmt.Sprintf("%s version %d\n", p, c.vers[p]))
}

// serve (re)publishes the companion at p in version v.
func (c *companionSource) serve(p string, v int) {
	c.vers[p] = v
	c.src.SetRaw(p, "application/octet-stream", c.body(p))
}

func (c *companionSource) link(rel, p, typ string) resourcesync.Link {
	b := c.body(p)
	sum := md5.Sum(b)
	return resourcesync.Link{Rel: rel, Href: c.src.URI(p), Type: typ, Length: int64(len(b)), HasLength: true,
		Hash: resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: hex.EncodeToString(sum[:])}}}
}

func newCompanionSource(t *testing.T, mods ...func(*fixtures.Spec)) *companionSource {
	src, srv := served(t, func(s *fixtures.Spec) {
		s.Resources = 3
		for _, m := range mods {
			m(s)
		}
	})
	c := &companionSource{src: src, srv: srv, vers: map[string]int{}}
	for _, r := range src.Resources(0) {
		for _, k := range []string{"pdf", "html", "xml"} {
			c.serve(companionPath(r.Path, k), 1)
		}
	}
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		return []resourcesync.Link{
			c.link(resourcesync.RelAlternate, companionPath(s.Path, "pdf"), "application/pdf"),
			c.link(resourcesync.RelAlternate, companionPath(s.Path, "html"), "text/html"),
			c.link(resourcesync.RelDescribedBy, companionPath(s.Path, "xml"), "application/xml"),
		}
	})
	return c
}

func (c *companionSource) file(t *testing.T, dest, p string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(relPath(t, c.src.URI(p)))))
	return string(b), err == nil
}

// §14.3, §14.5: by default only <loc> is synced; --alternate TYPE fetches
// the alternate of that type and --with-metadata the describedby record,
// each verified by its link's hash and length and stored under its own
// URI; a second run fetches nothing again; an update of the resource
// updates them, its deletion (with --delete) deletes them; a companion
// whose bytes do not match its link fails alone, by name, and is not
// stored.
func TestLinksAlternatesAndMetadata(t *testing.T) {
	t.Parallel()
	c := newCompanionSource(t)
	src, srv := c.src, c.srv
	res := src.Resources(0)

	plain := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", plain}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, plain)
	for _, r := range res {
		for _, k := range []string{"pdf", "html", "xml"} {
			if n := src.Count(companionPath(r.Path, k)).Requests; n != 0 {
				t.Errorf("without the flags, %s was asked for %d times", companionPath(r.Path, k), n)
			}
		}
	}

	dest := t.TempDir()
	flags := []string{"--alternate", "application/pdf", "--with-metadata"}
	runCLI(t, args(append([]string{"baseline", "--dest", dest}, flags...), srv.URL)...).want(t, 0)
	check := func(when string) {
		t.Helper()
		for _, r := range res {
			if info, ok := src.Resource(r.Path); !ok || info.Deleted {
				continue
			}
			for _, k := range []string{"pdf", "xml", "html"} {
				p := companionPath(r.Path, k)
				got, ok := c.file(t, dest, p)
				switch {
				case k == "html" && ok:
					t.Errorf("%s: the text/html alternate %s was fetched", when, p)
				case k != "html" && got != string(c.body(p)):
					t.Errorf("%s: %s holds %q, want %q", when, p, got, c.body(p))
				}
			}
		}
	}
	check("baseline")
	src.ResetCounts()
	runCLI(t, args(append([]string{"baseline", "--dest", dest}, flags...), srv.URL)...).want(t, 0)
	n := src.ResourceBodies()
	for _, r := range res {
		for _, k := range []string{"pdf", "html", "xml"} {
			n += src.Count(companionPath(r.Path, k)).Bodies
		}
	}
	if n != 0 {
		t.Errorf("a second baseline fetched %d bodies of resources and companions", n)
	}

	// The Source updates resource 0 (and its companions) and deletes
	// resource 1.
	for _, k := range []string{"pdf", "html", "xml"} {
		c.serve(companionPath(res[0].Path, k), 2)
	}
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: res[0].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[1].Path}); err != nil {
		t.Fatal(err)
	}
	runCLI(t, args(append([]string{"incremental", "--dest", dest, "--delete", "--max-delete", "100%"}, flags...), srv.URL)...).want(t, 0)
	check("incremental")
	for _, k := range []string{"pdf", "xml"} {
		if _, ok := c.file(t, dest, companionPath(res[1].Path, k)); ok {
			t.Errorf("the %s of the deleted resource is still there", k)
		}
	}

	// audit compares them as the sync fetched them; without the flags
	// they are files the Source does not list.
	runCLI(t, args(append([]string{"audit", "--dest", dest}, flags...), srv.URL)...).want(t, 0)
	runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)

	// A companion whose bytes do not match its link fails by name.
	bad := companionPath(res[2].Path, "pdf")
	src.SetRaw(bad, "application/pdf", []byte("not the bytes the link describes"))
	dest2 := t.TempDir()
	r := runCLI(t, args(append([]string{"baseline", "--dest", dest2}, flags...), srv.URL)...).want(t, exitPartial)
	contains(t, r.stdout, src.URI(bad))
	if _, ok := c.file(t, dest2, bad); ok {
		t.Errorf("a companion with wrong bytes was stored")
	}
}

// A deletion whose entry carries no links - as most Sources write one -
// deletes the alternate and the metadata record fetched with its
// resource all the same: the state recorded their links with the copy
// held (§14.3, §14.5). The other resources keep theirs, and the mirror
// ends as an audit with the same flags expects. Through a Change List and
// a Change Dump alike.
func TestLinksBareDeletionDeletesCompanions(t *testing.T) {
	t.Parallel()
	for _, via := range []string{"list", "dump"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			c := newCompanionSource(t, func(s *fixtures.Spec) { s.ChangeDump = via == "dump" })
			src, srv := c.src, c.srv
			res := src.Resources(0)
			src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
				if s.Change == resourcesync.ChangeDeleted {
					return nil // bare, as resync-simulator writes a deletion
				}
				return []resourcesync.Link{
					c.link(resourcesync.RelAlternate, companionPath(s.Path, "pdf"), "application/pdf"),
					c.link(resourcesync.RelDescribedBy, companionPath(s.Path, "xml"), "application/xml"),
				}
			})
			dest := t.TempDir()
			flags := []string{"--alternate", "application/pdf", "--with-metadata"}
			runCLI(t, args(append([]string{"baseline", "--dest", dest}, flags...), srv.URL)...).want(t, 0)
			for _, k := range []string{"pdf", "xml"} {
				if _, ok := c.file(t, dest, companionPath(res[1].Path, k)); !ok {
					t.Fatalf("the baseline did not fetch the %s of %s", k, res[1].Path)
				}
			}
			if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Delete, Path: res[1].Path}); err != nil {
				t.Fatal(err)
			}
			runCLI(t, args(append([]string{"incremental", "--dest", dest, "--delete", "--max-delete", "100%", "--via", via}, flags...), srv.URL)...).want(t, 0)
			for _, k := range []string{"pdf", "xml"} {
				if _, ok := c.file(t, dest, companionPath(res[1].Path, k)); ok {
					t.Errorf("the %s of %s, deleted by a bare change, is still there", k, res[1].Path)
				}
				if _, ok := c.file(t, dest, companionPath(res[0].Path, k)); !ok {
					t.Errorf("the %s of %s, not deleted, is gone", k, res[0].Path)
				}
			}
			runCLI(t, args(append([]string{"audit", "--dest", dest}, flags...), srv.URL)...).want(t, 0)
		})
	}
}
