package incremental_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
	"github.com/resync-dest/resync-dest/state"
)

// harness is a fixture Source on loopback and a Destination made of the
// real adapters: the HTTP client, a mirror in a temp directory and a
// SQLite state file.
type harness struct {
	t      *testing.T
	src    *fixtures.Source
	srv    *fixtures.Server
	client *source.Client
	dest   string
	local  *desttest.Local
	mirror *mirror.Mirror // local's
	db     *state.DB      // local's
	setID  int64
}

func newHarness(t *testing.T, mod func(*fixtures.Spec)) *harness {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 40
	spec.ChangeListMax = 5
	if mod != nil {
		mod(&spec)
	}
	src, srv := fixtures.NewServed(t, spec)
	h := &harness{t: t, src: src, srv: srv, client: desttest.Client(t), dest: filepath.Join(t.TempDir(), "mirror")}
	h.open(false)
	return h
}

// open opens the mirror and the state, read-only for a dry run.
func (h *harness) open(readOnly bool) {
	t := h.t
	t.Helper()
	h.local = desttest.Open(t, h.dest, readOnly)
	h.mirror, h.db = h.local.Mirror, h.local.DB
	set, err := h.db.EnsureSet(context.Background(), h.src.CapabilityListURL(0), h.src.SourceDescriptionURL())
	if err != nil {
		t.Fatal(err)
	}
	h.setID = set.ID
}

func (h *harness) close() { h.local.Close() }

func (h *harness) reopen(readOnly bool) {
	h.close()
	h.open(readOnly)
}

func (h *harness) scope() resourcesync.Scope {
	return resourcesync.NewScope([]string{h.src.URL()}, nil)
}

// baseline makes the first copy, from the Resource List; it fails the
// test on an error, not on per-resource failures.
func (h *harness) baseline() *baseline.Summary {
	h.t.Helper()
	o := baseline.DefaultOptions()
	o.Workers, o.Scope = 4, h.scope()
	d := baseline.Deps{Fetcher: h.client, Mirror: h.mirror, Store: h.db, Log: zerolog.Nop(),
		NewListing: func() (baseline.Listing, error) { return state.NewListing(h.t.TempDir()) }}
	set := baseline.Set{ID: h.setID, CapabilityList: h.src.CapabilityListURL(0), ResourceList: h.src.ResourceListURL(0)}
	sum, err := baseline.Run(context.Background(), set, d, o)
	if err != nil {
		h.t.Fatalf("baseline: %v (%+v)", err, sum.Counts)
	}
	return sum
}

// state is the set as the state records it.
func (h *harness) state() resourcesync.SetState {
	h.t.Helper()
	st, ok, err := h.db.Set(context.Background(), h.src.CapabilityListURL(0))
	if err != nil || !ok {
		h.t.Fatalf("set: %v %v", ok, err)
	}
	return st
}

// run runs an incremental sync from the state's cursor with default
// options changed by mod.
func (h *harness) run(mod func(*incremental.Options)) (*incremental.Summary, error) {
	h.t.Helper()
	return h.runFrom(h.state().Cursor, mod)
}

func (h *harness) runFrom(cursor time.Time, mod func(*incremental.Options)) (*incremental.Summary, error) {
	h.t.Helper()
	o := incremental.DefaultOptions()
	o.Workers, o.Scope = 4, h.scope()
	if mod != nil {
		mod(&o)
	}
	set := incremental.Set{ID: h.setID, CapabilityList: h.src.CapabilityListURL(0), ChangeList: h.src.ChangeListURL(0), Cursor: cursor}
	d := incremental.Deps{Fetcher: h.client, Mirror: h.mirror, Store: h.db, Log: zerolog.Nop()}
	return incremental.Run(context.Background(), set, d, o)
}

// mustRun runs an incremental sync that must succeed.
func (h *harness) mustRun(mod func(*incremental.Options)) *incremental.Summary {
	h.t.Helper()
	sum, err := h.run(mod)
	if err != nil {
		h.t.Fatalf("incremental: %v", err)
	}
	return sum
}

func withDelete(o *incremental.Options) {
	o.Delete, o.MaxDelete = true, baseline.DeleteLimit{Percent: 100, IsPercent: true}
}

// advance makes n random changes one second apart.
func (h *harness) advance(n int) {
	h.t.Helper()
	if err := h.src.AdvanceRandom(n, time.Second); err != nil {
		h.t.Fatal(err)
	}
}

// pathOf is where the mirror keeps uri.
func (h *harness) pathOf(uri string) string {
	h.t.Helper()
	rel, err := h.mirror.Path(uri)
	if err != nil {
		h.t.Fatal(err)
	}
	return filepath.Join(h.dest, filepath.FromSlash(rel))
}

// assertIdentical checks that the mirror holds exactly the Source's live
// resources of set 0 plus extra (URIs kept locally), byte for byte, and
// that the state holds what the disk holds.
func (h *harness) assertIdentical(extra ...string) {
	t := h.t
	t.Helper()
	want := map[string][]byte{}
	uris := map[string]string{}
	for _, r := range h.src.Resources(0) {
		b, _ := h.src.Content(r.URI)
		want[h.pathOf(r.URI)] = b
		uris[h.pathOf(r.URI)] = r.URI
	}
	got := h.files()
	for _, u := range extra {
		p := h.pathOf(u)
		if _, ok := got[p]; !ok {
			t.Errorf("%s was deleted locally", u)
		}
		delete(got, p)
	}
	for p, b := range want {
		if !bytes.Equal(got[p], b) {
			t.Errorf("%s: mirror has %d bytes, Source %d (or different bytes)", p, len(got[p]), len(b))
		}
		delete(got, p)
	}
	for p := range got {
		t.Errorf("extra file in the mirror: %s", p)
	}
	for p, u := range uris {
		held, ok, err := h.db.Held(context.Background(), h.setID, u)
		if err != nil || !ok {
			t.Errorf("the state does not hold %s (%v)", u, err)
			continue
		}
		if held.Length != int64(len(want[p])) {
			t.Errorf("the state says %s has %d bytes, the disk %d", u, held.Length, len(want[p]))
		}
	}
}

// files reads every regular file of the mirror outside .resync-dest,
// keyed by its path as pathOf gives it.
func (h *harness) files() map[string][]byte {
	h.t.Helper()
	out := map[string][]byte{}
	for rel, b := range fixtures.MirrorFiles(h.t, h.dest) {
		out[filepath.Join(h.dest, filepath.FromSlash(rel))] = b
	}
	return out
}

// changeDone reports whether the state recorded the change as applied.
func (h *harness) changeDone(c fixtures.ChangeInfo) bool {
	h.t.Helper()
	rec, failed, err := h.db.ChangeStatus(context.Background(), h.setID, c.URI, c.Change, c.At)
	if err != nil {
		h.t.Fatal(err)
	}
	return rec && !failed
}

// rawChange is one entry of a Change List written by hand.
type rawChange struct {
	loc, lastmod, change, extra string
}

// rawChangeList is a Change List (not an index) with the given entries,
// for Sources whose history the fixture cannot produce (offsets, equal
// times of one URI, stale hashes).
func rawChangeList(from string, entries ...rawChange) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changelist" from="` + from + `"/>
`)
	for _, e := range entries {
		fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod><rs:md change=%q %s/></url>\n", e.loc, e.lastmod, e.change, e.extra)
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// md describes a resource's current version as rs:md attributes.
func md(r fixtures.ResourceInfo) string {
	return fmt.Sprintf(`hash=%q length="%d"`, r.Fixity.String(), r.Size)
}
