package main

import (
	"reflect"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/scaletest"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// The links recorded with a resource (§14) in the PostgreSQL state: status
// --resource and status's republished count read them back, and a change
// of an entry's links replaces them, as with SQLite (TestLinksRecorded).
func TestScaleLinksRecordedInPostgres(t *testing.T) {
	db := scaletest.NewPostgres(t)
	src, srv := served(t, func(sp *fixtures.Spec) { sp.Resources = 3 })
	res := src.Resources(0)
	via := resourcesync.Link{Rel: resourcesync.RelVia, Href: "http://original.example.com/res1.html"}
	coll := resourcesync.Link{Rel: resourcesync.RelCollection, Href: "http://example.com/aggregation/0601007"}
	links := map[string][]resourcesync.Link{res[0].Path: {coll, via}}
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link { return links[s.Path] })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest, "--state", db}, srv.URL)...).want(t, 0)
	recorded := func(when string, want ...resourcesync.Link) {
		t.Helper()
		r := runCLI(t, "status", "--dest", dest, "--state", db, "--json", "--resource", res[0].URI).want(t, 0)
		var doc resourceDoc
		if err := resultOf(r.stdout, &doc); err != nil || len(doc.Records) != 1 {
			t.Fatalf("%s: %v\n%s", when, err, r.stdout)
		}
		if got := relHrefs(doc.Records[0].Links); !reflect.DeepEqual(got, relHrefs(want)) {
			t.Errorf("%s: links %q, want %q", when, got, relHrefs(want))
		}
	}
	recorded("baseline", coll, via)
	r := runCLI(t, "status", "--dest", dest, "--state", db).want(t, 0)
	contains(t, r.stdout, "republished from original.example.com (1 resource)")

	src.SetLinks(func(fixtures.LinkSite) []resourcesync.Link { return []resourcesync.Link{coll} })
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest, "--state", db}, srv.URL)...).want(t, 0)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("links changed: %d bodies fetched", n)
	}
	recorded("links changed", coll)
}
