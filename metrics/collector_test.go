package metrics

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// twoMirrors is a mirror with history and sets, and one whose first run is
// under way.
func twoMirrors() []Mirror {
	return []Mirror{
		{
			Dest: "/srv/mirror/a",
			Runs: []RunTotal{
				{Kind: "baseline", Status: "ok", Runs: 1, Created: 10, Bytes: 1000},
				{Kind: "incremental", Status: "ok", Runs: 2, Created: 1, Updated: 3, Deleted: 2, Bytes: 500},
				{Kind: "incremental", Status: "partial", Runs: 1, Created: 1, Failed: 4, Bytes: 20},
				{Kind: "incremental", Status: RunRunning, Runs: 1}, // died
			},
			LastRun: &Run{Kind: "incremental", Status: "partial", ExitCode: 3,
				Started: t0.Add(-2 * time.Hour), Ended: t0.Add(-2*time.Hour + 90*time.Second + 250*time.Millisecond)},
			LastSuccess: t0.Add(-3 * time.Hour),
			Sets: []Set{
				{CapabilityList: "http://example.org/a/capabilitylist.xml", Held: 11, Failures: 4,
					Cursor: t0.Add(-150 * time.Minute), Baseline: t0.Add(-24 * time.Hour)},
				{CapabilityList: "http://example.org/b/capabilitylist.xml"}, // discovered, nothing done
			},
		},
		{
			Dest:    "/srv/mirror/b",
			Runs:    []RunTotal{{Kind: "sync", Status: RunRunning, Runs: 1}},
			LastRun: &Run{Kind: "sync", Status: RunRunning, Started: t0.Add(-time.Minute)},
		},
	}
}

func wantTwoMirrors() map[string]float64 {
	const a, b = `dest="/srv/mirror/a"`, `dest="/srv/mirror/b"`
	const clA, clB = `capability_list="http://example.org/a/capabilitylist.xml",`, `capability_list="http://example.org/b/capabilitylist.xml",`
	return map[string]float64{
		`resync_dest_scrape_error`: 0,

		`resync_dest_runs_total{` + a + `,kind="baseline",status="ok"}`:         1,
		`resync_dest_runs_total{` + a + `,kind="incremental",status="ok"}`:      2,
		`resync_dest_runs_total{` + a + `,kind="incremental",status="partial"}`: 1,
		`resync_dest_runs_unfinished{` + a + `,kind="incremental"}`:             1,
		`resync_dest_resources_total{` + a + `,outcome="created"}`:              12,
		`resync_dest_resources_total{` + a + `,outcome="updated"}`:              3,
		`resync_dest_resources_total{` + a + `,outcome="deleted"}`:              2,
		`resync_dest_resources_total{` + a + `,outcome="failed"}`:               4,
		`resync_dest_bytes_total{` + a + `}`:                                    1520,
		`resync_dest_last_run_timestamp_seconds{` + a + `,kind="incremental"}`:  unix(t0.Add(-2*time.Hour + 90*time.Second + 250*time.Millisecond)),
		`resync_dest_last_run_exit_code{` + a + `}`:                             3,
		`resync_dest_last_run_duration_seconds{` + a + `}`:                      90.25,
		`resync_dest_last_success_timestamp_seconds{` + a + `}`:                 unix(t0.Add(-3 * time.Hour)),

		`resync_dest_resources_held{` + clA + a + `}`:             11,
		`resync_dest_failures_pending{` + clA + a + `}`:           4,
		`resync_dest_cursor_timestamp_seconds{` + clA + a + `}`:   unix(t0.Add(-150 * time.Minute)),
		`resync_dest_cursor_lag_seconds{` + clA + a + `}`:         150 * 60,
		`resync_dest_baseline_timestamp_seconds{` + clA + a + `}`: unix(t0.Add(-24 * time.Hour)),
		`resync_dest_resources_held{` + clB + a + `}`:             0,
		`resync_dest_failures_pending{` + clB + a + `}`:           0,
		`resync_dest_baseline_timestamp_seconds{` + clB + a + `}`: 0,

		`resync_dest_runs_unfinished{` + b + `,kind="sync"}`:            1,
		`resync_dest_resources_total{` + b + `,outcome="created"}`:      0,
		`resync_dest_resources_total{` + b + `,outcome="updated"}`:      0,
		`resync_dest_resources_total{` + b + `,outcome="deleted"}`:      0,
		`resync_dest_resources_total{` + b + `,outcome="failed"}`:       0,
		`resync_dest_bytes_total{` + b + `}`:                            0,
		`resync_dest_last_run_timestamp_seconds{` + b + `,kind="sync"}`: unix(t0.Add(-time.Minute)),
		`resync_dest_last_success_timestamp_seconds{` + b + `}`:         0,
	}
}

func TestCollector(t *testing.T) {
	c := newTestCollector(mirrors(nil, twoMirrors()...), nil)
	outputs := map[string]map[string]*dto.MetricFamily{
		"Handler":       serve(t, Handler(c)),
		"WriteTextfile": textfile(t, filepath.Join(t.TempDir(), "resync-dest.prom"), c),
	}
	for out, mfs := range outputs {
		if d := diff(series(t, mfs), wantTwoMirrors()); d != "" {
			t.Errorf("%s:\n%s", out, d)
		}
		for name, mf := range mfs {
			if strings.HasSuffix(name, "_total") != (mf.GetType() == dto.MetricType_COUNTER) {
				t.Errorf("%s: %s is a %v", out, name, mf.GetType())
			}
			if len(mf.GetHelp()) < 30 {
				t.Errorf("%s: %s has HELP %q, too short to explain it", out, name, mf.GetHelp())
			}
		}
	}
}

// TestCollectorIsConsistent lets the pedantic registry check every metric
// sent against the descriptions and the rules of the exposition format.
func TestCollectorIsConsistent(t *testing.T) {
	var w Watch
	w.Notification("/srv/mirror/a", NotificationTrigger)
	w.Sync("/srv/mirror/a", SyncInitial)
	w.Subscriptions("/srv/mirror/a", 2)
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(newTestCollector(mirrors(nil, twoMirrors()...), &w)); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Gather(); err != nil {
		t.Fatal(err)
	}
}

func TestCursorLagFollowsTheClock(t *testing.T) {
	now := t0
	m := Mirror{Dest: "/m", Sets: []Set{{CapabilityList: "http://example.org/cl.xml", Cursor: t0.Add(-time.Minute)}}}
	c := NewCollector(mirrors(nil, m), nil, Options{Now: func() time.Time { return now }})
	const lag = `resync_dest_cursor_lag_seconds{capability_list="http://example.org/cl.xml",dest="/m"}`
	for _, want := range []float64{60, 3660, 86460.5} {
		now = t0.Add(time.Duration(want*float64(time.Second)) - time.Minute)
		if got := series(t, serve(t, Handler(c)))[lag]; got != want {
			t.Errorf("lag at %v = %v, want %v", now, got, want)
		}
	}
}

func TestOddLabelValues(t *testing.T) {
	dests := []string{
		`/srv/"quoted" mirror`,
		`C:\mirrors\a`,
		"/srv/two\nlines",
		"/srv/tab\there/ünïcödé",
		`/srv/trailing\`,
	}
	var ms []Mirror
	for _, d := range dests {
		ms = append(ms, Mirror{Dest: d, Sets: []Set{{CapabilityList: `http://example.org/"cl"\` + "\n.xml", Held: 1}}})
	}
	c := newTestCollector(mirrors(nil, ms...), nil)
	path := filepath.Join(t.TempDir(), "odd.prom")
	outputs := map[string]map[string]*dto.MetricFamily{
		"Handler":       serve(t, Handler(c)),
		"WriteTextfile": textfile(t, path, c),
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, escaped := range []string{`dest="/srv/\"quoted\" mirror"`, `dest="C:\\mirrors\\a"`, `dest="/srv/two\nlines"`, `dest="/srv/trailing\\"`} {
		if !strings.Contains(string(raw), escaped) {
			t.Errorf("text holds no %s:\n%s", escaped, raw)
		}
	}
	for out, mfs := range outputs {
		got := map[string]bool{}
		for _, m := range mfs["resync_dest_resources_held"].GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			got[labels["dest"]] = true
			if cl := labels["capability_list"]; cl != `http://example.org/"cl"\`+"\n.xml" {
				t.Errorf("%s: capability_list = %q", out, cl)
			}
		}
		for _, d := range dests {
			if !got[d] {
				t.Errorf("%s: dest %q not found in %v", out, d, got)
			}
		}
		if v := series(t, mfs)["resync_dest_scrape_error"]; v != 0 {
			t.Errorf("%s: scrape_error = %v", out, v)
		}
	}
}

// A path on Linux need not be UTF-8; Prometheus labels must be.
func TestInvalidUTF8Dest(t *testing.T) {
	c := newTestCollector(mirrors(nil, Mirror{Dest: "/srv/latin1-\xe9t\xe9"}), nil)
	s := series(t, serve(t, Handler(c)))
	if v, ok := s["resync_dest_bytes_total{dest=\"/srv/latin1-\ufffdt\ufffd\"}"]; !ok || v != 0 {
		t.Errorf("invalid UTF-8 dest not replaced: %v", s)
	}
	if s["resync_dest_scrape_error"] != 0 {
		t.Errorf("scrape_error = %v", s["resync_dest_scrape_error"])
	}
}

func TestScrapeError(t *testing.T) {
	one := Mirror{Dest: "/srv/one", LastSuccess: t0}
	slow := func(ctx context.Context) ([]Mirror, error) {
		<-ctx.Done() // a state locked for longer than the timeout
		return nil, ctx.Err()
	}
	tests := []struct {
		name     string
		snapshot Snapshot
		dests    []string // whose last success is reported
	}{
		{"error", mirrors(errors.New("database is locked")), nil},
		{"error with what could be read", mirrors(errors.New("read sets of /srv/two: disk I/O error"), one), []string{"/srv/one"}},
		{"timeout", slow, nil},
		{"duplicate dest", mirrors(nil, one, Mirror{Dest: "/srv/one", LastSuccess: t0.Add(time.Hour)}), []string{"/srv/one"}},
		{"duplicate set", mirrors(nil, Mirror{Dest: "/srv/one", LastSuccess: t0, Sets: []Set{
			{CapabilityList: "http://example.org/cl.xml", Held: 1}, {CapabilityList: "http://example.org/cl.xml", Held: 2}}}), []string{"/srv/one"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w Watch
			w.Sync("/srv/one", SyncPoll)
			c := NewCollector(tt.snapshot, &w, Options{Now: fixedNow, Timeout: 50 * time.Millisecond})
			start := time.Now()
			s := series(t, serve(t, Handler(c)))
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("scrape took %v despite the timeout", d)
			}
			if s["resync_dest_scrape_error"] != 1 {
				t.Errorf("scrape_error = %v, want 1", s["resync_dest_scrape_error"])
			}
			if s[`resync_dest_syncs_total{dest="/srv/one",trigger="poll"}`] != 1 {
				t.Errorf("watch counters missing: %v", s)
			}
			var got []string
			for k, v := range s {
				if strings.HasPrefix(k, "resync_dest_last_success_timestamp_seconds{") {
					got = append(got, k)
					if v != unix(t0) {
						t.Errorf("%s = %v: not the first mirror's", k, v)
					}
				}
			}
			if len(got) != len(tt.dests) {
				t.Errorf("last success of %v, want of %v", got, tt.dests)
			}
			if held, ok := s[`resync_dest_resources_held{capability_list="http://example.org/cl.xml",dest="/srv/one"}`]; ok && held != 1 {
				t.Errorf("duplicate set: held = %v, want the first set's 1", held)
			}
		})
	}
}

func TestNoSnapshot(t *testing.T) {
	s := series(t, serve(t, Handler(NewCollector(nil, nil, Options{}))))
	if d := diff(s, map[string]float64{"resync_dest_scrape_error": 0}); d != "" {
		t.Error(d)
	}
}

// badCollector describes a metric with an invalid name: not UTF-8 (since
// client_golang 1.20 any UTF-8 string is a valid name).
type badCollector struct{}

func (badCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- prometheus.NewDesc("not\xffa name", "help", nil, nil)
}
func (badCollector) Collect(chan<- prometheus.Metric) {}

func TestUnregistrableCollector(t *testing.T) {
	if err := WriteTextfile(filepath.Join(t.TempDir(), "x.prom"), badCollector{}); err == nil {
		t.Error("WriteTextfile of a bad collector: no error")
	}
	rec := httptest.NewRecorder()
	Handler(badCollector{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), "register metrics") {
		t.Errorf("Handler of a bad collector: %d %q", rec.Code, rec.Body.String())
	}
}
