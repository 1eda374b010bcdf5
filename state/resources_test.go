package state

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestEachHeldOrderAndPaging(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	other := ensureSet(t, db, "http://example.org/other.xml")
	// Byte order: "a-b" < "a.b" < "a/b" < "aa" < "é"; "B" < "a".
	paths := []string{"a/b", "a-b", "a.b", "aa", "a", "B", "é", "a/b/c", "a/b-c"}
	for i := range 2*heldPage + 7 { // several pages
		paths = append(paths, fmt.Sprintf("h/%05d", i))
	}
	var b Batch
	for i, p := range paths {
		b.Held = append(b.Held, held(fmt.Sprintf("http://example.org/%d", i), p, int64(i)))
	}
	commit(t, db, s.ID, &b)
	commit(t, db, other.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/z", "0", 1)}})

	want := append([]string(nil), paths...)
	sort.Strings(want) // Go compares strings bytewise, as BINARY does
	var got []string
	err := db.EachHeld(ctx, s.ID, func(h resourcesync.Held) error {
		got = append(got, h.Path)
		// The callback may use the DB: no connection is held across it.
		if _, ok, err := db.Held(ctx, s.ID, h.URI); err != nil || !ok {
			return fmt.Errorf("nested Held(%s) = %v, %v", h.URI, ok, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("EachHeld gave %d paths, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("EachHeld path %d = %q, want %q (first 12: %q)", i, got[i], want[i], got[:12])
		}
	}

	stop := errors.New("stop")
	n := 0
	err = db.EachHeld(ctx, s.ID, func(resourcesync.Held) error {
		n++
		if n == heldPage+1 {
			return stop
		}
		return nil
	})
	if err != stop || n != heldPage+1 {
		t.Errorf("EachHeld stopping = %v after %d calls; want the callback's own error after %d", err, n, heldPage+1)
	}
}

// Two URIs at one path (possible after the user changes --map) are both
// walked, in URI order, and paging does not lose either.
func TestEachHeldEqualPaths(t *testing.T) {
	db := openTest(t)
	s := ensureSet(t, db, capList)
	var b Batch
	for i := range heldPage + 1 {
		b.Held = append(b.Held, held(fmt.Sprintf("http://example.org/%04d", i), "same", 1))
	}
	commit(t, db, s.ID, &b)
	hs := allHeld(t, db, s.ID)
	if len(hs) != heldPage+1 {
		t.Fatalf("EachHeld gave %d, want %d", len(hs), heldPage+1)
	}
	for i := 1; i < len(hs); i++ {
		if hs[i-1].URI >= hs[i].URI {
			t.Fatalf("URIs out of order at %d: %s, %s", i, hs[i-1].URI, hs[i].URI)
		}
	}
}

func TestHeldMany(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	other := ensureSet(t, db, "http://example.org/other.xml")
	var b Batch
	var uris []string
	for i := range 2*heldManyChunk + 30 { // two full chunks and a short one
		u := fmt.Sprintf("http://example.org/%04d", i)
		uris = append(uris, u)
		if i%3 != 0 { // every third is not held
			b.Held = append(b.Held, held(u, fmt.Sprintf("p/%04d", i), int64(i)))
		}
	}
	commit(t, db, s.ID, &b)
	commit(t, db, other.ID, &Batch{Held: []resourcesync.Held{held(uris[0], "p/0000", 0)}})
	uris = append(uris, uris[1], "") // a repeat, and the padding value itself

	got, err := db.HeldMany(ctx, s.ID, uris)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(b.Held) {
		t.Errorf("HeldMany found %d, want %d", len(got), len(b.Held))
	}
	for _, u := range uris {
		one, ok, err := db.Held(ctx, s.ID, u)
		if err != nil {
			t.Fatal(err)
		}
		many, found := got[u]
		if ok != found || ok && !reflect.DeepEqual(one, many) {
			t.Errorf("%q: Held = %+v, %v; HeldMany = %+v, %v", u, one, ok, many, found)
		}
	}
	if got, err := db.HeldMany(ctx, s.ID, nil); err != nil || len(got) != 0 {
		t.Errorf("HeldMany(nil) = %v, %v", got, err)
	}
}

// The batched lookups check their context before each query (and no
// longer watch it during one): a done context gets its error, not an
// answer.
func TestBatchedLookupsRefuseADoneContext(t *testing.T) {
	db := openTest(t)
	s := ensureSet(t, db, capList)
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/a", "a", 1)}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		look func() (int, error)
	}{
		{"HeldMany", func() (int, error) {
			got, err := db.HeldMany(ctx, s.ID, []string{"http://example.org/a"})
			return len(got), err
		}},
		{"PathOwners", func() (int, error) {
			got, err := db.PathOwners(ctx, s.ID, []string{"a"})
			return len(got), err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.look()
			wantErrIs(t, err, context.Canceled)
			if n != 0 {
				t.Errorf("%d answers with a done context", n)
			}
		})
	}
}

// PathOwners answers, for many paths at once (more than one chunk), the
// URI a set holds at each - the first by URI when twins share one - and
// nothing for paths only another set holds.
func TestPathOwners(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	other := ensureSet(t, db, "http://example.org/other.xml")
	var b Batch
	var paths []string
	for i := range heldManyChunk + 5 {
		p := fmt.Sprintf("h/%05d", i)
		paths = append(paths, p)
		b.Held = append(b.Held, held(fmt.Sprintf("http://example.org/%05d", i), p, 1))
	}
	b.Held = append(b.Held, held("http://example.org/%7Etwin", "h/~twin", 1), held("http://example.org/~twin", "h/~twin", 1))
	commit(t, db, s.ID, &b)
	commit(t, db, other.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/z", "z", 1)}})

	got, err := db.PathOwners(ctx, s.ID, append(paths, "h/~twin", "z", "nowhere"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(paths)+1 {
		t.Errorf("%d owners, want %d", len(got), len(paths)+1)
	}
	for i, p := range paths {
		if want := fmt.Sprintf("http://example.org/%05d", i); got[p] != want {
			t.Errorf("owner of %s = %q, want %q", p, got[p], want)
		}
	}
	if got["h/~twin"] != "http://example.org/%7Etwin" {
		t.Errorf("owner of the twins' path = %q, want the first URI", got["h/~twin"])
	}
	if _, ok := got["z"]; ok {
		t.Error("a path only another set holds has an owner in this set")
	}
}

// MoveSet renames a set, keeping its records; it moves nothing onto a set
// that exists, nor a set that does not.
func TestMoveSet(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const moved = "https://example.org/capabilitylist.xml"
	s := ensureSet(t, db, capList)
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/a", "a", 1)}})
	other := ensureSet(t, db, "http://example.org/other.xml")
	for _, tc := range []struct {
		from, to string
		want     bool
	}{
		{capList, other.CapabilityList, false}, // onto a recorded set
		{"http://example.org/none.xml", "https://example.org/none.xml", false},
		{capList, moved, true},
	} {
		if got, err := db.MoveSet(ctx, tc.from, tc.to); err != nil || got != tc.want {
			t.Errorf("MoveSet(%s, %s) = %v, %v; want %v", tc.from, tc.to, got, err, tc.want)
		}
	}
	got, ok, err := db.Set(ctx, moved)
	if err != nil || !ok || got.ID != s.ID {
		t.Fatalf("Set(%s) = %+v, %v, %v; want set %d", moved, got, ok, err, s.ID)
	}
	if _, ok, _ := db.Set(ctx, capList); ok {
		t.Errorf("the old name %s is still a set", capList)
	}
	if _, ok, err := db.Held(ctx, s.ID, "http://example.org/a"); err != nil || !ok {
		t.Errorf("the moved set lost its record (%v, %v)", ok, err)
	}
}

// TestForgetSet: a set the Source no longer names is forgotten with all
// its records - its paths are no one's then - and the other sets and the
// runs keep theirs.
func TestForgetSet(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	gone := ensureSet(t, db, capList)
	kept := ensureSet(t, db, "http://example.org/other.xml")
	commit(t, db, gone.ID, &Batch{
		Held:   []resourcesync.Held{held("http://example.org/a", "example.org/a", 1)},
		Failed: []resourcesync.Failure{{URI: "http://example.org/b", Cause: "404"}},
	})
	commit(t, db, kept.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/c", "example.org/c", 1)}})
	run, err := db.StartRun(ctx, "sync")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddRunSets(ctx, run, gone.ID, kept.ID); err != nil {
		t.Fatal(err)
	}
	for _, want := range []bool{true, false} {
		if got, err := db.ForgetSet(ctx, capList); err != nil || got != want {
			t.Fatalf("ForgetSet = %v, %v; want %v", got, err, want)
		}
	}
	if _, ok, _ := db.Set(ctx, capList); ok {
		t.Error("the forgotten set is still recorded")
	}
	if ids, err := db.PathHolders(ctx, "example.org/a"); err != nil || len(ids) != 0 {
		t.Errorf("PathHolders of the forgotten set's file = %v, %v; want none", ids, err)
	}
	if f, err := db.Failures(ctx, gone.ID); err != nil || len(f) != 0 {
		t.Errorf("the forgotten set's failures = %v, %v; want none", f, err)
	}
	if _, ok, err := db.Held(ctx, kept.ID, "http://example.org/c"); err != nil || !ok {
		t.Errorf("the other set lost its record (%v, %v)", ok, err)
	}
	if runs, err := db.Runs(ctx, 10); err != nil || len(runs) != 1 {
		t.Errorf("runs after forgetting a set: %d, %v; want the one run", len(runs), err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}
