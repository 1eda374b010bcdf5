package main

import (
	"context"
	"io"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/metrics"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

func TestMirrorMetrics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := time.Date(2024, time.March, 1, 12, 0, 0, 0, time.UTC)
	now := start
	path := filepath.Join(t.TempDir(), "state.db")
	o := state.DefaultOptions()
	o.Path = path
	o.Now = func() time.Time { return now }
	db, err := state.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dest := "/srv/mirror"

	// An empty state: no runs, no sets.
	if got, err := mirrorMetrics(ctx, db, dest); err != nil || !reflect.DeepEqual(got, metrics.Mirror{Dest: dest}) {
		t.Errorf("mirrorMetrics of an empty state = %+v, %v", got, err)
	}

	a, err := db.EnsureSet(ctx, "http://example.org/a/capabilitylist.xml", "http://example.org/.well-known/resourcesync")
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.EnsureSet(ctx, "http://example.org/b/capabilitylist.xml", "")
	if err != nil {
		t.Fatal(err)
	}
	run := func(kind, status string, code int, counts state.RunCounts, took time.Duration) {
		t.Helper()
		id, err := db.StartRun(ctx, kind)
		if err != nil {
			t.Fatal(err)
		}
		now = now.Add(took)
		if err := db.FinishRun(ctx, id, status, code, counts, ""); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Hour)
	}

	run("baseline", "ok", 0, state.RunCounts{Listed: 3, Created: 2, Bytes: 30}, time.Minute)
	successEnd := start.Add(time.Minute)
	baselineAt := start.Add(-time.Hour)
	cursor := start.Add(-time.Minute)
	fetched := start.Add(time.Second)
	if err := db.Commit(ctx, a.ID, &state.Batch{
		Held: []resourcesync.Held{
			{URI: "http://example.org/a/1", Path: "example.org/a/1", Length: 10, Fetched: fetched},
			{URI: "http://example.org/a/2", Path: "example.org/a/2", Length: 20, Fetched: fetched},
		},
		Failed:   []resourcesync.Failure{{URI: "http://example.org/a/3", Cause: "404 Not Found"}},
		Baseline: &state.Baseline{At: baselineAt, Completed: successEnd, Via: "list"},
		Cursor:   &cursor,
	}); err != nil {
		t.Fatal(err)
	}
	run("incremental", "partial", 3, state.RunCounts{Listed: 4, Updated: 1, Deleted: 1, Failed: 1, Bytes: 5}, 2*time.Minute)
	run("incremental", "ok", 0, state.RunCounts{Listed: 1, Created: 1, Bytes: 7}, 3*time.Minute)
	lastOKEnd := now.Add(-time.Hour)
	run("incremental", "partial", 3, state.RunCounts{Failed: 2}, 4*time.Minute)
	if _, err := db.StartRun(ctx, "sync"); err != nil { // under way
		t.Fatal(err)
	}
	syncStart := now

	want := metrics.Mirror{
		Dest: dest,
		Runs: []metrics.RunTotal{
			{Kind: "baseline", Status: "ok", Runs: 1, Created: 2, Bytes: 30},
			{Kind: "incremental", Status: "ok", Runs: 1, Created: 1, Bytes: 7},
			{Kind: "incremental", Status: "partial", Runs: 2, Updated: 1, Deleted: 1, Failed: 3, Bytes: 5},
			{Kind: "sync", Status: metrics.RunRunning, Runs: 1},
		},
		LastRun:     &metrics.Run{Kind: "sync", Status: metrics.RunRunning, Started: syncStart},
		LastSuccess: lastOKEnd,
		Sets: []metrics.Set{
			{CapabilityList: a.CapabilityList, Held: 2, Failures: 1, Cursor: cursor, Baseline: baselineAt},
			{CapabilityList: b.CapabilityList},
		},
	}
	got, err := mirrorMetrics(ctx, db, dest)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mirrorMetrics =\n%+v\nwant\n%+v", got, want)
	}

	// What status and a scrape during a sync see: a read-only state.
	ro := state.DefaultOptions()
	ro.Path, ro.ReadOnly = path, true
	rdb, err := state.Open(ctx, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	if got, err := mirrorMetrics(ctx, rdb, dest); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("mirrorMetrics of the read-only state =\n%+v, %v\nwant\n%+v", got, err, want)
	}

	// And through to the exposition.
	c := metrics.NewCollector(func(ctx context.Context) ([]metrics.Mirror, error) {
		m, err := mirrorMetrics(ctx, rdb, dest)
		return []metrics.Mirror{m}, err
	}, nil, metrics.Options{Now: func() time.Time { return cursor.Add(90 * time.Second) }})
	rec := httptest.NewRecorder()
	metrics.Handler(c).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, line := range []string{
		"resync_dest_scrape_error 0",
		`resync_dest_cursor_lag_seconds{capability_list="http://example.org/a/capabilitylist.xml",dest="/srv/mirror"} 90`,
		`resync_dest_resources_held{capability_list="http://example.org/a/capabilitylist.xml",dest="/srv/mirror"} 2`,
		`resync_dest_resources_total{dest="/srv/mirror",outcome="failed"} 3`,
		`resync_dest_runs_total{dest="/srv/mirror",kind="incremental",status="partial"} 2`,
		`resync_dest_runs_unfinished{dest="/srv/mirror",kind="sync"} 1`,
	} {
		if !strings.Contains(string(body), line+"\n") {
			t.Errorf("/metrics lacks %s:\n%s", line, body)
		}
	}
}

func TestMirrorMetricsError(t *testing.T) {
	t.Parallel()
	o := state.DefaultOptions()
	o.Path = filepath.Join(t.TempDir(), "state.db")
	db, err := state.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := mirrorMetrics(context.Background(), db, "/srv/closed"); err == nil || !strings.Contains(err.Error(), "/srv/closed") {
		t.Errorf("mirrorMetrics of a closed state = %v, want an error naming the mirror", err)
	}
}
