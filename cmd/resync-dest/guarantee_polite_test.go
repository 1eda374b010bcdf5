package main

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 18, politeness, from the command line. The fixture Source counts
// requests per second of the wall clock; a bound on the largest count is
// one that load can only make truer. (The client spaces the starts of
// requests; on their way, load could bunch two up by the time between
// them - a tenth of a second at the rates used here.)

// agentServed serves a fixture Source of n resources and records the
// User-Agent of every request.
func agentServed(t *testing.T, n int) (*fixtures.Source, string, func() map[string]int) {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = n
	src, err := fixtures.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	agents := map[string]int{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents[r.UserAgent()]++
		mu.Unlock()
		src.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	if err := src.SetBaseURL(ts.URL); err != nil {
		t.Fatal(err)
	}
	return src, ts.URL + "/", func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(agents)
	}
}

// With --tpslimit 10, a baseline of 40 resources by 8 workers - with its
// documents - never puts more than 10 requests (and a burst of 1) in one
// second on the Source, and still copies it whole.
func TestGuaranteeTPSLimitIsHeld(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 40 })
	dest := t.TempDir()
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest, "--tpslimit", "10"}, srv.URL)...).want(t, 0)
	per := src.RequestsPerSecond()
	if most := slices.Max(per); most > 11 {
		t.Errorf("%d requests in one second (per second: %v), want at most 10 + 1", most, per)
	}
	assertMirrorIsSource(t, src, dest)
	v := readState(t, dest, src.CapabilityListURL(0))
	assertHeldOnDisk(t, dest, v.held)
}

// In a --config file the politeness options are per Source: one Source
// gets a rate limit and a User-Agent of its own, the other neither; every
// request says the User-Agent meant for it, resync-dest's own naming its
// version and project.
func TestGuaranteePolitenessPerSource(t *testing.T) {
	srcA, urlA, agentsA := agentServed(t, 30)
	srcB, urlB, agentsB := agentServed(t, 20)
	destA, destB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	cfg := writeConfig(t, `
defaults:
  max-retry-wait: 5ms
  progress: never
sources:
  - url: `+urlA+`
    dest: `+destA+`
    tpslimit: 10
    user-agent: polite-bot/1.0 (+https://example.org/bot)
  - url: `+urlB+`
    dest: `+destB+`
`)
	runCLI(t, "sync", "--config", cfg).want(t, 0)
	if most := slices.Max(srcA.RequestsPerSecond()); most > 11 {
		t.Errorf("Source A: %d requests in one second, want at most 10 + 1", most)
	}
	for agent := range agentsA() {
		if agent != "polite-bot/1.0 (+https://example.org/bot)" {
			t.Errorf("Source A was asked as %q", agent)
		}
	}
	for agent := range agentsB() {
		if !strings.HasPrefix(agent, "resync-dest/") || !strings.HasSuffix(agent, " (+"+projectURL+")") {
			t.Errorf("Source B was asked as %q, want resync-dest/<version> (+%s)", agent, projectURL)
		}
	}
	incAssertIsSource(t, srcA, destA)
	incAssertIsSource(t, srcB, destB)
}

// The politeness flags are checked like every other, by every command that
// talks to a Source, watch included.
func TestPolitenessFlagsAreChecked(t *testing.T) {
	_, srv := served(t, nil)
	for _, a := range [][]string{
		{"baseline", "--dest", t.TempDir(), "--tpslimit", "fast", srv.URL},
		{"sync", "--dest", t.TempDir(), "--tpslimit", "-1", srv.URL},
		{"sync", "--dest", t.TempDir(), "--tpslimit-burst", "0", srv.URL},
		{"baseline", "--dest", t.TempDir(), "--bwlimit", "1Q", srv.URL},
		{"discover", "--user-agent", " ", srv.URL},
		{"watch", "--dest", t.TempDir(), "--listen", "127.0.0.1:0", "--callback-url", "http://127.0.0.1:1/cb", "--bwlimit", "lots", srv.URL},
	} {
		r := runCLI(t, a...)
		flag := a[slices.IndexFunc(a, func(s string) bool {
			return strings.HasPrefix(s, "--tpslimit") || s == "--bwlimit" || s == "--user-agent"
		})]
		if r.code != exitUsage || !strings.Contains(r.stderr, flag) {
			t.Errorf("%q: exit %d, want %d naming %s\n%s", a, r.code, exitUsage, flag, r.stderr)
		}
	}
}
