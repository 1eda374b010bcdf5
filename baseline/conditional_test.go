package baseline_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// The skip rule's last resort: a resource the list gives no hash for, and
// whose lastmod does not settle it, is asked for with a conditional GET
// (the ETag and Last-Modified stored when it was fetched); the Source's
// 304 keeps the copy held, and no body crosses the wire.
//
// The fixture's own lists cannot get there: every entry it writes has a
// length and a lastmod, which settle it first (the "length and lastmod"
// case: not a single resource request). The other cases serve a
// hand-written Resource List (SetRaw) over the fixture's resources, which
// are still served with their validators.
func TestConditionalGet(t *testing.T) {
	for _, tc := range []struct {
		name string
		// first is the Resource List's entry of the first run, second of
		// the two runs after it (nil: the fixture's own list).
		first, second func(r fixtures.ResourceInfo) string
		// second304 and third304: each resource is asked for once, and
		// answered 304, in the second and the third run (else not at all).
		second304, third304 bool
	}{
		{name: "length and lastmod"},
		// Nothing but the validators can tell, every time.
		{name: "no lastmod", first: entry(false, 0), second: entry(false, 0), second304: true, third304: true},
		// The 304 refreshes the record with the new lastmod: the next run
		// settles it by length and lastmod.
		{name: "lastmod moved", first: entry(true, 0), second: entry(true, time.Hour), second304: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, func(s *fixtures.Spec) { s.Resources, s.HashAlgs = 20, []string{} })
			rs := h.Src.Resources(0)
			listPath := urlPath(t, h.Src.ResourceListURL(0))
			serve := func(e func(fixtures.ResourceInfo) string) {
				if e != nil {
					h.Src.SetRaw(listPath, "application/xml", resourceList(rs, e))
				}
			}

			serve(tc.first)
			if sum := h.mustRun(nil); sum.Created != 20 || sum.Failed != 0 {
				t.Fatalf("first run: %+v", sum.Counts)
			}
			h.AssertIdentical()
			for _, r := range rs {
				held, ok, err := h.DB.Held(context.Background(), h.set.ID, r.URI)
				if err != nil || !ok || held.ETag != r.ETag || held.LastModified == "" || len(held.Fixity) == 0 {
					t.Fatalf("%s: held %+v %v %v: want the validators served (ETag %s) and a local digest", r.URI, held, ok, err, r.ETag)
				}
			}

			serve(tc.second)
			for run, conditional := range []bool{tc.second304, tc.third304} {
				h.Src.ResetCounts()
				sum := h.mustRun(nil)
				if sum.Unchanged != 20 || sum.Created+sum.Updated+sum.Failed != 0 || sum.Bytes != 0 {
					t.Fatalf("run %d: %+v", run+2, sum.Counts)
				}
				if n := h.Src.ResourceBodies(); n != 0 {
					t.Errorf("run %d: %d resource bodies fetched", run+2, n)
				}
				want := fixtures.Counts{}
				if conditional {
					want = fixtures.Counts{Requests: 1, NotModified: 1}
				}
				for _, r := range rs {
					if c := h.Src.Count(r.Path); c != want {
						t.Errorf("run %d: %s: requests %+v, want %+v", run+2, r.Path, c, want)
					}
				}
				h.AssertIdentical()
			}
		})
	}
}

// entry writes a Resource List entry with a length and no hash; with
// lastmod, its lastmod is the Source's moved by shift.
func entry(lastmod bool, shift time.Duration) func(r fixtures.ResourceInfo) string {
	return func(r fixtures.ResourceInfo) string {
		lm := ""
		if lastmod {
			lm = "<lastmod>" + resourcesync.FormatDatetime(r.LastMod.Add(shift)) + "</lastmod>"
		}
		return fmt.Sprintf(`<url><loc>%s</loc>%s<rs:md length="%d"/></url>`, r.URI, lm, r.Size)
	}
}

func resourceList(rs []fixtures.ResourceInfo, entry func(fixtures.ResourceInfo) string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>
`)
	for _, r := range rs {
		b.WriteString(entry(r))
		b.WriteByte('\n')
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

func urlPath(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Path
}
