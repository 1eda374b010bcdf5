package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "resync-dest.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// One sync --config keeps every Source of the file in its own mirror, with
// the file's options; a second run applies their changes.
func TestSyncConfig(t *testing.T) {
	t.Parallel()
	srcA, srvA := served(t, nil)
	srcB, srvB := served(t, func(s *fixtures.Spec) { s.Seed = 7 })
	destA, destB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	cfg := writeConfig(t, `
defaults:
  workers: 2
  max-retry-wait: 5ms
  progress: never
sources:
  - url: `+srvA.URL+`
    dest: `+destA+`
  - url: `+srvB.URL+`
    dest: `+destB+`
    delete: true
    max-delete: 100%
`)
	r := runCLI(t, "sync", "--config", cfg).want(t, 0)
	contains(t, r.stdout, srvA.URL, srvB.URL)
	incAssertIsSource(t, srcA, destA)
	incAssertIsSource(t, srcB, destB)

	for _, src := range []*fixtures.Source{srcA, srcB} {
		if err := src.AdvanceRandom(10, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	runCLI(t, "sync", "--config", cfg).want(t, 0)
	incAssertIsSource(t, srcB, destB) // deletions applied: delete is on for B
	// A keeps what the Source deleted (no delete for A).
	for _, r := range srcA.Resources(0) {
		want, _ := srcA.Content(r.URI)
		if got, err := os.ReadFile(filepath.Join(destA, relPath(t, r.URI))); err != nil || string(got) != string(want) {
			t.Errorf("%s not in step in mirror A", r.URI)
		}
	}
}

// The command line wins over the file: a flag given with --config applies
// to every Source.
func TestSyncConfigPrecedence(t *testing.T) {
	src, srv := served(t, nil)
	dest := filepath.Join(t.TempDir(), "m")
	cfg := writeConfig(t, "sources:\n  - url: "+srv.URL+"\n    dest: "+dest+"\n    dry-run: false\n    progress: never\n    max-retry-wait: 5ms\n")
	runCLI(t, "sync", "--dry-run", "--config", cfg).want(t, 0)
	if _, err := os.Stat(dest); err == nil {
		if files := fixtures.MirrorFiles(t, dest); len(files) != 0 {
			t.Errorf("--dry-run on the command line lost to the file: %d files written", len(files))
		}
	}
	t.Setenv("RESYNC_DEST_WORKERS", "300")
	r := runCLI(t, "sync", "--config", cfg).want(t, exitUsage)
	contains(t, r.stderr, "--workers 300")
	t.Setenv("RESYNC_DEST_WORKERS", "")
	_ = src
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	dest := t.TempDir()
	for _, tc := range []struct {
		name, body, want string
	}{
		{"not YAML", "sources: [", "--config"},
		{"unknown top-level key", "source:\n  - url: x\n", "field source not found"},
		{"no sources", "defaults:\n  workers: 2\n", "no sources"},
		{"unknown option", "sources:\n  - url: " + srv.URL + "\n    dest: " + dest + "\n    worker: 2\n", `unknown option "worker"`},
		{"wrong type", "sources:\n  - url: " + srv.URL + "\n    dest: " + dest + "\n    workers: many\n", "want a whole number"},
		{"bad duration", "defaults:\n  max-retry-wait: soon\nsources:\n  - url: " + srv.URL + "\n    dest: " + dest + "\n", "want a duration"},
		{"no dest", "sources:\n  - url: " + srv.URL + "\n", "needs a url and a dest"},
		{"one mirror twice", "sources:\n  - url: " + srv.URL + "\n    dest: " + dest + "\n  - url: " + srv.URL + "/x\n    dest: " + dest + "\n", "each Source needs its own mirror"},
		{"bad value", "sources:\n  - url: " + srv.URL + "\n    dest: " + dest + "\n    via: zip\n", "source 1"},
		{"logging is not per source", "sources:\n  - url: " + srv.URL + "\n    dest: " + dest + "\n    quiet: true\n", `unknown option "quiet"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "sync", "--config", writeConfig(t, tc.body)).want(t, exitUsage)
			contains(t, r.stderr, tc.want)
		})
	}
	cfg := writeConfig(t, "sources:\n  - url: "+srv.URL+"\n    dest: "+dest+"\n")
	r := runCLI(t, "sync", "--config", cfg, srv.URL).want(t, exitUsage)
	contains(t, r.stderr, "give no URL")
	r = runCLI(t, "sync", "--config", cfg, "--dest", dest).want(t, exitUsage)
	contains(t, r.stderr, "names its own dest")
	r = runCLI(t, "sync", "--config", filepath.Join(t.TempDir(), "missing.yaml")).want(t, exitUsage)
	if !strings.Contains(r.stderr, "no such file") {
		t.Errorf("%s", r.stderr)
	}
}

// The exit status of several Sources is the gravest: one unreachable, one
// fine → 5.
func TestSyncConfigGravestExit(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	cfg := writeConfig(t, `
defaults:
  max-retry-wait: 5ms
  progress: never
sources:
  - url: `+srv.URL+`
    dest: `+filepath.Join(t.TempDir(), "ok")+`
  - url: http://127.0.0.1:1/
    dest: `+filepath.Join(t.TempDir(), "down")+`
`)
	r := runCLI(t, "sync", "--config", cfg).want(t, exitUnavailable)
	contains(t, r.stderr, "source 2 of")
}

// Relative paths are relative to the config file's directory, whether
// the file is named by a relative path or not, and in defaults as in a
// Source's entry; a watch option (poll-interval) is fine for sync, which
// does not poll.
func TestConfigRelativePaths(t *testing.T) {
	srcA, srvA := served(t, nil)
	srcB, srvB := served(t, func(s *fixtures.Spec) { s.Seed = 3 })
	cfg := writeConfig(t, "defaults:\n  progress: never\n  poll-interval: 30m\n  metrics-textfile: m.prom\nsources:\n"+
		"  - url: "+srvA.URL+"\n    dest: a\n    state: a.db\n  - url: "+srvB.URL+"\n    dest: b\n")
	dir := filepath.Dir(cfg)
	t.Chdir(filepath.Dir(dir))
	runCLI(t, "sync", "--config", filepath.Join(filepath.Base(dir), filepath.Base(cfg))).want(t, 0)
	incAssertIsSource(t, srcA, filepath.Join(dir, "a"))
	incAssertIsSource(t, srcB, filepath.Join(dir, "b"))
	for _, p := range []string{"a.db", "m.prom"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if m := metricsOf(t, filepath.Join(dir, "m.prom")); !strings.Contains(m, filepath.Join(dir, "a")) || !strings.Contains(m, filepath.Join(dir, "b")) {
		t.Errorf("the shared textfile does not hold both mirrors:\n%s", m)
	}
}
