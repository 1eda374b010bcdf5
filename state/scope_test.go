package state

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// Out-of-scope hosts are recorded once each: a host seen again keeps its
// first sighting and gets the new count and sample; a complete run forgets
// the hosts it did not see, an incomplete one does not; a read-only open
// reads them and cannot record.
func TestRecordOutOfScope(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	db := openAt(t, path)
	first := []OutOfScope{
		{Host: "other.example", Reason: "r1", Entries: 3, URIs: []string{"http://other.example/b", "http://other.example/a"}},
		{Host: "", Reason: "no host", Entries: 1, URIs: []string{"mailto:x"}},
	}
	if err := db.RecordOutOfScope(ctx, first, true); err != nil {
		t.Fatal(err)
	}
	got, err := db.OutOfScopeHosts(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []OutOfScope{
		{Host: "", Reason: "no host", Entries: 1, FirstSeen: t0, LastSeen: t0, URIs: []string{"mailto:x"}},
		{Host: "other.example", Reason: "r1", Entries: 3, FirstSeen: t0, LastSeen: t0, URIs: []string{"http://other.example/a", "http://other.example/b"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	// An incomplete run (one set) sees only one host: the other stays.
	if err := db.RecordOutOfScope(ctx, []OutOfScope{{Host: "other.example", Reason: "r2", Entries: 5, URIs: []string{"http://other.example/c"}}}, false); err != nil {
		t.Fatal(err)
	}
	got, err = db.OutOfScopeHosts(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Entries != 5 || got[1].Reason != "r2" || !reflect.DeepEqual(got[1].URIs, []string{"http://other.example/c"}) {
		t.Fatalf("after an incomplete run: %+v", got)
	}
	// A complete run that sees nothing forgets them all.
	if err := db.RecordOutOfScope(ctx, nil, true); err != nil {
		t.Fatal(err)
	}
	if got, err := db.OutOfScopeHosts(ctx, 10); err != nil || len(got) != 0 {
		t.Fatalf("after a complete run with none: %+v, %v", got, err)
	}
	if err := db.RecordOutOfScope(ctx, first, true); err != nil {
		t.Fatal(err)
	}
	ro := openReadOnly(t, path)
	defer ro.Close()
	if got, err := ro.OutOfScopeHosts(ctx, 0); err != nil || len(got) != 2 || got[1].URIs != nil {
		t.Errorf("read-only: %+v, %v", got, err)
	}
	if err := ro.RecordOutOfScope(ctx, first, true); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only record: %v", err)
	}
}
