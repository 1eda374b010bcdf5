package state

import (
	"context"
	"path/filepath"
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

// tickingDB opens a fresh state whose clock moves one second at every
// reading, so that runs start and end in the order they are recorded.
func tickingDB(t *testing.T) (*DB, string) {
	t.Helper()
	now := t0
	path := filepath.Join(t.TempDir(), "state.db")
	opts := DefaultOptions()
	opts.Path = path
	opts.Now = func() time.Time { now = now.Add(time.Second); return now }
	db, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// runStep is one step of a run history: start a run of kind (named, for
// later steps), or finish the named run with status, exit code and counts.
type runStep struct {
	start  string // name of the run to start
	kind   string
	finish string // name of the run to finish
	status string
	code   int
	counts RunCounts
}

// recordRuns plays steps against db and returns the IDs of the named runs.
func recordRuns(t *testing.T, db *DB, steps []runStep) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	ids := map[string]int64{}
	for _, s := range steps {
		if s.start != "" {
			id, err := db.StartRun(ctx, s.kind)
			if err != nil {
				t.Fatal(err)
			}
			ids[s.start] = id
			continue
		}
		if err := db.FinishRun(ctx, ids[s.finish], s.status, s.code, s.counts, ""); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func TestRunTotals(t *testing.T) {
	ok1 := RunCounts{Listed: 10, Created: 1, Updated: 2, Unchanged: 3, Deleted: 4, Failed: 0, Skipped: 5, Bytes: 100}
	ok2 := RunCounts{Listed: 20, Created: 2, Updated: 4, Unchanged: 6, Deleted: 8, Failed: 0, Skipped: 10, Bytes: 1 << 40}
	part := RunCounts{Listed: 7, Failed: 3, Bytes: 9}
	tests := []struct {
		name  string
		steps []runStep
		want  []RunTotal
	}{
		{name: "no runs"},
		{
			name: "kinds and statuses",
			steps: []runStep{
				{start: "a", kind: "incremental"}, {finish: "a", status: "ok", counts: ok1},
				{start: "b", kind: "baseline"}, {finish: "b", status: "partial", code: 3, counts: part},
				{start: "c", kind: "incremental"}, {finish: "c", status: "ok", counts: ok2},
				{start: "d", kind: "baseline"}, {finish: "d", status: "ok", counts: ok1},
				{start: "e", kind: "incremental"}, // still running (or died)
				{start: "f", kind: "incremental"}, {finish: "f", status: "interrupted", code: 130},
			},
			want: []RunTotal{
				{Kind: "baseline", Status: "ok", Runs: 1, Counts: ok1},
				{Kind: "baseline", Status: "partial", Runs: 1, Counts: part},
				{Kind: "incremental", Status: "interrupted", Runs: 1},
				{Kind: "incremental", Status: "ok", Runs: 2, Counts: RunCounts{
					Listed: 30, Created: 3, Updated: 6, Unchanged: 9, Deleted: 12, Skipped: 15, Bytes: 100 + 1<<40}},
				{Kind: "incremental", Status: RunRunning, Runs: 1},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, path := tickingDB(t)
			recordRuns(t, db, tt.steps)
			got, err := db.RunTotals(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("RunTotals =\n%+v\nwant\n%+v", got, tt.want)
			}

			ro := openReadOnly(t, path)
			defer ro.Close()
			if got, err := ro.RunTotals(context.Background()); err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("read-only RunTotals = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestLastSuccess(t *testing.T) {
	tests := []struct {
		name  string
		steps []runStep
		want  string // the named run, "" for none
	}{
		{name: "no runs"},
		{name: "only running", steps: []runStep{{start: "a", kind: "sync"}}},
		{
			name: "only failures",
			steps: []runStep{
				{start: "a", kind: "sync"}, {finish: "a", status: "partial", code: 3},
				{start: "b", kind: "sync"}, {finish: "b", status: "unavailable", code: 5},
			},
		},
		{
			name: "the latest success, not the latest run",
			steps: []runStep{
				{start: "a", kind: "baseline"}, {finish: "a", status: "ok"},
				{start: "b", kind: "incremental"}, {finish: "b", status: "ok"},
				{start: "c", kind: "incremental"}, {finish: "c", status: "partial", code: 3},
				{start: "d", kind: "incremental"},
			},
			want: "b",
		},
		{
			name: "the latest end, not the latest start",
			steps: []runStep{
				{start: "a", kind: "baseline"},
				{start: "b", kind: "incremental"}, {finish: "b", status: "ok"},
				{finish: "a", status: "ok"},
			},
			want: "a",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, path := tickingDB(t)
			ids := recordRuns(t, db, tt.steps)
			ro := openReadOnly(t, path)
			defer ro.Close()
			for _, d := range []struct {
				name string
				db   *DB
			}{{"read-write", db}, {"read-only", ro}} {
				got, ok, err := d.db.LastSuccess(context.Background())
				if err != nil {
					t.Fatalf("%s: LastSuccess: %v", d.name, err)
				}
				if tt.want == "" {
					if ok {
						t.Errorf("%s: LastSuccess = %+v, true; want none", d.name, got)
					}
					continue
				}
				if !ok || got.ID != ids[tt.want] || got.ExitCode != 0 || got.Ended.IsZero() || !got.Ended.After(got.Started) {
					t.Errorf("%s: LastSuccess = %+v, %v; want run %s (ID %d), ended", d.name, got, ok, tt.want, ids[tt.want])
				}
			}
		})
	}
}

func TestRunTotalsAndLastSuccessOfAMissingFile(t *testing.T) {
	db := openReadOnly(t, filepath.Join(t.TempDir(), "missing.db"))
	defer db.Close()
	ctx := context.Background()
	if got, err := db.RunTotals(ctx); err != nil || got != nil {
		t.Errorf("RunTotals = %+v, %v; want none", got, err)
	}
	if got, ok, err := db.LastSuccess(ctx); err != nil || ok {
		t.Errorf("LastSuccess = %+v, %v, %v; want none", got, ok, err)
	}
}

func TestRunTotalsAndLastSuccessOnACancelledContext(t *testing.T) {
	db, _ := tickingDB(t)
	recordRuns(t, db, []runStep{{start: "a", kind: "sync"}, {finish: "a", status: "ok"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := db.RunTotals(ctx); err == nil {
		t.Errorf("RunTotals on a cancelled context = %+v, nil error", got)
	}
	if _, ok, err := db.LastSuccess(ctx); err == nil || ok {
		t.Errorf("LastSuccess on a cancelled context = %v, %v", ok, err)
	}
}
