package main

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// The collections of example 30 of the standard, as the fixture's entries
// name them.
const (
	collA = "http://example.com/aggregation/0601007"
	collB = "http://example.com/aggregation/0601008"
)

// collectionSource is a Source whose entries name the collection of each
// resource (rel="collection", §14.7): members maps a URL path to its
// collection ("" for none). Deletions carry the link only while
// onDeletions is set.
type collectionSource struct {
	src         *fixtures.Source
	srv         *fixtures.Server
	members     map[string]string
	onDeletions atomic.Bool
}

// newCollectionSource serves n resources: the first three in collA, the
// next two in collB, the rest in none.
func newCollectionSource(t *testing.T, n int) *collectionSource {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = n })
	c := &collectionSource{src: src, srv: srv, members: map[string]string{}}
	for i, r := range src.Resources(0) {
		switch {
		case i < 3:
			c.members[r.Path] = collA
		case i < 5:
			c.members[r.Path] = collB
		}
	}
	c.onDeletions.Store(true)
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		coll := c.members[s.Path]
		if coll == "" || (s.Change == resourcesync.ChangeDeleted && !c.onDeletions.Load()) {
			return nil
		}
		return []resourcesync.Link{{Rel: resourcesync.RelCollection, Href: coll}}
	})
	return c
}

// §14.7: --collection URI takes only the members of the collection, as
// --include takes only what matches: the others are neither fetched,
// deleted (by a change or baseline --delete) nor audited, and counted as
// left out; both kinds of filter must admit a resource. A deletion is
// judged by its own collection link, else by the resource's other
// changes read in the same run, else - as a file the Source no longer
// lists - by the collection links the state recorded with the copy; a
// file whose membership nothing tells is left alone.
func TestLinksCollections(t *testing.T) {
	t.Parallel()
	c := newCollectionSource(t, 7)
	src, srv := c.src, c.srv
	res := src.Resources(0)
	inA := []string{"--collection", collA}

	// discover --count: what a run would take; both filters must admit.
	r := runCLI(t, args([]string{"discover", "--count"}, append(inA, srv.URL)...)...).want(t, 0)
	contains(t, r.stdout, "3 resources", "4 left out by the filters")
	r = runCLI(t, args([]string{"discover", "--count", "--collection", collA, "--collection", collB, "--exclude", uriPattern(res[1:2])}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "4 resources", "3 left out by the filters")
	runCLI(t, args([]string{"discover"}, append(inA, srv.URL)...)...).want(t, exitUsage)
	runCLI(t, args([]string{"discover", "--count", "--collection", "aggregation/0601007"}, srv.URL)...).want(t, exitUsage)

	// baseline: only the members are fetched.
	dest := t.TempDir()
	var rep struct {
		Counts resourcesync.Counts `json:"counts"`
	}
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--json"}, append(inA, srv.URL)...)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil || rep.Counts.Created != 3 || rep.Counts.LeftOut != 4 {
		t.Fatalf("counts %+v (%v), want 3 created, 4 left out", rep.Counts, err)
	}
	for i, x := range res {
		if got := onDisk(t, dest, x.URI) != ""; got != (i < 3) || (i >= 3 && src.Requests(x.Path) != 0) {
			t.Errorf("%s (collection %q): on disk %v, %d requests", x.Path, c.members[x.Path], got, src.Requests(x.Path))
		}
	}
	// audit: the others are not missing with --collection, missing without.
	r = runCLI(t, args([]string{"audit", "--dest", dest}, append(inA, srv.URL)...)...).want(t, 0)
	contains(t, r.stdout, "4 left out by the filters")
	r = runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout, "4 missing")
	// A member missing: the repair command keeps --collection.
	if err := os.Remove(filepath.Join(dest, relPath(t, res[0].URI))); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args([]string{"audit", "--dest", dest}, append(inA, srv.URL)...)...).want(t, exitDifferences)
	contains(t, r.stdout, "1 missing", "--collection "+shellQuote(collA))

	// The whole set held; the Source deletes a member of A, one of B and
	// the one in no collection, and updates one of B: a run with
	// --collection A deletes only the member of A.
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	before := map[string]string{}
	for _, x := range res {
		before[x.Path] = onDisk(t, dest, x.URI)
	}
	if err := src.Apply(src.At().Add(time.Second),
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[0].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[3].Path},
		fixtures.Mutation{Kind: fixtures.Update, Path: res[4].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[6].Path}); err != nil {
		t.Fatal(err)
	}
	del := []string{"--delete", "--max-delete", "100%"}
	r = runCLI(t, args(append([]string{"incremental", "--dest", dest, "--json"}, del...), append(inA, srv.URL)...)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil || rep.Counts.Deleted != 1 || rep.Counts.LeftOut != 3 {
		t.Errorf("counts %+v (%v), want 1 deleted, 3 left out", rep.Counts, err)
	}
	if onDisk(t, dest, res[0].URI) != "" {
		t.Errorf("the deletion of a member of the collection was not applied")
	}
	for _, x := range []fixtures.ResourceInfo{res[3], res[4], res[6]} {
		if onDisk(t, dest, x.URI) != before[x.Path] {
			t.Errorf("%s, left out by --collection, was changed", x.Path)
		}
	}

	// Deletions without the link: one of a resource whose update in the
	// same run names collection A is applied; one alone is judged by the
	// collection links the state recorded with the copy (the first
	// baseline, without --collection, recorded every resource's): applied
	// for a member of A, left out for one of B (as the deletion of res[6]
	// above, whose record names no collection).
	c.onDeletions.Store(false)
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: res[1].Path}); err != nil {
		t.Fatal(err)
	}
	if err := src.Apply(src.At().Add(time.Second),
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[1].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[2].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[4].Path}); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args(append([]string{"incremental", "--dest", dest, "--json"}, del...), append(inA, srv.URL)...)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil || rep.Counts.Deleted != 2 || rep.Counts.LeftOut != 1 {
		t.Errorf("counts %+v (%v), want 2 deleted, 1 left out", rep.Counts, err)
	}
	if onDisk(t, dest, res[1].URI) != "" {
		t.Errorf("a deletion without the link, of a resource its update names a member, was not applied")
	}
	if onDisk(t, dest, res[2].URI) != "" {
		t.Errorf("a deletion without the link, of a resource recorded a member, was not applied")
	}
	if onDisk(t, dest, res[4].URI) != before[res[4].Path] {
		t.Errorf("a deletion without the link, of a resource recorded in another collection, deleted the file")
	}

	// A member held (its record names A) that the Source no longer lists
	// is extra to audit --collection A and removed by baseline --delete
	// --collection A, which keeps the files the Source no longer lists of
	// B (res[3], res[4]) and of no collection (res[6]).
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Create, Path: res[0].Path}); err != nil {
		t.Fatal(err)
	}
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if onDisk(t, dest, res[0].URI) == "" {
		t.Fatalf("the member created again was not fetched")
	}
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Delete, Path: res[0].Path}); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args([]string{"audit", "--dest", dest}, append(inA, srv.URL)...)...).want(t, exitDifferences)
	contains(t, r.stdout, "1 extra")
	r = runCLI(t, args(append([]string{"baseline", "--dest", dest, "--json"}, del...), append(inA, srv.URL)...)...).want(t, 0)
	if err := resultOf(r.stdout, &rep); err != nil || rep.Counts.Deleted != 1 {
		t.Errorf("baseline --delete --collection: counts %+v (%v), want 1 deleted", rep.Counts, err)
	}
	if onDisk(t, dest, res[0].URI) != "" {
		t.Errorf("baseline --delete --collection kept a member the Source no longer lists")
	}
	for _, x := range []fixtures.ResourceInfo{res[3], res[4], res[6]} {
		if onDisk(t, dest, x.URI) != before[x.Path] {
			t.Errorf("baseline --delete --collection changed %s (collection %q)", x.Path, c.members[x.Path])
		}
	}
	runCLI(t, args([]string{"audit", "--dest", dest}, append(inA, srv.URL)...)...).want(t, 0)
	r = runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout, "3 extra")
}

// The resources fetched along with an entry's own (--with-metadata,
// --alternate) follow it through the filters, whatever their own URIs:
// fetched with a resource taken, neither fetched nor deleted with one
// left out.
func TestLinksCollectionsCompanions(t *testing.T) {
	t.Parallel()
	c := newCompanionSource(t)
	src, srv := c.src, c.srv
	res := src.Resources(0)
	src.SetLinks(func(s fixtures.LinkSite) []resourcesync.Link {
		ls := []resourcesync.Link{c.link(resourcesync.RelDescribedBy, companionPath(s.Path, "xml"), "application/xml")}
		if s.Path == res[0].Path {
			ls = append(ls, resourcesync.Link{Rel: resourcesync.RelCollection, Href: collA})
		}
		return ls
	})
	meta := func(r fixtures.ResourceInfo) string { return companionPath(r.Path, "xml") }
	for _, tc := range []struct {
		name   string
		filter []string
	}{
		{"--collection", []string{"--collection", collA}},
		// The metadata records' URIs match neither: they follow res[0].
		{"--include", []string{"--include", uriPattern(res[:1])}},
		{"--exclude", []string{"--exclude", uriPattern(res[1:])}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dest := t.TempDir()
			src.ResetCounts()
			runCLI(t, args(append([]string{"baseline", "--dest", dest, "--with-metadata"}, tc.filter...), srv.URL)...).want(t, 0)
			if got, ok := c.file(t, dest, meta(res[0])); !ok || got != string(c.body(meta(res[0]))) {
				t.Errorf("the metadata record of the resource taken was not fetched")
			}
			for _, x := range res[1:] {
				if _, ok := c.file(t, dest, meta(x)); ok || src.Requests(meta(x)) != 0 {
					t.Errorf("the metadata record of %s, left out, was fetched (%d requests)", x.Path, src.Requests(meta(x)))
				}
			}
			runCLI(t, args(append([]string{"audit", "--dest", dest, "--with-metadata"}, tc.filter...), srv.URL)...).want(t, 0)

			// Everything held; with the filter again, baseline --delete
			// keeps the left-out resources' records, and a deletion at the
			// Source of one left out leaves its record alone.
			runCLI(t, args([]string{"baseline", "--dest", dest, "--with-metadata"}, srv.URL)...).want(t, 0)
			runCLI(t, args(append([]string{"baseline", "--dest", dest, "--with-metadata", "--delete", "--max-delete", "100%"}, tc.filter...), srv.URL)...).want(t, 0)
			for _, x := range res {
				if _, ok := c.file(t, dest, meta(x)); !ok {
					t.Errorf("baseline --delete %v removed the metadata record of %s", tc.filter, x.Path)
				}
			}
		})
	}
	// A Change List deletes a member of the collection and a resource in
	// none: the member's record goes with it, the other's stays.
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest, "--with-metadata"}, srv.URL)...).want(t, 0)
	if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Delete, Path: res[1].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: res[0].Path}); err != nil {
		t.Fatal(err)
	}
	runCLI(t, args([]string{"incremental", "--dest", dest, "--with-metadata", "--collection", collA, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	if _, ok := c.file(t, dest, meta(res[0])); ok || onDisk(t, dest, res[0].URI) != "" {
		t.Errorf("the deleted member or its metadata record is still there")
	}
	if _, ok := c.file(t, dest, meta(res[1])); !ok || onDisk(t, dest, res[1].URI) == "" {
		t.Errorf("a resource left out, or its metadata record, was deleted")
	}
}

// --collection in a --config file: in defaults for every Source, and in a
// Source's own entry, which wins.
func TestLinksCollectionsInConfig(t *testing.T) {
	t.Parallel()
	c := newCollectionSource(t, 6)
	res := c.src.Resources(0)
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	cfg := writeConfig(t, `
defaults:
  max-retry-wait: 5ms
  progress: never
  collection: ['`+collA+`']
sources:
  - url: `+c.srv.URL+`
    dest: `+a+`
  - url: `+c.srv.URL+`
    dest: `+b+`
    collection: ['`+collB+`']
`)
	runCLI(t, "sync", "--config", cfg).want(t, 0)
	for i, x := range res {
		if got := onDisk(t, a, x.URI) != ""; got != (i < 3) {
			t.Errorf("mirror a (defaults: collection A): %s on disk %v", x.Path, got)
		}
		if got := onDisk(t, b, x.URI) != ""; got != (i == 3 || i == 4) {
			t.Errorf("mirror b (its own: collection B): %s on disk %v", x.Path, got)
		}
	}
}

// A failure retried that no change of the run names is judged under
// --collection by the collection links the state recorded with the copy
// held: a member's is retried, another collection's left out (and still
// recorded as a failure, for a run that takes it).
func TestLinksCollectionsRetried(t *testing.T) {
	t.Parallel()
	c := newCollectionSource(t, 6)
	src, srv := c.src, c.srv
	res := src.Resources(0)
	dest := t.TempDir()
	runCLI(t, "baseline", "--dest", dest, srv.URL).want(t, 0) // records every resource's links
	before := map[string]string{}
	for _, x := range res {
		before[x.Path] = onDisk(t, dest, x.URI)
	}
	// res[0] (collection A) and res[3] (B) change, and their fetches fail.
	for _, x := range []fixtures.ResourceInfo{res[0], res[3]} {
		src.SetFault(x.Path, fixtures.Fault{Status: []int{404, 404, 404, 404}})
	}
	if err := src.Apply(src.At().Add(time.Second),
		fixtures.Mutation{Kind: fixtures.Update, Path: res[0].Path},
		fixtures.Mutation{Kind: fixtures.Update, Path: res[3].Path}); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "baseline", "--dest", dest, srv.URL).want(t, exitPartial)
	src.ClearFaults()
	// The Change List after the second baseline names neither.
	src.SetRaw("/dataset1/changelist.xml", "application/xml", []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changelist" from="`+resourcesync.FormatDatetime(src.At())+`"/>
</urlset>
`))
	// runIncremental runs an incremental sync and returns its counts and
	// how many resources it retried.
	runIncremental := func(flags ...string) (resourcesync.Counts, int64) {
		t.Helper()
		var rep struct {
			Counts resourcesync.Counts `json:"counts"`
			Sets   []struct {
				Incremental struct {
					Retried int64 `json:"retried"`
				} `json:"incremental"`
			} `json:"sets"`
		}
		r := runCLI(t, args(append([]string{"incremental", "--dest", dest, "--json"}, flags...), srv.URL)...).want(t, 0)
		if err := resultOf(r.stdout, &rep); err != nil || len(rep.Sets) != 1 {
			t.Fatalf("%v: %s", err, r.stdout)
		}
		return rep.Counts, rep.Sets[0].Incremental.Retried
	}
	if counts, retried := runIncremental("--collection", collA); retried != 2 || counts.Updated != 1 || counts.LeftOut != 1 {
		t.Errorf("counts %+v, retried %d; want 2 retried: 1 updated, 1 left out", counts, retried)
	}
	if onDisk(t, dest, res[0].URI) == before[res[0].Path] {
		t.Errorf("the failure of a member was not retried")
	}
	if onDisk(t, dest, res[3].URI) != before[res[3].Path] {
		t.Errorf("the failure of a resource of another collection was retried")
	}
	// Without --collection it is retried.
	if counts, retried := runIncremental(); retried != 1 || counts.Updated != 1 || counts.LeftOut != 0 {
		t.Errorf("without --collection: counts %+v, retried %d; want 1 retried, updated", counts, retried)
	}
}
