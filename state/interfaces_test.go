package state

import (
	"context"
	"testing"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// The state satisfies the interfaces the workers declare.
var (
	_ transfer.Store   = (*DB)(nil)
	_ baseline.Store   = (*DB)(nil)
	_ agent.Store      = (*DB)(nil)
	_ baseline.Listing = (*Listing)(nil)
)

func TestHeldAt(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.EnsureSet(ctx, "http://example.org/cl.xml", "")
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.EnsureSet(ctx, "http://example.org/cl2.xml", "")
	if err != nil {
		t.Fatal(err)
	}
	h := resourcesync.Held{URI: "http://example.org/a", Path: "example.org/a", Length: 1}
	commit(t, db, other.ID, &Batch{Held: []resourcesync.Held{h}})
	if _, ok, err := db.HeldAt(ctx, s.ID, h.Path); err != nil || ok {
		t.Fatalf("HeldAt in a set that does not hold it: %v %v", ok, err)
	}
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{h}})
	got, ok, err := db.HeldAt(ctx, s.ID, h.Path)
	if err != nil || !ok || got.URI != h.URI {
		t.Fatalf("HeldAt = %+v %v %v", got, ok, err)
	}
}
