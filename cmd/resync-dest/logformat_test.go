package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// msTime is a JSON log line's time: UTC, to the millisecond.
var msTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// jsonLines checks that every line of stderr is a JSON record with a time
// to the millisecond, and returns them.
func jsonLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if l == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Errorf("a log line is not JSON: %q", l)
			continue
		}
		if tm, _ := rec["time"].(string); !msTime.MatchString(tm) {
			t.Errorf("time %q is not RFC 3339 UTC with milliseconds: %s", tm, l)
		}
		recs = append(recs, rec)
	}
	return recs
}

// With --log-format json every line on stderr is a JSON record: the run's
// logs, and the final error with its exit status.
func TestJSONLogs(t *testing.T) {
	_, srv := served(t, nil)
	r := runCLI(t, args([]string{"sync", "--log-format", "json", "--log-level", "debug", "--dest", t.TempDir()}, srv.URL)...).want(t, 0)
	if len(jsonLines(t, r.stderr)) == 0 {
		t.Errorf("no log lines at debug level")
	}

	r = runCLI(t, "--log-format", "json", "sync", "--dest", t.TempDir(), "--max-retry-wait", "1ms", "http://127.0.0.1:1/").want(t, exitUnavailable)
	recs := jsonLines(t, r.stderr)
	last := recs[len(recs)-1]
	if last["level"] != "error" || last["exit_code"] != float64(exitUnavailable) || !strings.Contains(last["error"].(string), "127.0.0.1:1") {
		t.Errorf("the final error is not a JSON record with its exit status: %v", last)
	}

	cfg := writeConfig(t, `
sources:
  - url: http://127.0.0.1:1/
    dest: `+t.TempDir()+`
    max-retry-wait: 1ms
`)
	r = runCLI(t, "sync", "--log-format", "json", "--config", cfg).want(t, exitUnavailable)
	recs = jsonLines(t, r.stderr)
	if last := recs[len(recs)-1]; last["dest"] == nil || last["exit_code"] != float64(exitUnavailable) {
		t.Errorf("a Source's error under --config: %v", last)
	}
}

// The notice of the first signal is a JSON record too.
func TestJSONLogsSignalNotice(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 200 })
	src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 20 * time.Millisecond})
	p := startProc(t, nil, "baseline", "--log-format", "json", "--dest", t.TempDir(), "--workers", "2", "--progress", "never", srv.URL)
	waitUntil(t, "the run has fetched some resources", func() bool { return src.ResourceBodies() >= 5 })
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.wantExit(t, exitSIGTERM)
	settle(t, srv)
	var notice bool
	for _, rec := range jsonLines(t, p.stderr.String()) {
		if rec["signal"] == "terminated" && strings.Contains(rec["message"].(string), "send the signal again") {
			notice = true
		}
	}
	if !notice {
		t.Errorf("no JSON notice of the signal:\n%s", p.stderr.String())
	}
}
