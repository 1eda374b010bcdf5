package transfer_test

import (
	"os"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// A unit of which the planner knows only the URI (ByRecord: a bare
// deletion, a failure retried that no change names) is judged by
// --collection on the collection links recorded with the copy held, or
// with its twin's when the set holds it under the other spelling; a
// record without any leaves it out, as does a unit not ByRecord that
// names no collection.
func TestEngineByRecordCollections(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)[:8]
	const collA, collB = "http://coll.example/a", "http://coll.example/b"
	in := func(c string) []resourcesync.Link {
		return []resourcesync.Link{{Rel: resourcesync.RelDescribedBy, Href: "http://meta.example/m"}, {Rel: resourcesync.RelCollection, Href: c}}
	}
	recorded := [][]resourcesync.Link{in(collA), in(collB), nil, in(collA), in(collA), in(collA), in(collA), in(collB)}
	p := &planner{}
	for i, r := range rs {
		u := unit(r, r.LastMod)
		u.Links, u.RecordLinks = recorded[i], true
		p.units = append(p.units, u)
	}
	if err := h.run(p, nil, nil); err != nil || h.counts.Created != int64(len(rs)) {
		t.Fatalf("%v %+v", err, h.counts)
	}

	twin := func(uri string) string { return "https://" + strings.TrimPrefix(uri, "http://") }
	gone := func(uri string, byRecord bool) *transfer.Unit {
		return &transfer.Unit{URI: uri, Gone: true, ByRecord: byRecord}
	}
	retried := func(uri string, byRecord bool) *transfer.Unit {
		return &transfer.Unit{URI: uri, Retry: true, Revalidate: true, ByRecord: byRecord}
	}
	tests := []struct {
		name string
		u    *transfer.Unit
		want transfer.Outcome
		file bool // rs[i]'s file is still there
	}{
		{"bare deletion, recorded in A", gone(rs[0].URI, true), transfer.Deleted, false},
		{"bare deletion, recorded in B", gone(rs[1].URI, true), transfer.Skipped, true},
		{"bare deletion, recorded in none", gone(rs[2].URI, true), transfer.Skipped, true},
		{"deletion not by record, naming no collection", gone(rs[3].URI, false), transfer.Skipped, true},
		{"failure retried, recorded in A", retried(rs[4].URI, true), transfer.Unchanged, true},
		{"failure retried, not by record", retried(rs[5].URI, false), transfer.Skipped, true},
		{"bare deletion of a twin spelling, its record in A", gone(twin(rs[6].URI), true), transfer.Deleted, false},
		{"bare deletion of a twin spelling, its record in B", gone(twin(rs[7].URI), true), transfer.Skipped, true},
	}
	p = &planner{}
	for _, tt := range tests {
		p.units = append(p.units, tt.u)
	}
	f, err := resourcesync.Filter{}.InCollections([]string{collA})
	if err != nil {
		t.Fatal(err)
	}
	h.counts = resourcesync.Counts{}
	err = h.run(p, nil, func(o *transfer.RunOptions) {
		o.Filter, o.Delete, o.MaxDelete = f, true, transfer.DeleteLimit{Count: 100}
	})
	if err != nil || h.counts.Deleted != 2 || h.counts.LeftOut != 5 {
		t.Fatalf("%v: counts %+v, want 2 deleted, 5 left out", err, h.counts)
	}
	outcome := map[string]transfer.Outcome{}
	for _, r := range p.recorded {
		outcome[r.Unit.URI] = r.Outcome
	}
	for i, tt := range tests {
		if got := outcome[tt.u.URI]; got != tt.want {
			t.Errorf("%s: outcome %v, want %v", tt.name, got, tt.want)
		}
		if _, err := os.Stat(h.PathOf(rs[i].URI)); (err == nil) != tt.file {
			t.Errorf("%s: file there %v, want %v", tt.name, err == nil, tt.file)
		}
	}
}
