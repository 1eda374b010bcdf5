package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// jsonLogDeps are the deps of a command run with --log-format json, and
// the stderr it logs to.
func jsonLogDeps(t *testing.T) (*deps, *fixtures.LockedBuffer) {
	t.Helper()
	stderr := &fixtures.LockedBuffer{}
	d := &deps{io: stdio{out: &fixtures.LockedBuffer{}, err: stderr}}
	if err := d.setLogging(logOptions{format: "json"}); err != nil {
		t.Fatal(err)
	}
	return d, stderr
}

// With --log-format json the periodic stats line is a record with a field
// for each figure, not a sentence to parse: a sync's outcomes or an
// audit's findings, the rates, the ETA and the elapsed time (ms), the set.
func TestStatsRecord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		what activity
		want map[string]any
		not  []string
	}{
		{syncing, map[string]any{
			"listed": 100.0, "created": 40.0, "updated": 0.0, "unchanged": 0.0, "deleted": 0.0, "failed": 0.0, "skipped": 0.0, "bytes": 102400.0,
		}, []string{"in_sync", "bytes_hashed"}},
		{auditing, map[string]any{
			"listed": 100.0, "in_sync": 0.0, "missing_or_changed": 0.0, "extra": 0.0, "errors": 0.0, "bytes_hashed": 102400.0,
		}, []string{"created", "bytes"}},
	} {
		t.Run(map[activity]string{syncing: "sync", auditing: "audit"}[tc.what], func(t *testing.T) {
			t.Parallel()
			d, stderr := jsonLogDeps(t)
			c := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
			p := &resourcesync.Progress{}
			p.Set("https://example.org/cl.xml")
			m := newMeter(p, c.t, tc.what)
			for range 10 {
				doneWith(p, 4, 2560)
				m.sample(c.add(time.Second))
			}
			for range 60 {
				p.Listed()
			}
			p.ListingDone()
			tick := make(chan time.Time)
			stop := showStats(d, tick, func() time.Time { return c.t }, m)
			tick <- time.Time{}
			stop()

			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if len(lines) != 1 {
				t.Fatalf("%d lines, want one record:\n%s", len(lines), stderr.String())
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
				t.Fatalf("not a JSON record: %v\n%s", err, lines[0])
			}
			want := map[string]any{
				"level": "info", "message": "progress", "set": "https://example.org/cl.xml",
				"done": 40.0, "expected": 100.0, "expected_exact": true,
				"resources_per_second": 4.0, "bytes_per_second": 10240.0, "eta": 15000.0, "elapsed": 10000.0,
			}
			for k, v := range tc.want {
				want[k] = v
			}
			for k, v := range want {
				if rec[k] != v {
					t.Errorf("%s = %v (%T), want %v", k, rec[k], rec[k], v)
				}
			}
			for _, k := range tc.not {
				if _, ok := rec[k]; ok {
					t.Errorf("%s in the record of the other activity: %s", k, lines[0])
				}
			}
			if _, err := time.Parse(time.RFC3339Nano, rec["time"].(string)); err != nil {
				t.Errorf("time: %v", err)
			}
		})
	}
}

// Before the first sample and before the list's end, the record has no
// rates, ETA or expected total it cannot know yet.
func TestStatsRecordBeforeTheStart(t *testing.T) {
	t.Parallel()
	d, stderr := jsonLogDeps(t)
	c := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	m := newMeter(&resourcesync.Progress{}, c.t, syncing)
	tick := make(chan time.Time)
	stop := showStats(d, tick, func() time.Time { return c.t }, m)
	tick <- time.Time{}
	stop()
	var rec map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(stderr.String())), &rec); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, k := range []string{"expected", "expected_exact", "resources_per_second", "bytes_per_second", "eta", "set"} {
		if _, ok := rec[k]; ok {
			t.Errorf("%s before it is known: %v", k, rec)
		}
	}
	if rec["done"] != 0.0 || rec["elapsed"] != 0.0 || rec["message"] != "progress" {
		t.Errorf("record %v", rec)
	}
}

// --progress always with --log-format json: the bar is drawn and each log
// record is printed above it, whole, one line each (the same writer as the
// console log's).
func TestJSONLogAboveTheBar(t *testing.T) {
	t.Parallel()
	d, stderr := jsonLogDeps(t)
	p := &resourcesync.Progress{}
	p.Set("https://example.org/dataset1/capabilitylist.xml")
	doneWith(p, 40, 2560)
	p.ListingDone()
	stop := startProgress(d, "always", p, syncing)
	for i := range 3 {
		d.log.Warn().Int("n", i).Str("uri", "https://example.org/dataset1/r"+strings.Repeat("x", 100)).Msg("failed")
	}
	stop()
	// Wide enough that a record is one row: what matters is that none is
	// cut or glued to the bar.
	lines := newScreen(1000, []byte(stderr.String())).lines()
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 3 records and the bar's 2:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, l := range lines[:3] {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec["n"] != float64(i) || rec["message"] != "failed" {
			t.Errorf("line %d above the bar is not record %d: %v\n%q", i, i, err, l)
		}
	}
	contains(t, lines[3], "new 40, updated 0, unchanged 0, failed 0")
	contains(t, lines[4], "40/40")
}
