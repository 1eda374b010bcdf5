package state

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
)

// Conditions are recorded per kind and host: a run sees some again
// (first sighting kept), an incomplete run forgets nothing, a complete one
// forgets the hosts of its kind it did not see - never another kind's.
func TestRecordConditions(t *testing.T) {
	ctx := context.Background()
	db := openAt(t, filepath.Join(t.TempDir(), "state.db"))
	if err := db.RecordConditions(ctx, "lastmod", []Condition{{Host: "a.example", Reason: "r1", Entries: 3}, {Host: "b.example", Reason: "r2", Entries: 1}}, true); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordConditions(ctx, "misdated", []Condition{{Host: "a.example", Reason: "m", Entries: 2}}, false); err != nil {
		t.Fatal(err)
	}
	got, err := db.Conditions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []Condition{
		{Kind: "lastmod", Host: "a.example", Reason: "r1", Entries: 3, FirstSeen: t0, LastSeen: t0},
		{Kind: "lastmod", Host: "b.example", Reason: "r2", Entries: 1, FirstSeen: t0, LastSeen: t0},
		{Kind: "misdated", Host: "a.example", Reason: "m", Entries: 2, FirstSeen: t0, LastSeen: t0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	// A complete run of lastmod that sees a.example only forgets b.example,
	// not the misdated record of a.example.
	if err := db.RecordConditions(ctx, "lastmod", []Condition{{Host: "a.example", Reason: "r3", Entries: 4}}, true); err != nil {
		t.Fatal(err)
	}
	got, err = db.Conditions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want = []Condition{
		{Kind: "lastmod", Host: "a.example", Reason: "r3", Entries: 4, FirstSeen: t0, LastSeen: t0},
		{Kind: "misdated", Host: "a.example", Reason: "m", Entries: 2, FirstSeen: t0, LastSeen: t0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after a complete run: got %+v\nwant %+v", got, want)
	}
}
