package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// populate records one of everything in the database at path and closes
// it, so that the file is idle (no -wal, no -shm).
func populate(t *testing.T, path string) Set {
	t.Helper()
	ctx := context.Background()
	opts := DefaultOptions()
	opts.Path, opts.Now = path, fixedNow
	db, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := ensureSet(t, db, "http://example.org/capabilitylist.xml")
	at := t0.Add(-24 * time.Hour)
	commit(t, db, s.ID, &Batch{
		Held:      []resourcesync.Held{held("http://example.org/a", "example.org/a", 3)},
		Failed:    []resourcesync.Failure{{URI: "http://example.org/b", Cause: "404"}},
		Changes:   []resourcesync.ChangeRecord{{URI: "http://example.org/a", Change: resourcesync.ChangeCreated, Time: at}},
		ListsDone: []ListDone{{URL: "http://example.org/cl1.xml", From: at, Until: t0}},
		Baseline:  &Baseline{At: at, Completed: at, Via: "list"},
	})
	id, err := db.StartRun(ctx, "baseline")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.FinishRun(ctx, id, "ok", 0, RunCounts{Created: 1}, ""); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return s
}

// readEverything exercises every read of a read-only DB and checks that
// every write is refused.
func readEverything(t *testing.T, db *DB, s Set) {
	t.Helper()
	ctx := context.Background()
	if _, ok, err := db.Set(ctx, s.CapabilityList); err != nil || !ok {
		t.Errorf("Set = %v, %v", ok, err)
	}
	if sets, err := db.Sets(ctx); err != nil || len(sets) != 1 {
		t.Errorf("Sets = %v, %v", sets, err)
	}
	if got, err := db.EnsureSet(ctx, s.CapabilityList, "http://other.example/"); err != nil || got.ID != s.ID || got.Source != s.Source {
		t.Errorf("EnsureSet of a recorded set = %+v, %v; want it unchanged", got, err)
	}
	if _, ok, err := db.Held(ctx, s.ID, "http://example.org/a"); err != nil || !ok {
		t.Errorf("Held = %v, %v", ok, err)
	}
	if n, err := db.HeldCount(ctx, s.ID); err != nil || n != 1 {
		t.Errorf("HeldCount = %d, %v", n, err)
	}
	if hs := allHeld(t, db, s.ID); len(hs) != 1 {
		t.Errorf("EachHeld = %v", hs)
	}
	if ids, err := db.PathHolders(ctx, "example.org/a"); err != nil || len(ids) != 1 {
		t.Errorf("PathHolders = %v, %v", ids, err)
	}
	if fs, err := db.Failures(ctx, s.ID); err != nil || len(fs) != 1 {
		t.Errorf("Failures = %v, %v", fs, err)
	}
	if rec, _, err := db.ChangeStatus(ctx, s.ID, "http://example.org/a", resourcesync.ChangeCreated, t0.Add(-24*time.Hour)); err != nil || !rec {
		t.Errorf("ChangeStatus = %v, %v", rec, err)
	}
	if done, err := db.ListDone(ctx, s.ID, "http://example.org/cl1.xml"); err != nil || !done {
		t.Errorf("ListDone = %v, %v", done, err)
	}
	if runs, err := db.Runs(ctx, 10); err != nil || len(runs) != 1 {
		t.Errorf("Runs = %v, %v", runs, err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	refusesWrites(t, db, s.ID)
}

func refusesWrites(t *testing.T, db *DB, setID int64) {
	t.Helper()
	ctx := context.Background()
	wantErrIs(t, db.Commit(ctx, setID, &Batch{Removed: []string{"http://example.org/a"}}), ErrReadOnly)
	wantErrIs(t, db.Commit(ctx, setID, &Batch{}), ErrReadOnly)
	_, err := db.StartRun(ctx, "sync")
	wantErrIs(t, err, ErrReadOnly)
	wantErrIs(t, db.FinishRun(ctx, 1, "ok", 0, RunCounts{}, ""), ErrReadOnly)
	wantErrIs(t, db.AddRunSets(ctx, 1, setID), ErrReadOnly)
	_, err = db.PruneChanges(ctx, setID, t0)
	wantErrIs(t, err, ErrReadOnly)
}

func TestReadOnlyIdleFileIsUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	s := populate(t, path)
	before := dirHashes(t, dir)
	if got := names(before); !reflect.DeepEqual(got, []string{"state.db"}) {
		t.Fatalf("idle database files: %v", got)
	}

	db := openReadOnly(t, path)
	if !db.ReadOnly() {
		t.Error("ReadOnly() = false")
	}
	readEverything(t, db, s)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if after := dirHashes(t, dir); !reflect.DeepEqual(before, after) {
		t.Errorf("read-only use changed the files:\nbefore %v\nafter  %v", before, after)
	}
}

// Beside a live writer (so -wal and -shm exist and the WAL holds commits not
// yet in the main file), a read-only open sees those commits and changes
// neither the database file nor the WAL. The -shm is not compared: it is
// shared memory in which every reader records its read mark.
func TestReadOnlyBesideLiveWriter(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	s := populate(t, path)
	w := openAt(t, path)
	commit(t, w, s.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/c", "example.org/c", 5)}})
	before := dirHashes(t, dir)
	for _, n := range []string{"state.db-wal", "state.db-shm"} {
		if _, ok := before[n]; !ok {
			t.Fatalf("no %s beside a live writer: %v", n, names(before))
		}
	}

	db := openReadOnly(t, path)
	if _, ok, err := db.Held(ctx, s.ID, "http://example.org/c"); err != nil || !ok {
		t.Errorf("read-only Held of a commit still in the WAL = %v, %v", ok, err)
	}
	refusesWrites(t, db, s.ID)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	after := dirHashes(t, dir)
	for _, n := range []string{"state.db", "state.db-wal"} {
		if before[n] != after[n] {
			t.Errorf("%s changed under a read-only open", n)
		}
	}
}

func TestReadOnlyMissingFileIsEmptyState(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	db := openReadOnly(t, path)
	defer db.Close()

	sets, err := db.Sets(ctx)
	if err != nil || len(sets) != 0 {
		t.Errorf("Sets = %v, %v; want none", sets, err)
	}
	s, err := db.EnsureSet(ctx, "http://example.org/cl.xml", "http://example.org/")
	if err != nil || s.ID != 0 || s.CapabilityList != "http://example.org/cl.xml" || !s.Created.Equal(t0) {
		t.Errorf("EnsureSet = %+v, %v; want an unrecorded set with ID 0", s, err)
	}
	if _, ok, err := db.Set(ctx, "http://example.org/cl.xml"); err != nil || ok {
		t.Errorf("Set after a read-only EnsureSet = %v, %v; want not recorded", ok, err)
	}
	if _, ok, err := db.Held(ctx, 0, "http://example.org/a"); err != nil || ok {
		t.Errorf("Held = %v, %v", ok, err)
	}
	if n, err := db.HeldCount(ctx, 0); err != nil || n != 0 {
		t.Errorf("HeldCount = %d, %v", n, err)
	}
	if runs, err := db.Runs(ctx, 0); err != nil || len(runs) != 0 {
		t.Errorf("Runs = %v, %v", runs, err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	refusesWrites(t, db, 0)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("read-only open of a missing file created %v", entries)
	}
}

func TestReadOnlyEmptyFileIsEmptyState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := openReadOnly(t, path)
	if sets, err := db.Sets(context.Background()); err != nil || len(sets) != 0 {
		t.Errorf("Sets = %v, %v", sets, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got := names(dirHashes(t, dir)); !reflect.DeepEqual(got, []string{"state.db"}) {
		t.Errorf("files after read-only use: %v", got)
	}
}

func TestReadOnlyRefusesOlderSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	populate(t, path)
	rawExec(t, path, "PRAGMA user_version = 0") // ours (application id), but older
	opts := DefaultOptions()
	opts.Path, opts.ReadOnly = path, true
	_, err := Open(context.Background(), opts)
	wantErrIs(t, err, ErrSchemaTooOld)
	if errors.Is(err, ErrNotState) {
		t.Errorf("%v also matches ErrNotState", err)
	}
}
