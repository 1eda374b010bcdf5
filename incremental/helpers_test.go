package incremental_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// harness is the shared one (desttest.Harness), open read-write.
type harness struct {
	*desttest.Harness
}

func newHarness(t *testing.T, mod func(*fixtures.Spec)) *harness {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 40
	spec.ChangeListMax = 5
	if mod != nil {
		mod(&spec)
	}
	h := &harness{desttest.NewHarness(t, spec)}
	h.Open(false)
	return h
}

// baseline makes the first copy, from the Resource List; it fails the
// test on an error, not on per-resource failures.
func (h *harness) baseline() *baseline.Summary {
	h.T.Helper()
	sum, err := h.Baseline(0, nil)
	if err != nil {
		h.T.Fatalf("baseline: %v (%+v)", err, sum.Counts)
	}
	return sum
}

// state is the set as the state records it.
func (h *harness) state() resourcesync.SetState {
	h.T.Helper()
	st, ok, err := h.DB.Set(context.Background(), h.Src.CapabilityListURL(0))
	if err != nil || !ok {
		h.T.Fatalf("set: %v %v", ok, err)
	}
	return st
}

// run runs an incremental sync from the state's cursor with default
// options changed by mod.
func (h *harness) run(mod func(*incremental.Options)) (*incremental.Summary, error) {
	h.T.Helper()
	return h.Incremental(h.Cursor(), mod)
}

// mustRun runs an incremental sync that must succeed.
func (h *harness) mustRun(mod func(*incremental.Options)) *incremental.Summary {
	h.T.Helper()
	sum, err := h.run(mod)
	if err != nil {
		h.T.Fatalf("incremental: %v", err)
	}
	return sum
}

func withDelete(o *incremental.Options) {
	o.Delete, o.MaxDelete = true, transfer.DeleteLimit{Percent: 100, IsPercent: true}
}

// advance makes n random changes one second apart.
func (h *harness) advance(n int) {
	h.T.Helper()
	if err := h.Src.AdvanceRandom(n, time.Second); err != nil {
		h.T.Fatal(err)
	}
}

// assertIdentical checks that the mirror holds exactly the Source's live
// resources of set 0 plus extra (URIs kept locally), byte for byte, and
// that the state holds what the disk holds.
func (h *harness) assertIdentical(extra ...string) {
	h.T.Helper()
	h.AssertIdentical(extra...)
	h.AssertHeld()
}

// changeDone reports whether the state recorded the change as applied.
func (h *harness) changeDone(c fixtures.ChangeInfo) bool {
	h.T.Helper()
	rec, failed, err := h.DB.ChangeStatus(context.Background(), h.SetID, c.URI, c.Change, c.At)
	if err != nil {
		h.T.Fatal(err)
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
