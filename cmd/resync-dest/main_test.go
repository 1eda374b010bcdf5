package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
)

// TestMain lets the test binary be resync-dest itself, for the tests that
// need a real process (kill -9, signals).
func TestMain(m *testing.M) {
	if os.Getenv("RESYNC_DEST_BE_MAIN") == "1" {
		// A test's seam, not an option of resync-dest, which refuses
		// RESYNC_DEST_ variables it does not read.
		os.Unsetenv("RESYNC_DEST_BE_MAIN")
		os.Exit(mainWithFailpoint())
	}
	os.Exit(m.Run())
}

// result is what one command line did.
type result struct {
	code   int
	stdout string
	stderr string
}

// cliMu serialises the command lines tests run in this process:
// urfave/cli v2 keeps its help and version flags in package variables that
// every App writes while it parses, so two parallel tests must not parse at
// once. (The shipped binary parses one command line per process.)
var cliMu sync.Mutex

// runCLI runs a command line in-process, as main would.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	cliMu.Lock()
	defer cliMu.Unlock()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"resync-dest"}, args...),
		stdio{out: &out, err: &errb}, context.Background(), func() os.Signal { return nil })
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// want fails the test unless the command exited with code.
func (r result) want(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	return r
}

// wantUsage runs each command line and fails the test for each that does
// not exit 2, a usage error.
func wantUsage(t *testing.T, lines [][]string) {
	t.Helper()
	for _, a := range lines {
		if r := runCLI(t, a...); r.code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", a, r.code, r.stderr)
		}
	}
}

// fast returns flags for command cmd that keep retries short in tests.
func fast(cmd string) []string {
	f := []string{"--max-retry-wait", "5ms"}
	if cmd != "discover" {
		f = append(f, "--progress", "never")
	}
	return f
}

func served(t *testing.T, mod func(*fixtures.Spec)) (*fixtures.Source, *fixtures.Server) {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 40
	if mod != nil {
		mod(&spec)
	}
	return fixtures.NewServed(t, spec)
}

func args(base []string, more ...string) []string {
	return append(append(append([]string{}, base...), fast(base[0])...), more...)
}

func contains(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("output lacks %q:\n%s", sub, s)
		}
	}
}

// resultOf decodes the result of a --json envelope into v.
func resultOf(stdout string, v any) error {
	var e struct {
		SchemaVersion int             `json:"schema_version"`
		Result        json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &e); err != nil {
		return err
	}
	if e.SchemaVersion != schemaVersion {
		return fmt.Errorf("schema_version %d, want %d", e.SchemaVersion, schemaVersion)
	}
	return json.Unmarshal(e.Result, v)
}
