package main

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Items 9 and 10: a hostile Source names resources whose URIs try to
// climb out of the mirror, collide, or point at other hosts and schemes.

// hostileListAt is hostileList's at: in the past, so that no run warns of
// a list dated in the future.
const hostileListAt = "2025-01-01T00:00:00Z"

// hostileList is a Resource List (at the fixture's list URL) naming locs.
func hostileList(locs []string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="` + hostileListAt + `"/>
`)
	for _, l := range locs {
		b.WriteString("<url><loc>")
		xml.EscapeText(&b, []byte(l))
		b.WriteString("</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// Item 9: URI -> path attacks, and symlinks planted in the mirror. Nothing
// is written outside the mirror (canary files outside keep their bytes and
// mtimes, no file appears there); every URI the mapping accepts is stored
// at its mapped path inside; a file-versus-directory conflict and a write
// through a planted directory symlink fail alone, reported (exit 3).
func TestGuaranteeHostilePathsStayInside(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
	base := t.TempDir()
	dest, outside := filepath.Join(base, "mirror"), filepath.Join(base, "outside")
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	for _, f := range []string{"canary.txt", "victim.txt", "dotdot.txt", "pct.txt"} {
		if err := os.MkdirAll(outside, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(outside, f), []byte("outside "+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	host := strings.TrimSuffix(src.URL(), "/")
	res := filepath.Join(dest, filepath.FromSlash(strings.TrimSuffix(relPath(t, host+"/dataset1/res/x"), "/x")))
	// A directory symlink and a file symlink, planted where the list will
	// put resources, both pointing outside.
	if err := os.Symlink(outside, filepath.Join(res, "evil")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "victim.txt"), filepath.Join(res, "victim.txt")); err != nil {
		t.Fatal(err)
	}

	// Locs as the list gives them. The Destination resolves each against
	// the list's URL (removing plain dot segments, as RFC 3986 says);
	// the fixture serves every resolved path.
	up := strings.Repeat("../", 4) // from dest/<host>/dataset1/res to base
	locs := []string{
		host + "/dataset1/res/" + up + "outside/dotdot.txt",
		host + "/dataset1/res/" + strings.Repeat("%2e%2e/", 4) + "outside/pct.txt",
		host + "/dataset1/res/%2e%2e%2f%2e%2e%2fslash.txt",
		host + "/dataset1/res/a%2Fb.txt",
		host + "/dataset1/res/a/b.txt",
		host + "/dataset1/res/..%5c..%5cwin.txt",
		host + "/dataset1/res/nul%00byte.txt",
		host + "/dataset1/res/" + strings.Repeat("n", 300) + ".txt",
		host + "/dataset1/res/" + strings.Repeat("d/", 60) + strings.Repeat("m", 250),
		host + "/dataset1/res/Twin.txt",
		host + "/dataset1/res/twin.txt",
		host + "/dataset1/res/caf%C3%A9.txt",  // NFC
		host + "/dataset1/res/cafe%CC%81.txt", // NFD
		host + "/dataset1/res/fd",
		host + "/dataset1/res/fd/child.txt",
		host + "/dataset1/res/evil/canary.txt",
		host + "/dataset1/res/victim.txt",
		host + "/.resync-dest/state.db",
		host + "/dataset1/res/%25tmp-0123456789abcdef",
	}
	listURL := src.ResourceListURL(0)
	body := func(uri string) string {
		u, err := url.Parse(uri)
		if err != nil {
			t.Fatal(err)
		}
		return "hostile " + u.Path
	}
	for _, l := range locs {
		eff := resourcesync.Resolve(listURL, l)
		u, _ := url.Parse(eff)
		src.SetRaw(u.Path, "text/plain", []byte(body(eff)))
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(locs))

	outsideBefore := fixtures.TreeSnapshot(t, outside, false)
	r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitPartial)

	sameSnapshot(t, "the files outside the mirror", outsideBefore, fixtures.TreeSnapshot(t, outside, false))
	if ents, _ := os.ReadDir(base); len(ents) != 2 {
		t.Errorf("%d entries beside the mirror, want mirror and outside only", len(ents))
	}
	// The planted links: the directory link is refused, the file link is
	// replaced by the resource (never written through).
	contains(t, r.stdout, host+"/dataset1/res/evil/canary.txt")
	if fi, err := os.Lstat(filepath.Join(res, "victim.txt")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the planted file symlink is not replaced by a regular file (%v)", err)
	}
	// The file-versus-directory pair: one of the two fails, reported.
	if !strings.Contains(r.stdout, "path conflict") {
		t.Errorf("the file/directory conflict is not reported:\n%s", r.stdout)
	}
	// Every other URI is stored inside, at its mapped path, with its own
	// bytes: twins do not overwrite each other.
	mp, _ := mirror.NewMapper(nil)
	stored := 0
	for _, l := range locs {
		eff := resourcesync.Resolve(listURL, l)
		rel, err := mp.Path(eff)
		if err != nil {
			if !strings.Contains(r.stdout, eff) {
				t.Errorf("%s cannot be mapped (%v) but its failure is not reported", eff, err)
			}
			continue
		}
		got, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(rel)))
		switch {
		case err == nil && string(got) == body(eff):
			stored++
		case strings.Contains(r.stdout, eff):
			// failed and reported (the conflict, the planted link)
		default:
			t.Errorf("%s: neither stored at %s (%v, %q) nor reported", eff, rel, err, got)
		}
	}
	if stored < len(locs)-3 {
		t.Errorf("only %d of %d hostile URIs were stored inside the mirror", stored, len(locs))
	}
	v := readState(t, dest, src.CapabilityListURL(0))
	assertHeldOnDisk(t, dest, v.held)
	assertNoTempFiles(t, dest)
}

// Item 10: resources on another host, on file: and other schemes, are
// skipped and reported; the canary on 127.0.0.2 sees no request. With
// --allow-host the other host is fetched, and stored under its own
// directory; file: stays refused.
func TestGuaranteeOutOfAuthorityResources(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
	canary := fixtures.NewCanary(t)
	canaryHost := strings.TrimPrefix(canary.URL, "http://")
	own := src.Resources(0)[0].URI
	foreign := []string{
		canary.URL + "/stolen.txt",
		"http://" + strings.TrimPrefix(strings.TrimSuffix(src.URL(), "/"), "http://") + "@" + canaryHost + "/userinfo.txt",
		"file:///etc/passwd",
		"ftp://127.0.0.1/x.txt",
		"gopher://127.0.0.1:70/x",
		"//" + canaryHost + "/schemeless.txt",
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(append([]string{own}, foreign...)))

	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if n := canary.Requests(); n != 0 {
		t.Errorf("the canary got %d requests", n)
	}
	contains(t, r.stdout, "1 created", fmt.Sprintf("%d skipped", len(foreign)))
	contains(t, r.stderr, "file:///etc/passwd", "--allow-host 127.0.0.2")
	for rel := range fixtures.MirrorFiles(t, dest) {
		if rel != relPath(t, own) {
			t.Errorf("an out-of-scope resource was stored: %s", rel)
		}
	}

	// Allowed, the host's resources are fetched; a URI with credentials
	// in it (user:password@) is still refused, as a failure.
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--allow-host", "127.0.0.2"}, srv.URL)...).want(t, exitPartial)
	contains(t, r.stdout, "userinfo (user:password@) is not allowed")
	if canary.Requests() == 0 {
		t.Errorf("--allow-host did not let the canary's host in")
	}
	if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(relPath(t, canary.URL+"/stolen.txt")))); err != nil {
		t.Errorf("the allowed host's resource was not stored under its own directory: %v", err)
	}
	contains(t, r.stderr, "file:///etc/passwd")
	if _, err := os.Stat("/etc/passwd"); err == nil {
		for rel := range fixtures.MirrorFiles(t, dest) {
			if strings.Contains(rel, "passwd") {
				t.Errorf("a file: resource was stored: %s", rel)
			}
		}
	}
}
