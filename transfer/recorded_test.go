package transfer_test

import (
	"context"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// The links a unit records (§14: describedby, collection, via ...) go
// into its record with its bytes; a copy in step whose entry's links
// changed has its record rewritten without a fetch; a unit that does not
// say its links (a companion, a failure retried) keeps those recorded.
func TestEngineRecordsLinks(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)[:2]
	meta := resourcesync.Link{Rel: resourcesync.RelDescribedBy, Href: "http://meta.example/r0.xml", Type: "application/xml"}
	via := resourcesync.Link{Rel: resourcesync.RelVia, Href: "http://original.example/r0"}
	coll := resourcesync.Link{Rel: resourcesync.RelCollection, Href: "http://coll.example/1"}
	run := func(record bool, links ...resourcesync.Link) {
		t.Helper()
		u0, u1 := unit(rs[0], rs[0].LastMod), unit(rs[1], rs[1].LastMod)
		u0.Links, u0.RecordLinks = links, record
		u1.RecordLinks = true
		h.Src.ResetCounts()
		if err := h.run(&planner{units: []*transfer.Unit{u0, u1}}, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	recorded := func(uri string) []resourcesync.Link {
		t.Helper()
		held, ok, err := h.DB.Held(context.Background(), h.SetID, uri)
		if err != nil || !ok {
			t.Fatalf("held %s: %v %v", uri, ok, err)
		}
		return held.Links
	}
	for _, step := range []struct {
		name    string
		record  bool
		links   []resourcesync.Link
		want    []resourcesync.Link
		fetched int
	}{
		{"first fetch", true, []resourcesync.Link{meta, via}, []resourcesync.Link{meta, via}, 2},
		{"in step, same links", true, []resourcesync.Link{meta, via}, []resourcesync.Link{meta, via}, 0},
		{"in step, links changed", true, []resourcesync.Link{coll}, []resourcesync.Link{coll}, 0},
		{"links not said", false, nil, []resourcesync.Link{coll}, 0},
		{"no links any more", true, nil, nil, 0},
	} {
		run(step.record, step.links...)
		if n := h.Src.ResourceBodies(); n != step.fetched {
			t.Errorf("%s: %d bodies fetched, want %d", step.name, n, step.fetched)
		}
		if got := recorded(rs[0].URI); !resourcesync.SameLinks(got, step.want) || (got == nil) != (step.want == nil) {
			t.Errorf("%s: links recorded %+v, want %+v", step.name, got, step.want)
		}
		if got := recorded(rs[1].URI); got != nil {
			t.Errorf("%s: a resource without links has %+v", step.name, got)
		}
	}
}
