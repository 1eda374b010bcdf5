package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/resync-dest/resync-dest/transfer"
)

// failpointEnv is a TEST SEAM, not a feature, and only the test binary
// knows it: when the crash tests run the test binary as resync-dest (see
// TestMain), RESYNC_DEST_FAILPOINT=NAME:N makes the process kill itself
// with SIGKILL the N-th time the writer reaches failpoint NAME -
// "after-publish" (a batch of files renamed into place and durable, not
// yet recorded in the state) or "after-commit" (the batch recorded). The
// shipped binary never reads it: main passes no hook.
const failpointEnv = "RESYNC_DEST_FAILPOINT"

// mainWithFailpoint is main for the crash tests' child processes: main
// with the failpoint RESYNC_DEST_FAILPOINT asks for. A malformed value is
// a usage error, so that a crash test cannot silently run without its
// crash.
func mainWithFailpoint() int {
	fp, err := failpointFromEnv(os.Getenv(failpointEnv))
	// The shipped binary refuses RESYNC_DEST_ variables it does not read;
	// this one is the test's.
	os.Unsetenv(failpointEnv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "resync-dest: %v\n", err)
		return exitCode(err, nil)
	}
	sig := newSignals(os.Stderr)
	defer sig.stop()
	return runWith(sig.hard, os.Args, stdio{out: os.Stdout, err: os.Stderr}, sig.drain, sig.received, hooks{failpoint: fp, onLog: sig.setLog})
}

// failpointFromEnv parses the value of RESYNC_DEST_FAILPOINT and returns
// the hook for the writer, or nil when the value is empty. It returns a
// usage error for a malformed value, so that a crash test cannot silently
// run without its crash.
func failpointFromEnv(value string) (func(name string), error) {
	if value == "" {
		return nil, nil
	}
	name, count, ok := strings.Cut(value, ":")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 1 || (name != transfer.FailpointAfterPublish && name != transfer.FailpointAfterCommit) {
		return nil, usageErrorf("%s=%q: want %s:N or %s:N with N >= 1", failpointEnv, value,
			transfer.FailpointAfterPublish, transfer.FailpointAfterCommit)
	}
	var hits atomic.Int64
	return func(reached string) {
		if reached != name || hits.Add(1) != int64(n) {
			return
		}
		fmt.Fprintf(os.Stderr, "resync-dest: %s: killed at %s #%d\n", failpointEnv, name, n)
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // SIGKILL cannot be caught; wait for it to land
	}, nil
}
