package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// changeListOf is a plain Change List from from with one entry per line
// of entries: loc, lastmod, change and the rs:md attributes besides.
func changeListOf(from string, entries ...[4]string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changelist" from="` + from + `"/>
`)
	for _, e := range entries {
		fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod><rs:md change=%q %s/></url>\n", e[0], e[1], e[2], e[3])
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// Issue 16, changes out of order: resync-build dates a deletion with the
// deleted file's old lastmod, before the cursor. The deletion is applied
// and said (not dropped with exit 0 and the file still there); changes
// superseded or older than the copy held are ignored by name; the same
// list read again applies nothing; and a run killed -9 around the
// out-of-order change resumes exactly.
func TestGuaranteeChangesOutOfOrder(t *testing.T) {
	t.Parallel()
	for _, failpoint := range []string{"", "after-publish:1", "after-commit:1"} {
		t.Run("kill "+failpoint, func(t *testing.T) {
			src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 12 })
			dest := t.TempDir()
			runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
			set := readState(t, dest, src.CapabilityListURL(0)).set
			rs := src.Resources(0)
			x, z, w := rs[1], rs[2], rs[3]
			date := resourcesync.FormatDatetime
			md := func(r fixtures.ResourceInfo) string {
				return fmt.Sprintf(`hash=%q length="%d"`, r.Fixity.String(), r.Size)
			}
			first := [][4]string{{x.URI, date(set.Cursor.Add(time.Hour)), "updated", md(x)}}
			const cl = "/dataset1/changelist.xml"
			src.SetRaw(cl, "application/xml", changeListOf("2020-01-01T00:00:00Z", first...))
			runCLI(t, args([]string{"sync", "--dest", dest, "--delete"}, srv.URL)...).want(t, 0)

			if err := src.Apply(src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Delete, Path: z.Path}); err != nil {
				t.Fatal(err)
			}
			src.SetRaw(cl, "application/xml", changeListOf("2020-01-01T00:00:00Z", append(first,
				[4]string{z.URI, date(z.LastMod), "deleted", ""},
				[4]string{w.URI, date(w.LastMod.Add(-time.Hour)), "updated", md(w)})...))
			zFile := filepath.Join(dest, filepath.FromSlash(relPath(t, z.URI)))
			flags := args([]string{"sync", "--dest", dest, "--delete", "--json"}, srv.URL)
			if failpoint != "" {
				p := startProc(t, []string{failpointEnv + "=" + failpoint}, flags...)
				if _, sig := p.wait(); sig != syscall.SIGKILL {
					t.Fatalf("the run was not killed at %s:\n%s", failpoint, p.stderr.String())
				}
				settle(t, srv)
				checkState(t, dest, src.CapabilityListURL(0))
			}
			r := runCLI(t, flags...).want(t, 0)
			var res struct {
				Sets []struct {
					Incremental struct {
						OutOfOrder int64 `json:"out_of_order"`
						Ignored    int64 `json:"ignored"`
						Applied    int64 `json:"applied"`
					} `json:"incremental"`
				} `json:"sets"`
			}
			if err := resultOf(r.stdout, &res); err != nil || len(res.Sets) != 1 {
				t.Fatalf("%v: %s", err, r.stdout)
			}
			got := res.Sets[0].Incremental
			switch failpoint {
			case "":
				if got.OutOfOrder != 1 || got.Ignored != 1 {
					t.Errorf("out_of_order %d, ignored %d; want 1 and 1", got.OutOfOrder, got.Ignored)
				}
				contains(t, r.stderr, z.URI, "(listed out of order): applied", w.URI, "the copy held is newer")
			case "after-commit:1":
				// The killed run recorded everything: nothing is left.
				if got.OutOfOrder != 0 || got.Applied != 0 {
					t.Errorf("the resume after the commit applied %+v", got)
				}
			}
			if _, err := os.Stat(zFile); !os.IsNotExist(err) {
				t.Errorf("the file deleted at the Source out of order is still there: %v", err)
			}
			v := checkState(t, dest, src.CapabilityListURL(0))
			for _, h := range v.held {
				if h.URI == z.URI {
					t.Errorf("the state still holds %s", z.URI)
				}
			}
			// The same list again: nothing applied twice, nothing said twice.
			r = runCLI(t, args([]string{"sync", "--dest", dest, "--delete"}, srv.URL)...).want(t, 0)
			if strings.Contains(r.stderr, "out of order") || strings.Contains(r.stdout, "out of order") {
				t.Errorf("the list read again reported changes out of order:\n%s\n%s", r.stdout, r.stderr)
			}
			runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...).want(t, 0)
		})
	}
}

// Issue 16, a Change List without from (the simulator omits it): the
// run says the history's start is unknown, and stops with exit 7,
// changing nothing, when the list's changes do not reach back to the
// cursor - the mirror would otherwise keep what the lost changes deleted.
func TestGuaranteeChangeListWithoutFrom(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 12 })
	dest := t.TempDir()
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	cursor := readState(t, dest, src.CapabilityListURL(0)).set.Cursor
	x := src.Resources(0)[1]
	md := fmt.Sprintf(`hash=%q length="%d"`, x.Fixity.String(), x.Size)
	noFrom := func(at time.Time) []byte {
		doc := changeListOf("X", [4]string{x.URI, resourcesync.FormatDatetime(at), "updated", md})
		return []byte(strings.Replace(string(doc), ` from="X"`, "", 1))
	}
	const cl = "/dataset1/changelist.xml"
	src.SetRaw(cl, "application/xml", noFrom(cursor.Add(time.Hour)))
	before := fixtures.TreeSnapshot(t, dest, true)
	held := len(readState(t, dest, src.CapabilityListURL(0)).held)
	r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, exitSafetyStop)
	contains(t, r.stderr, "gives no from", "a new baseline is needed")
	if after := fixtures.TreeSnapshot(t, dest, true); after != before {
		t.Error("the run stopped by a history of unknown start changed the mirror")
	}
	if v := checkState(t, dest, src.CapabilityListURL(0)); !v.set.Cursor.Equal(cursor) || len(v.held) != held {
		t.Errorf("the run stopped by a history of unknown start changed the state: cursor %v, %d held", v.set.Cursor, len(v.held))
	}

	src.SetRaw(cl, "application/xml", noFrom(cursor))
	r = runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "where the Source's history starts is unknown")
	contains(t, r.stderr, "gives no from")
}
