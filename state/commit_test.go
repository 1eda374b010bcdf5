package state

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

const capList = "http://example.org/capabilitylist.xml"

func TestCommitHeld(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	full := resourcesync.Held{
		URI:          "http://example.org/res/1",
		Path:         "example.org/res/1",
		Length:       1234,
		Fixity:       mustFixity(t, "md5:1e0d5cb8ef6ba40c99b14c0237be735e sha-256:854f61290e2e197a11bc91063afce22e43f8ccc655237050ace766adc68dc784"),
		LastMod:      time.Date(2013, 1, 2, 13, 0, 0, 123456789, time.FixedZone("x", 3600)),
		ETag:         `"abc"`,
		LastModified: "Wed, 02 Jan 2013 12:00:00 GMT",
		Fetched:      t0.Add(-time.Minute),
	}
	bare := resourcesync.Held{URI: "http://example.org/res/2", Path: "example.org/res/2"} // no Fetched: now
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{full, bare}})

	got, ok, err := db.Held(ctx, s.ID, full.URI)
	if err != nil || !ok {
		t.Fatalf("Held = %v, %v", ok, err)
	}
	want := full
	want.LastMod = full.LastMod.UTC()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Held =\n%+v\nwant\n%+v", got, want)
	}
	got, _, _ = db.Held(ctx, s.ID, bare.URI)
	if !got.Fetched.Equal(t0) || !got.LastMod.IsZero() || got.Fixity != nil {
		t.Errorf("bare Held = %+v; want Fetched = now, zero LastMod, no fixity", got)
	}
	if _, ok, err := db.Held(ctx, s.ID, "http://example.org/none"); err != nil || ok {
		t.Errorf("Held of an unknown URI = %v, %v", ok, err)
	}
	if _, ok, err := db.Held(ctx, s.ID+1, full.URI); err != nil || ok {
		t.Errorf("Held in another set = %v, %v", ok, err)
	}

	// Upsert: the same URI again replaces the record.
	moved := full
	moved.Path, moved.Length, moved.Fixity, moved.ETag = "example.org/res/1.moved", 9, nil, ""
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{moved}})
	got, _, _ = db.Held(ctx, s.ID, full.URI)
	if got.Path != moved.Path || got.Length != 9 || got.Fixity != nil || got.ETag != "" {
		t.Errorf("after upsert Held = %+v", got)
	}
	if n, err := db.HeldCount(ctx, s.ID); err != nil || n != 2 {
		t.Errorf("HeldCount = %d, %v; want 2", n, err)
	}
	if ids, err := db.PathHolders(ctx, "example.org/res/1"); err != nil || len(ids) != 0 {
		t.Errorf("PathHolders of the old path = %v, %v; want none", ids, err)
	}
	if ids, err := db.PathHolders(ctx, moved.Path); err != nil || !reflect.DeepEqual(ids, []int64{s.ID}) {
		t.Errorf("PathHolders of the new path = %v, %v; want [%d]", ids, err, s.ID)
	}

	// Upsert at the same path: everything but the path is replaced.
	again := moved
	again.Length, again.ETag, again.Fetched = 10, `"v2"`, t0.Add(time.Hour)
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{again}})
	got, _, _ = db.Held(ctx, s.ID, full.URI)
	if got.Path != moved.Path || got.Length != 10 || got.ETag != `"v2"` || !got.Fetched.Equal(again.Fetched) {
		t.Errorf("after an upsert at the same path Held = %+v", got)
	}
	if ids, err := db.PathHolders(ctx, moved.Path); err != nil || !reflect.DeepEqual(ids, []int64{s.ID}) {
		t.Errorf("PathHolders after an upsert at the same path = %v, %v; want [%d]", ids, err, s.ID)
	}
}

func TestPathHoldersAcrossSets(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	a := ensureSet(t, db, "http://example.org/a/capabilitylist.xml")
	b := ensureSet(t, db, "http://example.org/b/capabilitylist.xml")
	commit(t, db, b.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/x", "example.org/x", 1)}})
	commit(t, db, a.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/x", "example.org/x", 1)}})
	ids, err := db.PathHolders(ctx, "example.org/x")
	if err != nil || !reflect.DeepEqual(ids, []int64{a.ID, b.ID}) {
		t.Errorf("PathHolders = %v, %v; want [%d %d]", ids, err, a.ID, b.ID)
	}
	commit(t, db, a.ID, &Batch{Removed: []string{"http://example.org/x"}})
	ids, err = db.PathHolders(ctx, "example.org/x")
	if err != nil || !reflect.DeepEqual(ids, []int64{b.ID}) {
		t.Errorf("PathHolders after a's removal = %v, %v; want [%d]", ids, err, b.ID)
	}
}

// OtherSetsHold is true exactly while a set other than the one asked
// about holds a resource: an empty set, or the set itself, does not count.
func TestOtherSetsHold(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	a := ensureSet(t, db, "http://example.org/a/capabilitylist.xml")
	b := ensureSet(t, db, "http://example.org/b/capabilitylist.xml")
	check := func(when string, set int64, want bool) {
		t.Helper()
		if got, err := db.OtherSetsHold(ctx, set); err != nil || got != want {
			t.Errorf("%s: OtherSetsHold(%d) = %v, %v; want %v", when, set, got, err, want)
		}
	}
	check("empty state", a.ID, false)
	commit(t, db, a.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/x", "example.org/x", 1)}})
	check("a holds, b empty", a.ID, false)
	check("a holds, b empty", b.ID, true)
	commit(t, db, b.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/y", "example.org/y", 1)}})
	check("both hold", a.ID, true)
	commit(t, db, b.ID, &Batch{Removed: []string{"http://example.org/y"}})
	check("b emptied", a.ID, false)
}

func TestCommitFailedRemovedAndClearing(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	u1, u2, u3 := "http://example.org/1", "http://example.org/2", "http://example.org/3"
	commit(t, db, s.ID, &Batch{
		Held:   []resourcesync.Held{held(u3, "example.org/3", 1)},
		Failed: []resourcesync.Failure{{URI: u1, Cause: "404"}, {URI: u2, Cause: "timeout", At: t0.Add(-time.Hour)}},
	})
	commit(t, db, s.ID, &Batch{Failed: []resourcesync.Failure{{URI: u1, Cause: "410"}, {URI: u3, Cause: "hash mismatch"}}})
	recs, err := db.FailureRecords(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []FailureRecord{
		{resourcesync.Failure{URI: u1, Cause: "410", At: t0}, 2},
		{resourcesync.Failure{URI: u2, Cause: "timeout", At: t0.Add(-time.Hour)}, 1},
		{resourcesync.Failure{URI: u3, Cause: "hash mismatch", At: t0}, 1},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("FailureRecords =\n%+v\nwant\n%+v", recs, want)
	}
	// A failed update keeps the copy held.
	if _, ok, _ := db.Held(ctx, s.ID, u3); !ok {
		t.Error("a failure dropped the held copy")
	}

	// Held clears u1's failure, Removed clears u3's (and its record).
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{held(u1, "example.org/1", 1)}, Removed: []string{u3}})
	fs, err := db.Failures(ctx, s.ID)
	if err != nil || !reflect.DeepEqual(fs, []resourcesync.Failure{want[1].Failure}) {
		t.Errorf("Failures = %+v, %v; want only %s", fs, err, u2)
	}
	if _, ok, _ := db.Held(ctx, s.ID, u3); ok {
		t.Error("removed resource still held")
	}
	// Removing what is not held is harmless.
	commit(t, db, s.ID, &Batch{Removed: []string{"http://example.org/never"}})
}

// When one batch both holds and removes a URI, the state claims less.
func TestCommitHeldAndRemovedInOneBatch(t *testing.T) {
	db := openTest(t)
	s := ensureSet(t, db, capList)
	u := "http://example.org/1"
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{held(u, "example.org/1", 1)}, Removed: []string{u}})
	if _, ok, _ := db.Held(context.Background(), s.ID, u); ok {
		t.Error("held after Held+Removed in one batch")
	}
}

// Issue 16: a change recorded as applied settles its resource's failure,
// held or not (a deletion of a resource whose fetch failed); a failed
// change, or an applied one whose batch also records a failure of the
// URI, keeps it.
func TestCommitAppliedChangeClearsItsFailure(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	gone, failing, other := "http://example.org/gone", "http://example.org/failing", "http://example.org/other"
	commit(t, db, s.ID, &Batch{Failed: []resourcesync.Failure{{URI: gone, Cause: "404"}, {URI: failing, Cause: "503"}, {URI: other, Cause: "503"}}})
	t1 := time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC)
	rec := func(uri string, ch resourcesync.Change, failed bool) resourcesync.ChangeRecord {
		return resourcesync.ChangeRecord{URI: uri, Change: ch, Time: t1, List: "http://example.org/cl.xml", Position: 1, Failed: failed}
	}
	commit(t, db, s.ID, &Batch{
		Failed: []resourcesync.Failure{{URI: other, Cause: "hash mismatch"}},
		Changes: []resourcesync.ChangeRecord{rec(gone, resourcesync.ChangeDeleted, false),
			rec(failing, resourcesync.ChangeUpdated, true), rec(other, resourcesync.ChangeUpdated, false)},
	})
	fs, err := db.Failures(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, f := range fs {
		uris = append(uris, f.URI)
	}
	if !reflect.DeepEqual(uris, []string{failing, other}) {
		t.Errorf("failures of %v, want %s and %s", uris, failing, other)
	}
}

func TestCommitChanges(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	u := "http://example.org/1"
	t1 := time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC)
	created := resourcesync.ChangeRecord{URI: u, Change: resourcesync.ChangeCreated, Time: t1, List: "http://example.org/cl1.xml", Position: 1}
	updated := resourcesync.ChangeRecord{URI: u, Change: resourcesync.ChangeUpdated, Time: t1.Add(time.Hour), List: "http://example.org/cl1.xml", Position: 2, Failed: true, Cause: "503"}
	untimed := resourcesync.ChangeRecord{URI: u, Change: resourcesync.ChangeDeleted, Failed: true, Cause: "no time"}
	commit(t, db, s.ID, &Batch{Changes: []resourcesync.ChangeRecord{created, updated, untimed}})

	tests := []struct {
		name             string
		ch               resourcesync.Change
		at               time.Time
		recorded, failed bool
	}{
		{"created", resourcesync.ChangeCreated, t1, true, false},
		{"same instant in another zone", resourcesync.ChangeCreated, t1.In(time.FixedZone("x", -5*3600)), true, false},
		{"other kind at the same time", resourcesync.ChangeUpdated, t1, false, false},
		{"failed update", resourcesync.ChangeUpdated, t1.Add(time.Hour), true, true},
		{"a nanosecond later", resourcesync.ChangeUpdated, t1.Add(time.Hour + 1), false, false},
		{"no time", resourcesync.ChangeDeleted, time.Time{}, true, true},
	}
	for _, tt := range tests {
		rec, failed, err := db.ChangeStatus(ctx, s.ID, u, tt.ch, tt.at)
		if err != nil || rec != tt.recorded || failed != tt.failed {
			t.Errorf("%s: ChangeStatus = %v, %v, %v; want %v, %v", tt.name, rec, failed, err, tt.recorded, tt.failed)
		}
	}

	// A retry that succeeds overwrites the failure.
	updated.Failed, updated.Cause, updated.List = false, "", "http://example.org/cl2.xml"
	commit(t, db, s.ID, &Batch{Changes: []resourcesync.ChangeRecord{updated}})
	if rec, failed, err := db.ChangeStatus(ctx, s.ID, u, updated.Change, updated.Time); err != nil || !rec || failed {
		t.Errorf("after the retry ChangeStatus = %v, %v, %v; want recorded, not failed", rec, failed, err)
	}
}

func TestCommitListsDone(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	other := ensureSet(t, db, "http://example.org/other/capabilitylist.xml")
	url := "http://example.org/changelist-2013-01-03.xml"
	if done, err := db.ListDone(ctx, s.ID, url); err != nil || done {
		t.Fatalf("ListDone before = %v, %v", done, err)
	}
	commit(t, db, s.ID, &Batch{ListsDone: []ListDone{{URL: url, From: t0.Add(-48 * time.Hour), Until: t0.Add(-24 * time.Hour)}}})
	commit(t, db, s.ID, &Batch{ListsDone: []ListDone{{URL: url}}}) // again: harmless
	if done, err := db.ListDone(ctx, s.ID, url); err != nil || !done {
		t.Errorf("ListDone = %v, %v; want true", done, err)
	}
	if done, err := db.ListDone(ctx, other.ID, url); err != nil || done {
		t.Errorf("ListDone in another set = %v, %v; want false", done, err)
	}
}

func TestBaselineAndCursorRules(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2013, 1, 3, 9, 0, 0, 0, time.UTC)
	older, newer := at.Add(-time.Hour), at.Add(time.Hour)
	ptr := func(t time.Time) *time.Time { return &t }
	tests := []struct {
		name       string
		cursor     *time.Time // set before the batch
		batch      Batch
		wantCursor time.Time
		wantAt     time.Time
	}{
		{"unset cursor moves to at", nil, Batch{Baseline: &Baseline{At: at, Completed: newer, Via: "list"}}, at, at},
		{"older cursor moves to at", ptr(older), Batch{Baseline: &Baseline{At: at, Via: "dump"}}, at, at},
		{"cursor at at stays", ptr(at), Batch{Baseline: &Baseline{At: at}}, at, at},
		{"newer cursor stays", ptr(newer), Batch{Baseline: &Baseline{At: at}}, newer, at},
		{"baseline without at leaves the cursor", ptr(older), Batch{Baseline: &Baseline{Via: "list"}}, older, time.Time{}},
		{"explicit cursor", ptr(newer), Batch{Cursor: ptr(older)}, older, time.Time{}},
		{"explicit cursor wins over the baseline's", nil, Batch{Baseline: &Baseline{At: at}, Cursor: ptr(older)}, older, at},
		{"zero cursor unsets", ptr(at), Batch{Cursor: ptr(time.Time{})}, time.Time{}, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTest(t)
			s := ensureSet(t, db, capList)
			if tt.cursor != nil {
				commit(t, db, s.ID, &Batch{Cursor: tt.cursor})
			}
			commit(t, db, s.ID, &tt.batch)
			got, err := db.SetByID(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Cursor.Equal(tt.wantCursor) || !got.BaselineAt.Equal(tt.wantAt) {
				t.Errorf("cursor %v, baseline at %v; want %v, %v", got.Cursor, got.BaselineAt, tt.wantCursor, tt.wantAt)
			}
			if b := tt.batch.Baseline; b != nil && (got.Via != b.Via || !got.BaselineCompleted.Equal(b.Completed)) {
				t.Errorf("via %q, completed %v; want %q, %v", got.Via, got.BaselineCompleted, b.Via, b.Completed)
			}
		})
	}
}

// atomicityBatch is a batch of every kind of record whose last record is
// invalid.
func atomicityBatch(last resourcesync.ChangeRecord) *Batch {
	cur := t0
	return &Batch{
		Held:      []resourcesync.Held{held("http://example.org/1", "example.org/1", 1), held("http://example.org/2", "example.org/2", 2)},
		Removed:   []string{"http://example.org/old"},
		Failed:    []resourcesync.Failure{{URI: "http://example.org/3", Cause: "404"}},
		ListsDone: []ListDone{{URL: "http://example.org/cl.xml"}},
		Changes: []resourcesync.ChangeRecord{
			{URI: "http://example.org/1", Change: resourcesync.ChangeCreated, Time: t0},
			last,
		},
		Cursor:   &cur,
		Baseline: &Baseline{At: t0, Via: "list"},
	}
}

// assertUnchanged checks that set s holds exactly "old" (committed before)
// and nothing of atomicityBatch.
func assertUnchanged(t *testing.T, db *DB, s Set) {
	t.Helper()
	ctx := context.Background()
	hs := allHeld(t, db, s.ID)
	if len(hs) != 1 || hs[0].URI != "http://example.org/old" {
		t.Errorf("held = %+v; want only the old record", hs)
	}
	if fs, _ := db.Failures(ctx, s.ID); len(fs) != 0 {
		t.Errorf("failures = %v", fs)
	}
	if rec, _, _ := db.ChangeStatus(ctx, s.ID, "http://example.org/1", resourcesync.ChangeCreated, t0); rec {
		t.Error("change recorded")
	}
	if done, _ := db.ListDone(ctx, s.ID, "http://example.org/cl.xml"); done {
		t.Error("list recorded done")
	}
	got, err := db.SetByID(ctx, s.ID)
	if err != nil || !got.Cursor.IsZero() || !got.BaselineAt.IsZero() || got.Via != "" {
		t.Errorf("set = %+v, %v; want no cursor and no baseline", got, err)
	}
}

func TestCommitIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/old", "example.org/old", 1)}})

	// The invalid record is the last of the last part: everything before it
	// was written inside the transaction and must be rolled back.
	err := db.Commit(ctx, s.ID, atomicityBatch(resourcesync.ChangeRecord{URI: "", Change: resourcesync.ChangeUpdated}))
	wantErrIs(t, err, ErrInvalid)
	assertUnchanged(t, db, s)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	err = db.Commit(cancelled, s.ID, atomicityBatch(resourcesync.ChangeRecord{URI: "http://example.org/2", Change: resourcesync.ChangeCreated}))
	wantErrIs(t, err, context.Canceled)
	assertUnchanged(t, db, s)

	err = db.Commit(ctx, s.ID+100, atomicityBatch(resourcesync.ChangeRecord{URI: "http://example.org/2", Change: resourcesync.ChangeCreated}))
	wantErrIs(t, err, ErrUnknownSet)
	assertUnchanged(t, db, s)

	// The writer is still usable after the failures.
	commit(t, db, s.ID, atomicityBatch(resourcesync.ChangeRecord{URI: "http://example.org/2", Change: resourcesync.ChangeCreated}))
	if hs := allHeld(t, db, s.ID); len(hs) != 2 || hs[0].URI != "http://example.org/1" || hs[1].URI != "http://example.org/2" {
		t.Errorf("held after a good commit = %+v; want 1 and 2 (old removed)", hs)
	}
}

func TestCommitRejectsInvalidRecords(t *testing.T) {
	ok := held("http://example.org/1", "example.org/1", 1)
	badFixity := ok
	badFixity.Fixity = resourcesync.Fixity{{Alg: "md5", Hex: "not hex at all"}}
	tests := []struct {
		name  string
		batch Batch
	}{
		{"held without URI", Batch{Held: []resourcesync.Held{ok, held("", "example.org/x", 1)}}},
		{"held without path", Batch{Held: []resourcesync.Held{ok, held("http://example.org/x", "", 1)}}},
		{"held with negative length", Batch{Held: []resourcesync.Held{ok, held("http://example.org/x", "example.org/x", -1)}}},
		{"held with unreadable fixity", Batch{Held: []resourcesync.Held{ok, badFixity}}},
		{"removed without URI", Batch{Held: []resourcesync.Held{ok}, Removed: []string{""}}},
		{"failure without URI", Batch{Held: []resourcesync.Held{ok}, Failed: []resourcesync.Failure{{Cause: "x"}}}},
		{"change with negative position", Batch{Held: []resourcesync.Held{ok}, Changes: []resourcesync.ChangeRecord{{URI: "u", Position: -1}}}},
		{"list done without URL", Batch{Held: []resourcesync.Held{ok}, ListsDone: []ListDone{{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTest(t)
			s := ensureSet(t, db, capList)
			wantErrIs(t, db.Commit(context.Background(), s.ID, &tt.batch), ErrInvalid)
			if n, _ := db.HeldCount(context.Background(), s.ID); n != 0 {
				t.Errorf("HeldCount = %d after a rejected batch", n)
			}
		})
	}
}

func TestCommitEmptyBatchIsNoOp(t *testing.T) {
	db := openTest(t)
	for _, b := range []*Batch{nil, {}, {Held: []resourcesync.Held{}}} {
		// Even for a set that does not exist: nothing is written, nothing checked.
		if err := db.Commit(context.Background(), 999, b); err != nil {
			t.Errorf("Commit(%+v) = %v", b, err)
		}
	}
}

func TestPruneChanges(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	base := time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC)
	at := func(h int) time.Time { return base.Add(time.Duration(h) * time.Hour) }
	rec := func(uri string, h int, failed bool) resourcesync.ChangeRecord {
		return resourcesync.ChangeRecord{URI: uri, Change: resourcesync.ChangeUpdated, Time: at(h), Failed: failed}
	}
	commit(t, db, s.ID, &Batch{Changes: []resourcesync.ChangeRecord{
		rec("a", 1, false), rec("b", 1, true), rec("c", 2, false), rec("d", 3, false), rec("e", 4, false),
	}})
	// Without a cursor nothing is covered.
	if n, err := db.PruneChanges(ctx, s.ID, at(10)); err != nil || n != 0 {
		t.Fatalf("PruneChanges without a cursor = %d, %v; want 0", n, err)
	}
	cursor := at(3)
	commit(t, db, s.ID, &Batch{Cursor: &cursor})
	// before (10) is past the cursor (3): only records before the cursor go.
	n, err := db.PruneChanges(ctx, s.ID, at(10))
	if err != nil || n != 2 {
		t.Fatalf("PruneChanges = %d, %v; want 2 (a and c)", n, err)
	}
	for _, tt := range []struct {
		uri  string
		h    int
		kept bool
	}{{"a", 1, false}, {"b", 1, true}, {"c", 2, false}, {"d", 3, true}, {"e", 4, true}} {
		recorded, _, err := db.ChangeStatus(ctx, s.ID, tt.uri, resourcesync.ChangeUpdated, at(tt.h))
		if err != nil || recorded != tt.kept {
			t.Errorf("%s: recorded = %v, %v; want %v", tt.uri, recorded, err, tt.kept)
		}
	}
	// before earlier than the cursor bounds it further.
	commit(t, db, s.ID, &Batch{Changes: []resourcesync.ChangeRecord{rec("f", 1, false), rec("g", 2, false)}})
	if n, err := db.PruneChanges(ctx, s.ID, at(2)); err != nil || n != 1 {
		t.Errorf("PruneChanges(before 2h) = %d, %v; want 1 (f)", n, err)
	}
}

func TestEnsureSet(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	a, err := db.EnsureSet(ctx, capList, "http://example.org/")
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == 0 || a.CapabilityList != capList || a.Source != "http://example.org/" || !a.Created.Equal(t0) {
		t.Errorf("EnsureSet = %+v", a)
	}
	again, err := db.EnsureSet(ctx, capList, "http://example.org/.well-known/resourcesync")
	if err != nil || again.ID != a.ID || again.Source != "http://example.org/.well-known/resourcesync" {
		t.Errorf("EnsureSet again = %+v, %v; want same ID, new source", again, err)
	}
	kept, err := db.EnsureSet(ctx, capList, "")
	if err != nil || kept.Source != again.Source {
		t.Errorf("EnsureSet with no source = %+v, %v; want the source kept", kept, err)
	}
	b := ensureSet(t, db, "http://example.org/b.xml")
	sets, err := db.Sets(ctx)
	if err != nil || len(sets) != 2 || sets[0].ID != a.ID || sets[1].ID != b.ID {
		t.Errorf("Sets = %+v, %v", sets, err)
	}
	if _, ok, err := db.Set(ctx, "http://example.org/none.xml"); err != nil || ok {
		t.Errorf("Set(unknown) = %v, %v", ok, err)
	}
	_, err = db.SetByID(ctx, 12345)
	wantErrIs(t, err, ErrUnknownSet)
	_, err = db.EnsureSet(ctx, "", "x")
	wantErrIs(t, err, ErrInvalid)
}

// A context cancelled while the transaction is open (the clock, read after
// BEGIN, cancels it) does not cut the commit short: work already durable is
// recorded, whole.
func TestCommitCancelledInsideTransactionCompletes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := DefaultOptions()
	opts.Path = t.TempDir() + "/state.db"
	cancelling := false
	opts.Now = func() time.Time {
		if cancelling {
			cancel()
		}
		return t0
	}
	db, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := ensureSet(t, db, capList)
	cancelling = true
	if err := db.Commit(ctx, s.ID, atomicityBatch(resourcesync.ChangeRecord{URI: "http://example.org/2", Change: resourcesync.ChangeCreated})); err != nil {
		t.Fatalf("Commit = %v, want it to complete", err)
	}
	if ctx.Err() == nil {
		t.Fatal("the clock did not cancel the context: the test tests nothing")
	}
	bg := context.Background()
	if n, _ := db.HeldCount(bg, s.ID); n != 2 {
		t.Errorf("HeldCount = %d, want 2", n)
	}
	if rec, _, _ := db.ChangeStatus(bg, s.ID, "http://example.org/2", resourcesync.ChangeCreated, time.Time{}); !rec {
		t.Error("last change of the batch not recorded")
	}
	// The next commit sees the cancelled context and records nothing.
	err = db.Commit(ctx, s.ID, &Batch{Removed: []string{"http://example.org/1"}})
	wantErrIs(t, err, context.Canceled)
	if n, _ := db.HeldCount(bg, s.ID); n != 2 {
		t.Errorf("HeldCount after a cancelled commit = %d, want 2", n)
	}
}
