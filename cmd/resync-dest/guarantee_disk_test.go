package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
	"github.com/resync-dest/resync-dest/transfer"
)

// Item 4: local disk faults. The baseline and incremental commands run
// in-process over a mirror whose file system (mirror.FaultFS) fails one
// kind of operation with ENOSPC or EIO. Whatever fails, the previous
// version of every file stays, the state records nothing the disk did not
// take (no new record, no new baseline point, the cursor where it was),
// the error names the path and the cause and maps to exit 1, and the run
// stops instead of retrying the failing operation.

// faultCounter is a FaultFS Fault that fails the operations that match,
// while armed, and counts them.
type faultCounter struct {
	mu      sync.Mutex
	armed   bool
	match   func(op, name string) error // the error to inject, or nil
	faulted int                         // operations failed
	names   map[string]int              // how often each failed operation was tried, by op and name
}

func (f *faultCounter) fault(op, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.armed {
		return nil
	}
	err := f.match(op, name)
	if err != nil && err != syscall.ENOSYS {
		f.faulted++
		f.names[op+" "+name]++
	}
	return err
}

// faultyRun runs the baseline (or, with incremental, the incremental)
// command over a mirror whose file system injects f's faults (runOver).
func faultyRun(t *testing.T, incremental bool, url, dest string, f *faultCounter) (int, string) {
	t.Helper()
	return runOver(t, incremental, url, dest, func(mo *mirror.Options, inner mirror.FS) {
		mo.FS = &mirror.FaultFS{Inner: inner, Fault: f.fault}
	}, func(armed bool) {
		f.mu.Lock()
		f.armed = armed
		f.mu.Unlock()
	})
}

// runOver runs the baseline (or, with incremental, the incremental)
// command as runBaseline does, over a mirror whose options edit changes
// (given the mirror's own file system, to wrap), calling arm(true) just
// before the command and arm(false) after. It returns the exit status the
// command would have and its error message.
func runOver(t *testing.T, incremental bool, url, dest string, edit func(*mirror.Options, mirror.FS), arm func(bool)) (int, string) {
	t.Helper()
	ctx := context.Background()
	var out bytes.Buffer
	d := &deps{io: stdio{out: &out, err: io.Discard}, log: zerolog.Nop(), drain: context.Background()}
	limit, _ := transfer.ParseDeleteLimit("10%")
	o := syncOptions{url: url, dest: dest, workers: 4, maxDelete: limit, progress: "never",
		http: httpOptions{headers: http.Header{}, maxRetryWait: 5 * time.Millisecond}}
	client, err := newClient(url, o.http, d)
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	rfs, err := mirror.NewRootFS(root)
	if err != nil {
		t.Fatal(err)
	}
	defer rfs.Close()
	mo := mirror.DefaultOptions()
	mo.FS = rfs
	edit(&mo, rfs)
	m, err := mirror.Open(dest, mo)
	if err != nil {
		t.Fatal(err)
	}
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	so := state.DefaultOptions()
	so.Path = filepath.Join(m.StateDir(), "state.db")
	db, err := state.Open(ctx, so)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{client: client, mirror: m, store: db, release: release, tmpDir: t.TempDir()}
	arm(true)
	if incremental {
		err = incrementalIn(ctx, o, incrementalFlags{}, d, e)
	} else {
		err = baselineIn(ctx, o, d, e)
	}
	arm(false)
	if cerr := e.close(); cerr != nil {
		t.Errorf("close: %v", cerr)
	}
	if err == nil {
		return exitOK, out.String()
	}
	return exitCode(err, nil), err.Error()
}

func TestGuaranteeLocalDiskFaults(t *testing.T) {
	tmp := func(name string) bool { return strings.Contains(name, "%tmp-") }
	for _, tc := range []struct {
		name  string
		errno syscall.Errno
		match func(op, name string) error
		// bound is how many times the failing operation may be tried:
		// once per worker for a write (the run stops), once per staged
		// file for the renames of one batch, once for a sync.
		bound int
	}{
		{"ENOSPC on write", syscall.ENOSPC, func(op, name string) error {
			return when(op == mirror.OpWrite && tmp(name), syscall.ENOSPC)
		}, 4},
		{"EIO on write", syscall.EIO, func(op, name string) error {
			return when(op == mirror.OpWrite && tmp(name), syscall.EIO)
		}, 4},
		{"EIO on syncfs", syscall.EIO, func(op, name string) error {
			return when(op == mirror.OpSyncFS, syscall.EIO)
		}, 1},
		{"EIO on fsync (no syncfs)", syscall.EIO, func(op, name string) error {
			if op == mirror.OpSyncFS {
				return syscall.ENOSYS // unavailable, not a fault: the mirror fsyncs file by file
			}
			return when(op == mirror.OpSync, syscall.EIO)
		}, 1},
		{"EIO on rename", syscall.EIO, func(op, name string) error {
			return when(op == mirror.OpRename && !tmp(name), syscall.EIO)
		}, 20},
		{"ENOSPC on rename", syscall.ENOSPC, func(op, name string) error {
			return when(op == mirror.OpRename && !tmp(name), syscall.ENOSPC)
		}, 20},
	} {
		for _, kind := range []string{"baseline", "incremental"} {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				diskFaultCase(t, kind, tc.errno, tc.match, tc.bound)
			})
		}
	}
}

// diskFaultCase runs one kind of run (baseline or incremental) over a
// mirror whose disk fails as match says, and checks that nothing was lost
// or claimed: bound is how many times the failing operation may be tried.
func diskFaultCase(t *testing.T, kind string, errno syscall.Errno, match func(op, name string) error, bound int) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 60 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	// 20 resources change at the Source: the next run replaces them.
	var muts []fixtures.Mutation
	for _, r := range src.Resources(0)[:20] {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Update, Path: r.Path})
	}
	if err := src.Apply(src.At().Add(time.Hour), muts...); err != nil {
		t.Fatal(err)
	}
	// Directories' mtimes may change (temp files come and go);
	// files may not.
	treeBefore := filesOnly(fixtures.TreeSnapshot(t, dest, true))
	stateBefore := readState(t, dest, src.CapabilityListURL(0))

	f := &faultCounter{match: match, names: map[string]int{}}
	code, msg := faultyRun(t, kind == "incremental", srv.URL, dest, f)
	if code != exitFatal {
		t.Fatalf("exit %d, want %d (a local fault is fatal): %s", code, exitFatal, msg)
	}
	if !strings.Contains(msg, errno.Error()) || !strings.Contains(msg, dest) && !strings.Contains(msg, "dataset1") {
		t.Errorf("the error does not name the path and the cause %q: %s", errno.Error(), msg)
	}
	if f.faulted == 0 || f.faulted > bound {
		t.Errorf("the failing operation was tried %d times, want 1 to %d (no retry loop): %v", f.faulted, bound, f.names)
	}
	for name, n := range f.names {
		if n > 1 {
			t.Errorf("%s was retried %d times", name, n)
		}
	}

	// The old versions stay, byte for byte and mtime for mtime.
	sameSnapshot(t, "the mirror after a disk fault", treeBefore, filesOnly(fixtures.TreeSnapshot(t, dest, true)))
	after := readState(t, dest, src.CapabilityListURL(0))
	assertHeldOnDisk(t, dest, after.held)
	if !sameHeld(stateBefore.held, after.held) {
		t.Errorf("the state's records changed though the disk took nothing")
	}
	if !after.set.BaselineAt.Equal(stateBefore.set.BaselineAt) {
		t.Errorf("the baseline point moved from %v to %v", stateBefore.set.BaselineAt, after.set.BaselineAt)
	}
	if !after.set.Cursor.Equal(stateBefore.set.Cursor) {
		t.Errorf("the cursor moved from %v to %v", stateBefore.set.Cursor, after.set.Cursor)
	}

	// Once the disk is healthy, the next run completes.
	runCLI(t, args([]string{kind, "--dest", dest}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, dest)
	assertNoTempFiles(t, dest)
}

// when returns err if cond, else nil.
func when(cond bool, err error) error {
	if cond {
		return err
	}
	return nil
}

// sameHeld reports whether two lists of held records describe the same
// copies (desttest.SameHeld).
func sameHeld(a, b []resourcesync.Held) bool { return desttest.SameHeld(a, b) }
