package state

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// A file of schema version 4 (no links column), opened read-only - which
// does not migrate it - reads its records without links; opened to write,
// it is migrated and records links.
func TestLinksOfAnOlderFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s := populate(t, path)
	rawExec(t, path, "DROP INDEX resources_linked", "ALTER TABLE resources DROP COLUMN links", "PRAGMA user_version = 4")
	opts := DefaultOptions()
	opts.Path, opts.ReadOnly = path, true
	ro, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	h, ok, err := ro.Held(ctx, s.ID, "http://example.org/a")
	if err != nil || !ok || h.Links != nil {
		t.Fatalf("Held of a version 4 file: %+v %v %v", h, ok, err)
	}
	if many, err := ro.HeldMany(ctx, s.ID, []string{"http://example.org/a"}); err != nil || len(many) != 1 {
		t.Fatalf("HeldMany of a version 4 file: %v %v", many, err)
	}
	if err := ro.EachHeld(ctx, s.ID, func(resourcesync.Held) error { return nil }); err != nil {
		t.Fatalf("EachHeld of a version 4 file: %v", err)
	}
	if o, err := ro.Provenance(ctx, s.ID); err != nil || len(o) != 0 {
		t.Fatalf("Provenance of a version 4 file: %v %v", o, err)
	}
	ro.Close()

	db := openAt(t, path)
	via := []resourcesync.Link{{Rel: resourcesync.RelVia, Href: "http://original.example/a"}}
	rec := held("http://example.org/a", "example.org/a", 3)
	rec.Links = via
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{rec}})
	if h, _, err := db.Held(ctx, s.ID, rec.URI); err != nil || !resourcesync.SameLinks(h.Links, via) {
		t.Fatalf("after the migration: %+v %v", h.Links, err)
	}
}
