package main

import (
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
)

// listEntry is one <url> of a hand-written Resource List.
type listEntry struct {
	loc, lastmod, hash string // empty: left out
	length             int64  // negative: left out
}

// handList is a Resource List (at the fixture's list URL) of entries.
func handList(entries []listEntry) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2030-01-01T00:00:00Z"/>
`)
	for _, e := range entries {
		b.WriteString("<url><loc>")
		xml.EscapeText(&b, []byte(e.loc))
		b.WriteString("</loc>")
		if e.lastmod != "" {
			b.WriteString("<lastmod>")
			xml.EscapeText(&b, []byte(e.lastmod))
			b.WriteString("</lastmod>")
		}
		b.WriteString("<rs:md")
		if e.hash != "" {
			fmt.Fprintf(&b, ` hash="%s"`, e.hash)
		}
		if e.length >= 0 {
			fmt.Fprintf(&b, ` length="%d"`, e.length)
		}
		b.WriteString("/></url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// Issue 22, items 7 and 11: odd and bad attributes of one entry stay with
// that entry. A leap second, a lower-case z and the year 0001 are W3C
// datetimes (as RFC 3339 reads the profile); a lastmod that is none is
// warned about and the resource still fetched; a hash attribute with no
// digest, or one algorithm given twice with two digests, fails its own
// entry (exit 3, the cause recorded, nothing asked of the Source for it),
// and the rest of the list is applied. The next run fetches none of the
// resources whose lastmod it could read - the year 0001 included, which no
// file's mtime can hold - because it compares the recorded value.
func TestGuaranteeOddEntriesStayInTheirEntry(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 7 })
	rs := src.Resources(0)
	md5Of := func(i int) string { d, _ := rs[i].Fixity.Get("md5"); return d }
	entries := []listEntry{
		{loc: rs[0].URI, lastmod: "0001-01-01T00:00:00Z", length: rs[0].Size},
		{loc: rs[1].URI, lastmod: "2016-12-31T23:59:60Z", length: rs[1].Size},
		{loc: rs[2].URI, lastmod: "2013-07-16t19:20:30z", length: rs[2].Size},
		{loc: rs[3].URI, lastmod: "yesterday", length: rs[3].Size},
		{loc: rs[4].URI, lastmod: "2013-01-01T00:00:00Z", hash: "md5:", length: rs[4].Size},
		{loc: rs[5].URI, hash: "md5:" + md5Of(5) + " md5:" + strings.Repeat("0", 32), length: rs[5].Size},
		{loc: rs[6].URI, lastmod: "2013-01-01T00:00:00Z", hash: "md5:" + md5Of(6), length: rs[6].Size},
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", handList(entries))
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitPartial)
	contains(t, r.stdout, "5 created", "2 failed", rs[4].URI, rs[5].URI, "hash attribute cannot be used", "given twice, with different digests")
	contains(t, r.stderr, "lastmod is not a W3C datetime", rs[3].URI, "yesterday")
	for _, i := range []int{4, 5} {
		if n := src.Requests(rs[i].Path); n != 0 {
			t.Errorf("%s, whose hash attribute is malformed, was asked for %d times", rs[i].URI, n)
		}
	}
	v := readState(t, dest, src.CapabilityListURL(0))
	held := heldURIs(v.held)
	for i, want := range []bool{true, true, true, true, false, false, true} {
		if held[rs[i].URI] != want {
			t.Errorf("%s held: %v, want %v", rs[i].URI, held[rs[i].URI], want)
		}
	}
	if len(v.fail) != 2 {
		t.Errorf("%d failures recorded, want 2: %+v", len(v.fail), v.fail)
	}
	assertHeldOnDisk(t, dest, v.held)
	assertNoTempFiles(t, dest)

	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitPartial)
	for _, i := range []int{0, 1, 2, 6} {
		if n := src.Requests(rs[i].Path); n != 0 {
			t.Errorf("%s (lastmod %q) is in step, but was asked for %d times", rs[i].URI, entries[i].lastmod, n)
		}
	}
	v = readState(t, dest, src.CapabilityListURL(0))
	assertHeldOnDisk(t, dest, v.held)
}

// Issue 22, item 10: a Source naming 1,000 sets is discovered whole (the
// document cap of discovery stopped at 199) - each set's Capability List
// read once.
func TestGuaranteeThousandSetsAreDiscovered(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 1000; s.Resources = 1000 })
	r := runCLI(t, args([]string{"discover", "--json"}, srv.URL)...).want(t, 0)
	if n := strings.Count(r.stdout, `"capability_list"`); n != 1000 {
		t.Errorf("%d sets discovered, want 1000", n)
	}
	for k := range 1000 {
		if n := src.Requests(strings.TrimPrefix(src.CapabilityListURL(k), strings.TrimSuffix(src.URL(), "/"))); n != 1 {
			t.Fatalf("set %d: its Capability List was asked for %d times, want 1", k, n)
		}
	}
}
