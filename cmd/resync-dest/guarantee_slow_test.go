package main

import (
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 22, item 3: a trickling or endless document or resource cannot
// hold the run (and the mirror's lock) forever. The floor on the transfer
// rate (--min-rate over --min-rate-window) and the bound on a document's
// time (--max-document-time) end it; the limits are set small here so
// that each case takes a few seconds, and the run ends by itself with the
// cause named, nothing half-written and the state true to the disk.
func TestGuaranteeTricklingTransfersEndTheRun(t *testing.T) {
	slow := []string{"--min-rate", "1K", "--min-rate-window", "300ms"}
	trickle := fixtures.Fault{Trickle: 5 * time.Second, TrickleBytes: 1}
	after := func(t *testing.T, src *fixtures.Source, dest string) {
		t.Helper()
		v := readState(t, dest, src.CapabilityListURL(0))
		assertHeldOnDisk(t, dest, v.held)
		assertNoTempFiles(t, dest)
	}

	t.Run("Resource List trickles", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
		u, _ := url.Parse(src.ResourceListURL(0))
		src.SetFault(u.Path, trickle)
		dest := t.TempDir()
		r := runCLI(t, args(append([]string{"baseline", "--dest", dest}, slow...), srv.URL)...).want(t, exitUnavailable)
		contains(t, r.stdout+r.stderr, src.ResourceListURL(0), "too slow", "minimum rate of 1K/s over 300ms")
		if files := fixtures.MirrorFiles(t, dest); len(files) != 0 {
			t.Errorf("%d files written", len(files))
		}
		after(t, src, dest)
	})

	t.Run("resource trickles", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
		res := src.Resources(0)[1]
		src.SetFault(res.Path, trickle)
		dest := t.TempDir()
		r := runCLI(t, args(append([]string{"baseline", "--dest", dest}, slow...), srv.URL)...).want(t, exitPartial)
		contains(t, r.stdout, res.URI, "too slow")
		v := readState(t, dest, src.CapabilityListURL(0))
		if len(v.held) != 4 || heldURIs(v.held)[res.URI] {
			t.Errorf("the state holds %d resources (the trickling one: %v), want the 4 others", len(v.held), heldURIs(v.held)[res.URI])
		}
		if len(v.fail) != 1 || v.fail[0].URI != res.URI {
			t.Errorf("failures recorded: %+v, want the trickling resource", v.fail)
		}
		after(t, src, dest)
	})

	// An endless Resource List: an entry every second stays under the
	// floor; an entry every 10 ms keeps well above it, and the bound on a
	// document's time ends it instead.
	endless := func(t *testing.T, gap time.Duration) (*fixtures.Source, string) {
		spec := fixtures.DefaultSpec()
		spec.Resources = 5
		src, err := fixtures.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		mux := httptest.NewUnstartedServer(nil)
		mux.Start()
		t.Cleanup(mux.Close)
		if err := src.SetBaseURL(mux.URL); err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(src.ResourceListURL(0))
		head := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:ln rel="up" href="` + src.CapabilityListURL(0) + `"/>
<rs:md capability="resourcelist" at="2030-01-01T00:00:00Z"/>
`
		entry := "<url><loc>" + src.Resources(0)[0].URI + "</loc></url>\n"
		mux.Config.Handler = fixtures.Override(src, u.Path, fixtures.Endless("application/xml", []byte(head), []byte(entry), gap))
		return src, mux.URL + "/"
	}
	t.Run("endless Resource List, slow", func(t *testing.T) {
		src, root := endless(t, time.Second)
		dest := t.TempDir()
		r := runCLI(t, args(append([]string{"baseline", "--dest", dest}, slow...), root)...).want(t, exitUnavailable)
		contains(t, r.stdout+r.stderr, src.ResourceListURL(0), "too slow")
		after(t, src, dest)
	})
	t.Run("endless Resource List, steady", func(t *testing.T) {
		src, root := endless(t, 10*time.Millisecond)
		dest := t.TempDir()
		r := runCLI(t, args([]string{"baseline", "--dest", dest, "--max-document-time", "1s"}, root)...).want(t, exitUnavailable)
		contains(t, r.stdout+r.stderr, src.ResourceListURL(0), "not read within 1s")
		if files := fixtures.MirrorFiles(t, dest); len(files) != 0 {
			t.Errorf("%d files written", len(files))
		}
		after(t, src, dest)
	})
}

// Issue 22, item 3: a document far beyond the protocol's own limits
// (50,000 entries, 50 MB) is refused with a message naming it and the
// limit - the parts of an index each on their own - and nothing is
// deleted or recorded for a list not read whole. The limits are the
// flags', set small here.
func TestGuaranteeDocumentsBeyondTheLimitsAreRefused(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 30; s.ListMax = 10 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	before := readState(t, dest, src.CapabilityListURL(0))

	for _, tc := range []struct {
		flags []string
		say   string
	}{
		{[]string{"--max-document-entries", "9"}, "more than 9 entries"},
		{[]string{"--max-document-size", "1K"}, "more than 1024 bytes decoded"},
	} {
		r := runCLI(t, args(append([]string{"baseline", "--dest", dest, "--delete"}, tc.flags...), srv.URL)...)
		if r.code == 0 {
			t.Fatalf("%v: a list beyond the limit was read (exit 0)", tc.flags)
		}
		contains(t, r.stdout+r.stderr, tc.say, "/dataset1/resourcelist")
		after := readState(t, dest, src.CapabilityListURL(0))
		if len(after.held) != len(before.held) || !after.set.BaselineAt.Equal(before.set.BaselineAt) {
			t.Errorf("%v: the state changed: %d held (was %d)", tc.flags, len(after.held), len(before.held))
		}
		assertHeldOnDisk(t, dest, after.held)
		assertMirrorIsSource(t, src, dest)
	}
}
