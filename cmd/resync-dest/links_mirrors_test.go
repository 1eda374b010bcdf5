package main

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// mirrorLinks makes every resource entry of src name each of mirrors (in
// the order given, pri 1, 2, ...) and a gsiftp: copy with the best pri,
// which must be skipped.
func mirrorLinks(src *fixtures.Source, mirrors ...*fixtures.MirrorServer) {
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		links := []resourcesync.Link{{Rel: resourcesync.RelDuplicate, Href: "gsiftp://grid.invalid" + s.Path, Pri: 1}}
		for i, m := range mirrors {
			links = append(links, resourcesync.Link{Rel: resourcesync.RelDuplicate, Href: m.Href(s.Path), Pri: i + 1})
		}
		return links
	})
}

// countsOf reads the run's counts from a --json envelope.
func countsOf(t *testing.T, stdout string) resourcesync.Counts {
	t.Helper()
	var v struct {
		Counts resourcesync.Counts `json:"counts"`
	}
	if err := resultOf(stdout, &v); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	return v.Counts
}

func sourceBytes(src *fixtures.Source) int64 {
	var n int64
	for _, r := range src.Resources(0) {
		n += r.Size
	}
	return n
}

// §14.2: with a good mirror allowed, the mirror serves every resource and
// <loc> is never fetched; the --header credentials given for the Source
// never reach the mirror; the summary counts the mirror's bytes.
func TestLinksMirrorServesEverything(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 6 })
	good := fixtures.NewMirrorServer(t, src, "127.0.0.3", false)
	mirrorLinks(src, good)
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--json", "--allow-host", "127.0.0.3",
		"--header", "Authorization: Bearer s3cret"}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("<loc> was fetched %d times, want 0 with a good mirror", n)
	}
	if n := good.Requests(); n != 6 {
		t.Errorf("the mirror got %d requests, want 6", n)
	}
	if n := good.WithCredentials(); n != 0 {
		t.Errorf("%d requests to the mirror carried the Source's Authorization header", n)
	}
	c := countsOf(t, r.stdout)
	if c.Created != 6 || c.MirrorBytes != sourceBytes(src) || c.MirrorBytes != c.Bytes || c.MirrorFailures != 0 {
		t.Errorf("counts %+v, want 6 created, all %d bytes from mirrors", c, sourceBytes(src))
	}
	// The mirror's validators are not the Source's: a second run trusts
	// the state and asks nobody for the resources.
	runCLI(t, args([]string{"baseline", "--dest", dest, "--allow-host", "127.0.0.3"}, srv.URL)...).want(t, 0)
	if src.ResourceBodies() != 0 || good.Requests() != 6 {
		t.Errorf("a second run fetched again: %d from <loc>, %d mirror requests", src.ResourceBodies(), good.Requests())
	}
}

// A mirror serving wrong bytes is tried first (pri 1), named in a warning
// with the cause, and the next mirror serves; with only the bad mirror,
// <loc> does. Nothing wrong reaches the mirror tree.
func TestLinksBadMirrorFallsBack(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 4 })
	bad := fixtures.NewMirrorServer(t, src, "127.0.0.4", true)
	good := fixtures.NewMirrorServer(t, src, "127.0.0.3", false)
	mirrorLinks(src, bad, good)
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--json", "--allow-host", "127.0.0.3",
		"--allow-host", "127.0.0.4"}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)
	assertNoTempFiles(t, dest)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("<loc> was fetched %d times, want 0 while a good mirror remains", n)
	}
	if bad.Requests() != 4 || good.Requests() != 4 {
		t.Errorf("bad mirror %d requests, good mirror %d; want one a resource each (a mirror is asked once)", bad.Requests(), good.Requests())
	}
	contains(t, r.stderr, "mirror failed", "mirror "+bad.URL, "does not match")
	c := countsOf(t, r.stdout)
	if c.MirrorFailures != 4 || c.MirrorBytes != sourceBytes(src) {
		t.Errorf("counts %+v, want 4 mirror failures and every byte from a mirror", c)
	}

	// Only the bad mirror: <loc> serves each resource after it.
	src2, srv2 := served(t, func(s *fixtures.Spec) { s.Resources = 4 })
	bad2 := fixtures.NewMirrorServer(t, src2, "127.0.0.4", true)
	mirrorLinks(src2, bad2)
	dest2 := t.TempDir()
	r = runCLI(t, args([]string{"baseline", "--dest", dest2, "--json", "--allow-host", "127.0.0.4"}, srv2.URL)...).want(t, 0)
	assertMirrorIsSource(t, src2, dest2)
	if n := src2.ResourceBodies(); n != 4 {
		t.Errorf("<loc> was fetched %d times, want 4 after the bad mirror", n)
	}
	if c := countsOf(t, r.stdout); c.MirrorBytes != 0 || c.MirrorFailures != 4 {
		t.Errorf("counts %+v, want no mirror bytes and 4 failures", c)
	}
}

// A mirror whose host the policy does not allow is never contacted, nor
// any with --mirrors off; a resource without a hash is fetched from <loc>
// only. The gsiftp: link is skipped in every case.
func TestLinksMirrorsNotUsed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		spec  func(*fixtures.Spec)
		flags []string
	}{
		{"host not allowed", nil, nil},
		{"--mirrors off", nil, []string{"--allow-host", "127.0.0.3", "--mirrors", "off"}},
		{"no hash", func(s *fixtures.Spec) { s.HashAlgs = []string{} }, []string{"--allow-host", "127.0.0.3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, srv := served(t, func(s *fixtures.Spec) {
				s.Resources = 3
				if tc.spec != nil {
					tc.spec(s)
				}
			})
			m := fixtures.NewMirrorServer(t, src, "127.0.0.3", false)
			mirrorLinks(src, m)
			dest := t.TempDir()
			runCLI(t, args(append([]string{"baseline", "--dest", dest}, tc.flags...), srv.URL)...).want(t, 0)
			assertMirrorIsSource(t, src, dest)
			if n := m.Requests(); n != 0 {
				t.Errorf("the mirror got %d requests, want 0", n)
			}
			if n := src.ResourceBodies(); n != 3 {
				t.Errorf("<loc> was fetched %d times, want 3", n)
			}
		})
	}
}

// --mirrors fallback: <loc> first; a resource <loc> fails to serve comes
// from its mirror. A resource that fails everywhere names <loc>'s cause
// and each mirror's.
func TestLinksMirrorsFallback(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
	good := fixtures.NewMirrorServer(t, src, "127.0.0.3", false)
	mirrorLinks(src, good)
	res := src.Resources(0)
	gone := strings.TrimPrefix(res[0].URI, strings.TrimSuffix(src.URL(), "/"))
	src.SetFault(gone, fixtures.Fault{Status: []int{500, 500, 500, 500, 500, 500, 500, 500, 500, 500}})
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--json", "--mirrors", "fallback", "--allow-host", "127.0.0.3"}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)
	if good.Requests() != 1 || good.RequestsFor(gone) != 1 {
		t.Errorf("the mirror got %d requests (%d for %s), want only the one <loc> failed", good.Requests(), good.RequestsFor(gone), gone)
	}
	if c := countsOf(t, r.stdout); c.MirrorBytes != res[0].Size {
		t.Errorf("mirror bytes %d, want %d", c.MirrorBytes, res[0].Size)
	}
}

// A Change List's mirrors serve its created and updated resources: zero
// GETs of <loc> for the changes when a good mirror exists; the backlog
// carries each change's links between reading the history and applying
// it.
func TestLinksMirrorsInChangeList(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	good := fixtures.NewMirrorServer(t, src, "127.0.0.3", false)
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		if s.Change == "" {
			return nil // the Resource List names no mirror
		}
		return []resourcesync.Link{{Rel: resourcesync.RelDuplicate, Href: good.Href(s.Path)}}
	})
	res := src.Resources(0)
	p := func(i int) string { return strings.TrimPrefix(res[i].URI, strings.TrimSuffix(src.URL(), "/")) }
	if err := src.Apply(src.At().Add(time.Second),
		fixtures.Mutation{Kind: fixtures.Update, Path: p(0)}, fixtures.Mutation{Kind: fixtures.Update, Path: p(1)},
		fixtures.Mutation{Kind: fixtures.Create, Path: "/dataset1/res/new/n1.txt"}); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()
	r := runCLI(t, args([]string{"incremental", "--dest", dest, "--json", "--allow-host", "127.0.0.3"}, srv.URL)...).want(t, 0)
	incAssertIsSource(t, src, dest)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("<loc> was fetched %d times, want 0 with a good mirror", n)
	}
	if good.Requests() != 3 || good.RequestsFor(p(0)) != 1 || good.RequestsFor("/dataset1/res/new/n1.txt") != 1 {
		t.Errorf("the mirror got %d requests, want one per change", good.Requests())
	}
	if c := countsOf(t, r.stdout); c.MirrorBytes == 0 || c.MirrorBytes != c.Bytes {
		t.Errorf("counts %+v, want every byte from the mirror", c)
	}
}

// A mirror nobody answers on is asked once per resource (no retries, no
// backoff) and <loc> serves.
func TestLinksDeadMirror(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
	l, err := net.Listen("tcp", "127.0.0.5:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close() // nothing listens there any more: connections are refused
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		return []resourcesync.Link{{Rel: resourcesync.RelDuplicate, Href: dead + s.Path, Pri: 1}}
	})
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--json", "--allow-host", "127.0.0.5", "--max-retry-wait", "10s"}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)
	if c := countsOf(t, r.stdout); c.MirrorFailures != 3 || c.MirrorBytes != 0 {
		t.Errorf("counts %+v, want 3 mirror failures", c)
	}
	if strings.Contains(r.stderr, "retrying") {
		t.Errorf("a dead mirror was retried:\n%s", r.stderr)
	}
}
