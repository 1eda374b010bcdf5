package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// resourceDoc is the part of status --resource --json the tests read.
type resourceDoc struct {
	URI     string `json:"uri"`
	Records []struct {
		CapabilityList string                    `json:"capability_list"`
		Path           string                    `json:"path"`
		Hash           string                    `json:"hash"`
		Links          []resourcesync.LinkRecord `json:"links"`
		Provenance     []string                  `json:"provenance"`
	} `json:"records"`
	Failures []struct {
		Cause string `json:"cause"`
	} `json:"failures"`
}

func statusOf(t *testing.T, dest, uri string) resourceDoc {
	t.Helper()
	r := runCLI(t, "status", "--dest", dest, "--json", "--resource", uri).want(t, 0)
	var doc resourceDoc
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatalf("status --resource --json: %v\n%s", err, r.stdout)
	}
	return doc
}

// relHrefs are "rel href" of each link, for comparisons.
func relHrefs[L resourcesync.Link | resourcesync.LinkRecord](links []L) []string {
	out := []string{}
	for _, l := range links {
		switch l := any(l).(type) {
		case resourcesync.Link:
			out = append(out, l.Rel+" "+l.Href)
		case resourcesync.LinkRecord:
			out = append(out, l.Rel+" "+l.Href)
		}
	}
	return out
}

// §14.3, 14.5, 14.7, 14.8: the describedby, collection, canonical and via
// links of an entry - in a Resource List, a Change List, a Resource Dump's
// manifest - are recorded with the resource (the links it acts on or
// ignores are not), replaced when the entry's links change without a
// fetch, gone with the resource; status --resource shows them (and where
// a republished resource came from), status counts a set's republished
// resources by origin host, audit --json shows them with the resources it
// reports.
func TestLinksRecorded(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources, s.DumpPackages = 4, 1 })
	res := src.Resources(0)
	md5, _ := resourcesync.ParseHash("md5:1584abdf8ebdc9802ac0c6a7402c03b6")
	modified := time.Date(2013, 1, 3, 7, 0, 0, 0, time.UTC)
	// The standard's examples 28, 30, 26 and 32.
	meta := resourcesync.Link{Rel: resourcesync.RelDescribedBy, Href: src.URI("/dataset1/meta/r0.xml"), Type: "application/xml", Modified: modified}
	coll := resourcesync.Link{Rel: resourcesync.RelCollection, Href: "http://example.com/aggregation/0601007"}
	canon := resourcesync.Link{Rel: resourcesync.RelCanonical, Href: "http://example.com/res1"}
	via := resourcesync.Link{Rel: resourcesync.RelVia, Href: "http://original.example.com/res1.html", Modified: modified,
		Hash: md5, Length: 8876, HasLength: true, Type: "text/html"}
	// An alternate is recorded, asked for or not (a deletion without links
	// deletes the one fetched with its resource by it); a mirror, acted on
	// or ignored, never is.
	alt := resourcesync.Link{Rel: resourcesync.RelAlternate, Href: src.URI("/dataset1/alt/r0.pdf"), Type: "application/pdf"}
	dup := resourcesync.Link{Rel: resourcesync.RelDuplicate, Href: "http://mirror.example.com/r0", Pri: 1}
	serve := func(links map[string][]resourcesync.Link, versioned func(fixtures.LinkSite) []resourcesync.Link) {
		src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
			if versioned != nil {
				if l := versioned(s); l != nil {
					return l
				}
			}
			return links[s.Path]
		})
	}
	serve(map[string][]resourcesync.Link{
		res[0].Path: {dup, meta, coll, alt},
		res[1].Path: {via},
		res[2].Path: {canon},
	}, nil)

	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest, "--via", "list"}, srv.URL)...).want(t, 0)
	wantLinks := func(when, uri string, want ...resourcesync.Link) resourceDoc {
		t.Helper()
		doc := statusOf(t, dest, uri)
		if len(doc.Records) != 1 {
			t.Fatalf("%s: %s: %d records, want 1", when, uri, len(doc.Records))
		}
		if got := relHrefs(doc.Records[0].Links); !reflect.DeepEqual(got, relHrefs(want)) {
			t.Errorf("%s: %s records links %q, want %q", when, uri, got, relHrefs(want))
		}
		return doc
	}
	wantLinks("baseline", res[0].URI, meta, coll, alt)
	doc := wantLinks("baseline", res[1].URI, via)
	if l := doc.Records[0].Links[0]; l.Hash != via.Hash.String() || l.Length == nil || *l.Length != 8876 ||
		!l.Modified.Equal(modified) || l.Type != "text/html" || !reflect.DeepEqual(doc.Records[0].Provenance, []string{via.Href}) {
		t.Errorf("the via link's record: %+v, provenance %q", l, doc.Records[0].Provenance)
	}
	wantLinks("baseline", res[2].URI, canon)
	wantLinks("baseline", res[3].URI)

	// status: the resource's record in text; the set's republished
	// resources by origin host.
	r := runCLI(t, "status", "--dest", dest, "--resource", res[1].URI).want(t, 0)
	contains(t, r.stdout, "resource  "+res[1].URI, "set "+src.CapabilityListURL(0), "path      "+relPath(t, res[1].URI),
		"  links     via         http://original.example.com/res1.html (type text/html, modified 2013-01-03T07:00:00Z, md5:1584abdf8ebdc9802ac0c6a7402c03b6, 8876 bytes)",
		"  republished from http://original.example.com/res1.html")
	r = runCLI(t, "status", "--dest", dest, "--resource", src.URI("/dataset1/never-listed")).want(t, 0)
	contains(t, r.stdout, "held by no set")
	r = runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout, "  republished from original.example.com (1 resource)")
	r = runCLI(t, "status", "--dest", dest, "--json").want(t, 0)
	var st struct {
		Sets []struct {
			Republished []state.Origin `json:"republished"`
		} `json:"sets"`
	}
	if err := resultOf(r.stdout, &st); err != nil || len(st.Sets) != 1 ||
		!reflect.DeepEqual(st.Sets[0].Republished, []state.Origin{{Host: "original.example.com", Resources: 1}}) {
		t.Errorf("status --json republished: %+v (%v)", st, err)
	}

	// The entries' links change, their resources do not: the records
	// change, nothing is fetched.
	coll2 := resourcesync.Link{Rel: resourcesync.RelCollection, Href: "http://example.com/aggregation/0601008"}
	serve(map[string][]resourcesync.Link{res[0].Path: {coll2}, res[2].Path: {canon}}, nil)
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("links changed: %d bodies fetched, want 0", n)
	}
	wantLinks("links changed", res[0].URI, coll2)
	wantLinks("links changed", res[1].URI)
	r = runCLI(t, "status", "--dest", dest).want(t, 0)
	if strings.Contains(r.stdout, "republished") {
		t.Errorf("status still counts a republished resource:\n%s", r.stdout)
	}

	// A Change List: the update of resource 2 says it is republished now;
	// resource 0 is deleted, its record and links with it.
	via2 := resourcesync.Link{Rel: resourcesync.RelVia, Href: "https://origin.example.org:8443/r2"}
	serve(map[string][]resourcesync.Link{res[0].Path: {coll2}, res[2].Path: {canon}}, func(s fixtures.LinkSite) []resourcesync.Link {
		if s.Path == res[2].Path && s.Version >= 2 {
			return []resourcesync.Link{canon, via2}
		}
		return nil
	})
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: res[2].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[0].Path}); err != nil {
		t.Fatal(err)
	}
	runCLI(t, args([]string{"incremental", "--dest", dest, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	wantLinks("incremental", res[2].URI, canon, via2)
	if doc := statusOf(t, dest, res[0].URI); len(doc.Records) != 0 {
		t.Errorf("a deleted resource keeps its record: %+v", doc.Records)
	}
	r = runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout, "  republished from origin.example.org:8443 (1 resource)")

	// audit --json: a changed file is reported with its links.
	p := filepath.Join(dest, filepath.FromSlash(relPath(t, res[2].URI)))
	if err := os.WriteFile(p, []byte("not what the Source serves"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--json"}, srv.URL)...).want(t, exitDifferences)
	var rep struct {
		Changed []struct {
			URI   string                    `json:"uri"`
			Links []resourcesync.LinkRecord `json:"links"`
		} `json:"changed"`
	}
	if err := resultOf(r.stdout, &rep); err != nil || len(rep.Changed) != 1 || rep.Changed[0].URI != res[2].URI ||
		!reflect.DeepEqual(relHrefs(rep.Changed[0].Links), relHrefs([]resourcesync.Link{canon, via2})) {
		t.Errorf("audit --json changed: %+v (%v)", rep.Changed, err)
	}

	// A Resource Dump's manifest carries the links too.
	dump := t.TempDir()
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dump, "--via", "dump"}, srv.URL)...).want(t, 0)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("the dump's baseline fetched %d resources one by one", n)
	}
	if doc := statusOf(t, dump, res[2].URI); len(doc.Records) != 1 ||
		!reflect.DeepEqual(relHrefs(doc.Records[0].Links), relHrefs([]resourcesync.Link{canon, via2})) {
		t.Errorf("from the dump: %+v", doc.Records)
	}
}

// The text of status --resource (testdata/status-resource.golden; -update
// rewrites it): a record with links and provenance, one without links and
// with a failure, and a resource held by no set.
func TestPrintResource(t *testing.T) {
	at := time.Date(2026, 11, 25, 3, 4, 5, 0, time.UTC)
	n := int64(8876)
	rep := &resourceReport{State: "/m/.resync-dest/state.db", URI: "http://aggregator1.example.com/res1.html",
		Records: []resourceRecord{{
			CapabilityList: "http://aggregator1.example.com/dataset1/capabilitylist.xml", Path: "aggregator1.example.com/res1.html",
			Length: 8876, Hash: "md5:1584abdf8ebdc9802ac0c6a7402c03b6", LastMod: time.Date(2013, 1, 3, 20, 0, 0, 0, time.UTC),
			ETag: `"22ac-4d2"`, LastModified: "Thu, 03 Jan 2013 20:00:00 GMT", Fetched: at,
			Links: []resourcesync.LinkRecord{
				{Rel: "describedby", Href: "http://aggregator1.example.com/res1_dc.xml", Type: "application/xml", Pri: 1},
				{Rel: "collection", Href: "http://example.com/aggregation/0601007"},
				{Rel: "via", Href: "http://original.example.com/res1.html", Type: "text/html", Modified: time.Date(2013, 1, 3, 7, 0, 0, 0, time.UTC),
					Hash: "md5:1584abdf8ebdc9802ac0c6a7402c03b6", Length: &n},
			},
			Provenance: []string{"http://original.example.com/res1.html"},
		}, {
			CapabilityList: "http://aggregator1.example.com/dataset2/capabilitylist.xml", Path: "aggregator1.example.com/res1.html",
			Length: 1, Fetched: at, Links: []resourcesync.LinkRecord{}, Provenance: []string{},
		}},
		Failures: []resourceFail{{CapabilityList: "http://aggregator1.example.com/dataset2/capabilitylist.xml", Cause: "get http://aggregator1.example.com/res1.html: 503", At: at, Attempts: 2}},
	}
	var b strings.Builder
	printResource(&b, rep)
	printResource(&b, &resourceReport{State: rep.State, URI: "http://aggregator1.example.com/none"})
	printRepublished(&b, []state.Origin{{Host: "original.example.com", Resources: 12}, {Host: "b.example:8080", Resources: 1}})
	golden(t, "status-resource.golden", b.String())
}
