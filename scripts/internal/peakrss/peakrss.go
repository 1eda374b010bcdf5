// Package peakrss measures the peak resident memory of a child process,
// for the benchmark scripts.
//
// wait4's ru_maxrss cannot be trusted for it: Go starts a child with
// clone(CLONE_VM|CLONE_VFORK), so at exec Linux folds the high-water mark
// of the parent's memory - a benchmark holding a whole fixture Source -
// into the child's. The child's own VmHWM in /proc/PID/status counts only
// the memory it mapped after exec, so it is polled while the child runs.
package peakrss

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Run runs cmd to completion and returns its peak resident memory in KiB,
// the last VmHWM read (at most interval before the child's end; 0 when the
// child ended before the first read), with cmd's error. Reading the status
// file costs some microseconds: an interval of a few milliseconds is fine.
func Run(cmd *exec.Cmd, interval time.Duration) (int64, error) {
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if kib, ok := hwm(status); ok && kib > peak {
			peak = kib
		}
		select {
		case err := <-done:
			return peak, err
		case <-t.C:
		}
	}
}

// hwm reads VmHWM from a /proc status file.
func hwm(path string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
