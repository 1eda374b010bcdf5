package state

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// asVersion1 turns the state at path into what the first schema left: no
// older_names table, user_version 1.
func asVersion1(t *testing.T, path string) {
	t.Helper()
	rawExec(t, path, "DROP INDEX resources_linked", "ALTER TABLE resources DROP COLUMN links", "DROP TABLE conditions", "DROP TABLE out_of_scope_entries", "DROP TABLE out_of_scope", "DROP TABLE older_names", "PRAGMA user_version = 1")
}

// A state written before the mapping had versions lists every set as named
// by version 1: read-only (which cannot upgrade it, and reads it as it
// is) and once upgraded. Sets recorded after the upgrade are named by the
// current rules.
func TestOlderNamesAfterUpgrade(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s := populate(t, path)
	db := openAt(t, path)
	s2 := ensureSet(t, db, "http://example.org/two/capabilitylist.xml")
	db.Close()
	asVersion1(t, path)
	want := map[int64]int{s.ID: 1, s2.ID: 1}

	ro := openReadOnly(t, path)
	if got, err := ro.OlderNames(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read-only OlderNames of a version-1 state = %v, %v; want %v", got, err, want)
	}
	if sets, err := ro.Sets(ctx); err != nil || len(sets) != 2 {
		t.Errorf("read-only Sets of a version-1 state = %v, %v", sets, err)
	}
	if hs := allHeld(t, ro, s.ID); len(hs) != 1 || hs[0].Path != "example.org/a" {
		t.Errorf("read-only EachHeld of a version-1 state = %+v", hs)
	}
	wantErrIs(t, ro.Repath(ctx, []resourcesync.Moved{{URI: "u", From: "a", To: "b"}}), ErrReadOnly)
	wantErrIs(t, ro.NamesCurrent(ctx, s.ID), ErrReadOnly)
	if hosts, err := ro.OutOfScopeHosts(ctx, 10); err != nil || len(hosts) != 0 {
		t.Errorf("read-only OutOfScopeHosts of a version-1 state = %v, %v", hosts, err)
	}
	if cs, err := ro.Conditions(ctx); err != nil || len(cs) != 0 {
		t.Errorf("read-only Conditions of a version-1 state = %v, %v", cs, err)
	}
	ro.Close()

	db = openAt(t, path)
	if got, err := db.OlderNames(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("OlderNames after the upgrade = %v, %v; want %v", got, err, want)
	}
	s3 := ensureSet(t, db, "http://example.org/three/capabilitylist.xml")
	if err := db.NamesCurrent(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := db.OlderNames(ctx); err != nil || !reflect.DeepEqual(got, map[int64]int{s2.ID: 1}) {
		t.Errorf("OlderNames after NamesCurrent(%d), with set %d new = %v, %v; want only set %d", s.ID, s3.ID, got, err, s2.ID)
	}
}

// Repath moves every record of the URI at the old path, whichever set
// holds it, in one transaction; records elsewhere stay.
func TestRepath(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	a := ensureSet(t, db, "http://example.org/a/capabilitylist.xml")
	b := ensureSet(t, db, "http://example.org/b/capabilitylist.xml")
	commit(t, db, a.ID, &Batch{Held: []resourcesync.Held{
		held("http://h/a b", "h/a%20b", 1),
		held("http://h/c d", "h/c%20d", 2),
		held("http://h/x", "h/x", 3),
	}})
	commit(t, db, b.ID, &Batch{Held: []resourcesync.Held{
		held("http://h/a b", "h/a%20b", 1),      // the same file
		held("http://h/c d", "mapped/c%20d", 2), // the same URI under another map
	}})
	if err := db.Repath(ctx, []resourcesync.Moved{
		{URI: "http://h/a b", From: "h/a%20b", To: "h/a b"},
		{URI: "http://h/c d", From: "h/c%20d", To: "h/c d"},
	}); err != nil {
		t.Fatal(err)
	}
	paths := func(setID int64) []string {
		var out []string
		for _, h := range allHeld(t, db, setID) {
			out = append(out, h.URI+" "+h.Path)
		}
		return out
	}
	if got, want := paths(a.ID), []string{"http://h/a b h/a b", "http://h/c d h/c d", "http://h/x h/x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("set a: %q, want %q", got, want)
	}
	if got, want := paths(b.ID), []string{"http://h/a b h/a b", "http://h/c d mapped/c%20d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("set b: %q, want %q", got, want)
	}
	// All or nothing: an invalid move records none of the batch.
	err := db.Repath(ctx, []resourcesync.Moved{{URI: "http://h/x", From: "h/x", To: "h/y"}, {URI: "http://h/x", From: "h/x"}})
	wantErrIs(t, err, ErrInvalid)
	if got := allHeld(t, db, a.ID)[2].Path; got != "h/x" {
		t.Errorf("after a failed Repath, h/x is recorded at %q", got)
	}
}
