package state

import (
	"context"
	"reflect"
	"testing"
	"time"
)

func TestRuns(t *testing.T) {
	ctx := context.Background()
	now := t0
	opts := DefaultOptions()
	opts.Path = t.TempDir() + "/state.db"
	opts.Now = func() time.Time { now = now.Add(time.Second); return now }
	db, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a := ensureSet(t, db, "http://example.org/a.xml")
	b := ensureSet(t, db, "http://example.org/b.xml")

	first, err := db.StartRun(ctx, "baseline")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddRunSets(ctx, first, b.ID, a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	counts := RunCounts{Created: 1, Updated: 2, Unchanged: 3, Deleted: 4, Failed: 5, Skipped: 6, Bytes: 7}
	if err := db.FinishRun(ctx, first, "partial", 3, counts, "5 resources failed"); err != nil {
		t.Fatal(err)
	}
	second, err := db.StartRun(ctx, "incremental")
	if err != nil {
		t.Fatal(err)
	}

	runs, err := db.Runs(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].ID != second || runs[1].ID != first {
		t.Fatalf("Runs = %+v; want newest first", runs)
	}
	running := runs[0]
	if running.Status != RunRunning || !running.Ended.IsZero() || running.Sets != nil || running.Kind != "incremental" {
		t.Errorf("running run = %+v", running)
	}
	done := runs[1]
	want := Run{
		ID: first, Kind: "baseline", Sets: []int64{a.ID, b.ID},
		Started: done.Started, Ended: done.Started.Add(time.Second), // the next tick: AddRunSets reads no clock
		Status: "partial", ExitCode: 3, Counts: counts, Message: "5 resources failed",
	}
	if !reflect.DeepEqual(done, want) {
		t.Errorf("finished run =\n%+v\nwant\n%+v", done, want)
	}
	if !done.Started.After(t0) {
		t.Errorf("Started = %v, not from the clock", done.Started)
	}

	if runs, err := db.Runs(ctx, 1); err != nil || len(runs) != 1 || runs[0].ID != second {
		t.Errorf("Runs(1) = %+v, %v", runs, err)
	}
	wantErrIs(t, db.FinishRun(ctx, 999, "ok", 0, RunCounts{}, ""), ErrUnknownRun)
	wantErrIs(t, db.AddRunSets(ctx, 999, a.ID), ErrUnknownRun)
	wantErrIs(t, db.AddRunSets(ctx, second, 999), ErrUnknownSet)
}
