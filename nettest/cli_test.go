package nettest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
)

// resyncDest is the binary under test, built once by TestMain from the
// main module (the directory above) with its vendored dependencies: the
// product exactly as it ships, whatever this module's go.mod resolves.
var resyncDest string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nettest-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	resyncDest = filepath.Join(dir, "resync-dest")
	build := []string{"build", "-mod=vendor", "-o", resyncDest}
	if raceEnabled {
		build = append(build, "-race") // the child is checked as the in-process tests are
	}
	cmd := exec.Command("go", append(build, "./cmd/resync-dest")...)
	cmd.Dir = ".."
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "build resync-dest in the main module: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Exit statuses of the command-line contract.
const (
	exitOK          = 0
	exitUnavailable = 5
)

// result is what one run of the binary did.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs resync-dest with args, with retries kept short and no
// progress line; a run that hangs is killed after a bounded time.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args = append(args[:1:1], append([]string{"--max-retry-wait", "5ms", "--progress", "never"}, args[1:]...)...)
	cmd := exec.CommandContext(ctx, resyncDest, args...)
	// Under the race detector a process sleeps a second at exit.
	cmd.Env = append(os.Environ(), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	r := result{stdout: out.String(), stderr: errb.String()}
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		r.code = ee.ExitCode()
	default:
		t.Fatalf("run resync-dest %q: %v\nstderr:\n%s", args, err, r.stderr)
	}
	return r
}

// want fails the test unless the run exited with code.
func (r result) want(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	return r
}

// served starts a fixture Source of n resources on loopback.
func served(t *testing.T, n int) (*fixtures.Source, *fixtures.Server) {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = n
	return fixtures.NewServed(t, spec)
}

// throughToxiproxy puts a proxy in front of srv and makes src name it, so
// that every request of a run goes through it.
func throughToxiproxy(t *testing.T, src *fixtures.Source, srv *fixtures.Server) *toxic {
	t.Helper()
	x := proxy(t, strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/"))
	if err := src.SetBaseURL(x.URL); err != nil {
		t.Fatal(err)
	}
	return x
}

// Items 5 and 7 through Toxiproxy: connections cut after 64 KB (bodies end
// mid-way, whatever their Content-Length says), and a slow network that
// delivers in small random slices; the run retries what was cut and ends
// with a mirror identical to the Source.
func TestGuaranteeToxiproxyFaultsAreSurvived(t *testing.T) {
	for _, tc := range []struct {
		name   string
		toxics func(t *testing.T, x *toxic)
		cuts   bool // some responses must have been cut and retried
	}{
		{"limit_data", func(t *testing.T, x *toxic) {
			x.add(t, "cut", "limit_data", "downstream", 1, `{"bytes":65536}`)
		}, true},
		{"slicer and latency", func(t *testing.T, x *toxic) {
			x.add(t, "slices", "slicer", "downstream", 1, `{"average_size":64,"size_variation":60,"delay":50}`)
			x.add(t, "latency", "latency", "downstream", 1, `{"latency":5,"jitter":5}`)
		}, false},
		{"bandwidth", func(t *testing.T, x *toxic) {
			x.add(t, "bandwidth", "bandwidth", "downstream", 1, `{"rate":2048}`)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, srv := served(t, 100)
			x := throughToxiproxy(t, src, srv)
			tc.toxics(t, x)
			dest := t.TempDir()
			runCLI(t, "baseline", "--dest", dest, x.URL+"/").want(t, exitOK)
			desttest.MirrorIsSource(t, src, dest)
			desttest.NoTempFiles(t, dest)
			v := desttest.ReadState(t, dest, src.CapabilityListURL(0))
			desttest.HeldOnDisk(t, dest, v.Held)
			if n := desttest.ResourceRequests(src); tc.cuts && n <= 100 {
				t.Errorf("%d resource requests for 100 resources: no body was cut, the test proved nothing", n)
			}
		})
	}
}

// Items 5 and 6 through Toxiproxy: every connection is reset as soon as
// the Source answers. Each request is tried a bounded number of times, the
// run exits 5, and nothing changes - not a file, not a record.
func TestGuaranteeToxiproxyResetsChangeNothing(t *testing.T) {
	src, srv := served(t, 40)
	x := throughToxiproxy(t, src, srv)
	dest := t.TempDir()
	runCLI(t, "baseline", "--dest", dest, x.URL+"/").want(t, exitOK)
	var muts []fixtures.Mutation
	for _, r := range src.Resources(0)[:10] {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Update, Path: r.Path})
	}
	if err := src.Apply(src.At().Add(time.Hour), muts...); err != nil {
		t.Fatal(err)
	}
	before := desttest.FilesOnly(fixtures.TreeSnapshot(t, dest, true))
	stateBefore := desttest.ReadState(t, dest, src.CapabilityListURL(0))
	x.add(t, "reset", "reset_peer", "downstream", 1, `{"timeout":0}`)
	src.ResetCounts()
	r := runCLI(t, "baseline", "--dest", dest, x.URL+"/").want(t, exitUnavailable)
	if !strings.Contains(r.stderr, "connection reset") {
		t.Errorf("stderr does not say the connection was reset:\n%s", r.stderr)
	}
	desttest.SameSnapshot(t, "the mirror", before, desttest.FilesOnly(fixtures.TreeSnapshot(t, dest, true)))
	after := desttest.ReadState(t, dest, src.CapabilityListURL(0))
	if !desttest.SameHeld(stateBefore.Held, after.Held) || !after.Set.BaselineAt.Equal(stateBefore.Set.BaselineAt) {
		t.Errorf("the state changed")
	}
	if n := src.Requests("/.well-known/resourcesync"); n == 0 || n > 5 {
		t.Errorf("the Source Description was asked for %d times, want 1 to 5", n)
	}
}
