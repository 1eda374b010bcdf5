package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
)

// sizedList is a Resource List (at the fixture's list URL) naming each loc
// with the length given, or none when it is negative, and no hash.
func sizedList(locs []string, lengths []int64) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2030-01-01T00:00:00Z"/>
`)
	for i, l := range locs {
		b.WriteString("<url><loc>")
		xml.EscapeText(&b, []byte(l))
		b.WriteString("</loc>")
		if lengths[i] >= 0 {
			fmt.Fprintf(&b, `<rs:md length="%d"/>`, lengths[i])
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// Issue 22, item 4: a resource with no listed length and no hash cannot
// fill the disk. --max-size caps it (refused from its Content-Length, cut
// as it streams without one), a listed length is its own cap; and on a
// small disk (fixtures.SmallDisk: 1 MiB kept free, 600 KiB more) a listed
// resource that would not fit is refused before it is fetched, one of
// unknown length as it grows. Each fails alone (exit 3), named with its
// cause, leaving no temp file, the previous version and the other
// resources in place, and the state true to the disk.
func TestGuaranteeUnboundedResourcesCannotFillTheDisk(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 4 })
	host := strings.TrimSuffix(src.URL(), "/")
	big := bytes.Repeat([]byte("0123456789abcdef"), 128<<10) // 2 MiB
	raw := func(p string, closeDelimited bool) string {
		src.SetRaw(p, "application/octet-stream", big)
		if closeDelimited { // no Content-Length: only the bytes tell
			src.SetFault(p, fixtures.Fault{Body: fixtures.CloseDelimited, At: -1})
		}
		return host + p
	}
	var locs []string
	var lengths []int64
	for _, r := range src.Resources(0) {
		locs, lengths = append(locs, r.URI), append(lengths, -1)
	}
	sized := raw("/dataset1/res/sized.bin", false)
	streamed := raw("/dataset1/res/streamed.bin", true)
	listed := raw("/dataset1/res/listed.bin", false)
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml",
		sizedList(append(locs, sized, streamed, listed), append(lengths, -1, -1, int64(len(big)))))

	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--max-size", "1M"}, srv.URL)...).want(t, exitPartial)
	contains(t, r.stdout, sized, streamed, "more than 1048576 bytes", "--max-size", "5 created, 0 updated, 0 unchanged, 0 deleted, 2 failed")
	v := readState(t, dest, src.CapabilityListURL(0))
	held := heldURIs(v.held)
	if held[sized] || held[streamed] || !held[listed] || len(v.held) != 5 {
		t.Errorf("held %v: want the 4 small resources and the listed 2 MiB one", held)
	}
	assertHeldOnDisk(t, dest, v.held)
	assertNoTempFiles(t, dest)

	// A small disk: what the mirror holds now, 1 MiB kept free, and
	// 600 KiB more. The state is on the same directory but not counted
	// (its size changes with every commit). A listed resource that cannot
	// fit is refused before it is fetched while a small one is written;
	// then one of unknown length is refused as it grows (alone, so that
	// what it takes while growing cannot crowd out another).
	disk := fixtures.SmallDisk{Dir: dest, Skip: ".resync-dest"}
	used, err := disk.Used()
	if err != nil {
		t.Fatal(err)
	}
	disk.Capacity = used + 1<<20 + 600<<10
	small := host + "/dataset1/res/small.bin"
	src.SetRaw("/dataset1/res/small.bin", "application/octet-stream", big[:100<<10])
	listed2 := raw("/dataset1/res/listed2.bin", false)
	streamed2 := raw("/dataset1/res/streamed2.bin", true)
	for _, step := range []struct {
		uri    string
		length int64
		also   string // fetched beside it
	}{{listed2, int64(len(big)), small}, {streamed2, -1, ""}} {
		l, n := append([]string{}, locs...), append([]int64{}, lengths...)
		l, n = append(l, step.uri), append(n, step.length)
		if step.also != "" {
			l, n = append(l, step.also), append(n, -1)
		}
		src.SetRaw("/dataset1/resourcelist.xml", "application/xml", sizedList(l, n))
		src.ResetCounts()
		before := filesOnly(fixtures.TreeSnapshot(t, dest, true))
		code, msg := runOver(t, false, srv.URL, dest, func(mo *mirror.Options, _ mirror.FS) {
			mo.MinFree = 1 << 20
			mo.FreeSpace = disk.Free
		}, func(bool) {})
		if code != exitPartial {
			t.Fatalf("%s: exit %d, want %d: %s", step.uri, code, exitPartial, msg)
		}
		if p := strings.TrimPrefix(step.uri, host); step.length >= 0 && src.Requests(p) != 0 {
			t.Errorf("a listed resource that cannot fit was fetched %d times", src.Requests(p))
		}
		v = readState(t, dest, src.CapabilityListURL(0))
		held = heldURIs(v.held)
		if held[step.uri] || (step.also != "" && !held[step.also]) {
			t.Errorf("%s: held %v: want it refused (and %s fetched)", step.uri, held, step.also)
		}
		cause := ""
		for _, f := range v.fail {
			if f.URI == step.uri {
				cause = f.Cause
			}
		}
		if !strings.Contains(cause, "not enough free space") || !strings.Contains(cause, "1.0 MiB free") {
			t.Errorf("%s: recorded cause %q, want the free space named", step.uri, cause)
		}
		after := filesOnly(fixtures.TreeSnapshot(t, dest, true))
		for _, l := range strings.Split(before, "\n") {
			if !strings.Contains(after, l) {
				t.Errorf("a file held before changed or went: %s", l)
			}
		}
		assertHeldOnDisk(t, dest, v.held)
		assertNoTempFiles(t, dest)
	}
}
