package main

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
)

// Operation guarantees that need a real process: one run per mirror (a
// kernel lock), and the two-step shutdown on SIGINT/SIGTERM.

// proc is resync-dest running as a subprocess (the test binary re-executed
// as main; see TestMain).
type proc struct {
	cmd    *exec.Cmd
	stdout fixtures.LockedBuffer
	stderr fixtures.LockedBuffer
	waited chan struct{}
	err    error // Wait's, once waited is closed
}

// mainEnv is the environment of a child that runs as resync-dest. Under
// the race detector, a process sleeps a second at exit (its atexit_sleep_ms
// default); that second would count as part of a run the kill tests time.
func mainEnv(extra ...string) []string {
	// The test's own variables (the kill seed) are not resync-dest's,
	// which refuses RESYNC_DEST_ variables it does not read.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, killSeedEnv+"=") })
	env = append(env, "RESYNC_DEST_BE_MAIN=1", "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return append(env, extra...)
}

// startProc starts resync-dest with args and extra environment variables;
// the process is killed at cleanup if it still runs.
func startProc(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{waited: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], args...)
	p.cmd.Env = mainEnv(env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.waited)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.waited
	})
	return p
}

// wait waits for the process to end and returns its exit code, or -1 and
// the signal that killed it.
func (p *proc) wait() (int, syscall.Signal) {
	<-p.waited
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return -1, ws.Signal()
	}
	return p.cmd.ProcessState.ExitCode(), 0
}

// settle waits until the Source has finished with a run that was killed
// or stopped, before the test reads or resets its counts: see
// fixtures.Server.AwaitQuiet.
func settle(t *testing.T, srv *fixtures.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.AwaitQuiet(ctx); err != nil {
		t.Fatalf("the Source is still serving a run that ended: %v", err)
	}
}

// exited reports whether the process has ended.
func (p *proc) exited() bool {
	select {
	case <-p.waited:
		return true
	default:
		return false
	}
}

// wantExit fails the test unless the process exits with code.
func (p *proc) wantExit(t *testing.T, code int) {
	t.Helper()
	got, sig := p.wait()
	if got != code {
		t.Fatalf("exit %d (signal %v), want %d\nstdout:\n%s\nstderr:\n%s", got, sig, code, p.stdout.String(), p.stderr.String())
	}
}

// stalledHolder makes a mirror with a baseline, then starts the holder: a
// baseline stalled on its Resource List, lock taken, run recorded, listing
// created - then nothing until the list comes. It returns once the holder
// has asked for the list, with the Source's counts reset before it began.
func stalledHolder(t *testing.T) (*fixtures.Source, *fixtures.Server, string, *proc) {
	t.Helper()
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	list := "/dataset1/resourcelist.xml"
	src.SetFault(list, fixtures.Fault{Delay: time.Hour})
	src.ResetCounts()
	holder := startProc(t, nil, "baseline", "--dest", dest, "--progress", "never", srv.URL)
	waitUntil(t, "the holder asks for the Resource List", func() bool { return src.Requests(list) > 0 })
	return src, srv, dest, holder
}

// Item 1: a second run on a locked mirror exits 6 at once, touching
// nothing - no request to the Source, not a byte of the mirror or its
// state - and a run killed with SIGKILL leaves no stale lock behind (the
// lock is flock(2), released by the kernel with the process).
func TestGuaranteeLockOneRunPerMirror(t *testing.T) {
	src, srv, dest, holder := stalledHolder(t)

	before := fixtures.TreeSnapshot(t, dest, false)
	src.ResetCounts()
	second := startProc(t, nil, "baseline", "--dest", dest, "--progress", "never", srv.URL)
	second.wantExit(t, exitLocked)
	if !strings.Contains(second.stderr.String(), "lock") {
		t.Errorf("the message does not say the mirror is locked:\n%s", second.stderr.String())
	}
	if n := src.TotalRequests(); n != 0 {
		t.Errorf("the locked-out run made %d requests to the Source", n)
	}
	sameSnapshot(t, "the mirror and its state, by a locked-out run", before, fixtures.TreeSnapshot(t, dest, false))
	// In-process too, where --dry-run takes the lock shared: still locked out.
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--dry-run"}, srv.URL)...)
	if r.code != exitLocked {
		t.Errorf("a dry run beside a writer: exit %d, want %d\n%s", r.code, exitLocked, r.stderr)
	}
	sameSnapshot(t, "the mirror and its state, by a locked-out dry run", before, fixtures.TreeSnapshot(t, dest, false))

	// kill -9 the holder: the next run takes the lock and completes.
	holder.cmd.Process.Kill()
	if _, sig := holder.wait(); sig != syscall.SIGKILL {
		t.Fatalf("the holder ended before the kill (signal %v):\n%s", sig, holder.stderr.String())
	}
	src.ClearFaults()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)
	assertNoTempFiles(t, dest)
}

// Item 2: the first SIGINT or SIGTERM stops starting transfers, lets the
// ones in flight finish and records them, and exits 130 or 143; the next
// run fetches exactly what was not recorded.
func TestGuaranteeSignalStopsSavesAndResumes(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, exitSIGINT}, {syscall.SIGTERM, exitSIGTERM}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			const n = 300
			src, srv := served(t, func(s *fixtures.Spec) { s.Resources = n })
			src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 20 * time.Millisecond})
			dest := t.TempDir()
			p := startProc(t, nil, "baseline", "--dest", dest, "--workers", "4", "--progress", "never", srv.URL)
			waitUntil(t, "the run has fetched some resources", func() bool { return src.ResourceBodies() >= 20 })
			p.cmd.Process.Signal(tc.sig)
			p.wantExit(t, tc.code)
			settle(t, srv)
			if !strings.Contains(p.stderr.String(), "send it again to exit at once") {
				t.Errorf("the first signal was not acknowledged:\n%s", p.stderr.String())
			}

			v := readState(t, dest, src.CapabilityListURL(0))
			if len(v.held) >= n {
				t.Fatalf("the run finished (%d held) before the signal stopped it", len(v.held))
			}
			// Every body the Source sent belongs to a transfer that was in
			// flight or done: each one finished and was recorded.
			if got := src.ResourceBodies(); got != len(v.held) {
				t.Errorf("the Source sent %d bodies but the state holds %d: in-flight transfers were lost", got, len(v.held))
			}
			assertHeldOnDisk(t, dest, v.held)
			if len(v.runs) == 0 || v.runs[0].Status != "interrupted" || v.runs[0].ExitCode != tc.code {
				t.Errorf("the run is recorded as %+v, want interrupted with %d", v.runs, tc.code)
			}
			if v.set.Baselined() {
				t.Errorf("an interrupted baseline recorded a baseline point")
			}

			src.ClearFaults()
			src.ResetCounts()
			runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
			if got := src.ResourceBodies(); got != n-len(v.held) {
				t.Errorf("the resume fetched %d bodies; %d of %d were recorded, so want %d", got, len(v.held), n, n-len(v.held))
			}
			assertMirrorIsSource(t, src, dest)
			assertNoTempFiles(t, dest)
		})
	}
}

// Item 2: transfers that do not finish are cancelled when the grace period
// ends; the run still records how it ended and exits 130. No transfer is
// started after the signal. (This test waits out the 10 s grace period.)
func TestGuaranteeGracePeriodCancelsHungTransfers(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the 10 s grace period")
	}
	src, srv := served(t, nil)
	src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: time.Hour}) // transfers that never finish
	dest := t.TempDir()
	p := startProc(t, nil, "baseline", "--dest", dest, "--workers", "2", "--progress", "never", srv.URL)
	waitUntil(t, "two transfers are in flight", func() bool { return resourceRequests(src) == 2 })
	p.cmd.Process.Signal(syscall.SIGINT)
	p.wantExit(t, exitSIGINT)
	if n := resourceRequests(src); n != 2 {
		t.Errorf("%d resource requests, want the 2 in flight at the signal: new work was started", n)
	}
	v := readState(t, dest, src.CapabilityListURL(0))
	if len(v.held) != 0 {
		t.Errorf("%d resources recorded, but no transfer finished", len(v.held))
	}
	if len(v.runs) == 0 || v.runs[0].Status != "interrupted" {
		t.Errorf("the run is recorded as %+v, want interrupted", v.runs)
	}
	assertNoTempFiles(t, dest)
}

// Item 2: a second signal exits at once, without waiting for the transfers
// in flight or the grace period: the run never gets to record its end
// (what is recorded is consistent anyway), and the next run completes.
func TestGuaranteeSecondSignalExitsAtOnce(t *testing.T) {
	src, srv := served(t, nil)
	src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: time.Hour})
	dest := t.TempDir()
	p := startProc(t, nil, "baseline", "--dest", dest, "--workers", "2", "--progress", "never", srv.URL)
	waitUntil(t, "transfers are in flight", func() bool { return resourceRequests(src) > 0 })
	p.cmd.Process.Signal(syscall.SIGTERM)
	// Standard signals do not queue: wait until the first one is handled,
	// or the kernel could merge the two.
	waitUntil(t, "the first signal is acknowledged", func() bool {
		return strings.Contains(p.stderr.String(), "send it again") || p.exited()
	})
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.wantExit(t, exitSIGTERM)
	v := readState(t, dest, src.CapabilityListURL(0))
	if len(v.runs) == 0 || v.runs[0].Status != "running" {
		t.Errorf("the run is recorded as %+v: it waited to finish instead of exiting at once", v.runs)
	}
	src.ClearFaults()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)
	assertNoTempFiles(t, dest)
}

// resourceRequests counts the requests for the resources of set 0
// (desttest.ResourceRequests).
func resourceRequests(src *fixtures.Source) int { return desttest.ResourceRequests(src) }
