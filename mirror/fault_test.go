package mirror

import (
	"errors"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// faultMirror opens a locked mirror over a FaultFS whose Fault is fault
// while armed is true.
func faultMirror(t *testing.T, fault func(op, name string) error) (*Mirror, string, *atomic.Bool) {
	t.Helper()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	rfs, err := NewRootFS(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rfs.Close() })
	armed := new(atomic.Bool)
	ffs := &FaultFS{Inner: rfs, Fault: func(op, name string) error {
		if !armed.Load() {
			return nil
		}
		return fault(op, name)
	}}
	return openLockedAt(t, dir, Options{FS: ffs}), dir, armed
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name  string
		op    string
		errno syscall.Errno
		// at is where the error surfaces: "put" (Put's error), or
		// "publish" (the ticket's error; not fatal).
		at string
	}{
		{"ENOSPC on write", OpWrite, syscall.ENOSPC, "put"},
		{"EIO on write", OpWrite, syscall.EIO, "put"},
		{"EIO on close", OpClose, syscall.EIO, "put"},
		{"EIO on chtimes", OpChtimes, syscall.EIO, "put"},
		{"EXDEV on rename", OpRename, syscall.EXDEV, "publish"},
		{"EIO on rename", OpRename, syscall.EIO, "publish"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir, armed := faultMirror(t, func(op, name string) error {
				if op == tt.op {
					return tt.errno
				}
				return nil
			})
			put(t, m, "h/a/f", "old version", time.Time{})
			armed.Store(true)

			ticket, err := m.Put("h/a/f", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), fillWith("new version"))
			if tt.at == "publish" {
				if err != nil {
					t.Fatalf("Put: %v", err)
				}
				var errs []error
				errs, err = m.Publish([]string{ticket})
				if err != nil {
					t.Fatalf("a failed rename is not fatal: %v", err)
				}
				err = errs[0]
			} else if ticket != "" {
				t.Errorf("failed Put returned ticket %q", ticket)
			}
			if !errors.Is(err, tt.errno) {
				t.Fatalf("%s error %v, want %v", tt.at, err, tt.errno)
			}
			if !strings.Contains(err.Error(), "h/a/f") || !strings.Contains(err.Error(), tt.errno.Error()) {
				t.Errorf("error %q does not name the path and the cause", err)
			}
			armed.Store(false)
			if got := mustRead(t, dir, "h/a/f"); got != "old version" {
				t.Errorf("the old version became %q", got)
			}
			if tf := tempFiles(t, dir); len(tf) != 0 {
				t.Errorf("temp files left: %v", tf)
			}
			// The mirror still works, and the failure kept no temp file
			// alive: releasing clears the crash marker.
			put(t, m, "h/a/f", "next run", time.Time{})
			if err := m.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(m.StateDir() + "/dirty"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("crash marker left after a clean close (%v)", err)
			}
		})
	}
}

func TestFaultOnCreate(t *testing.T) {
	for _, op := range []string{OpMkdir, OpOpenFile, OpLstat} {
		m, dir, armed := faultMirror(t, func(o, name string) error {
			if o == op {
				return syscall.EACCES
			}
			return nil
		})
		armed.Store(true)
		fill := func(resourcesync.Sink) (bool, error) { t.Errorf("%s fault: fill called", op); return true, nil }
		if _, err := m.Put("h/new/f", time.Time{}, fill); !errors.Is(err, syscall.EACCES) || !strings.Contains(err.Error(), "h/new/f") {
			t.Errorf("%s fault: Put error %v", op, err)
		}
		armed.Store(false)
		if tf := tempFiles(t, dir); len(tf) != 0 {
			t.Errorf("%s fault: temp files left: %v", op, tf)
		}
	}
}

// A temp file that cannot be removed keeps the crash marker, so that the
// next run sweeps it: after a Put that was not kept, and after Discard.
func TestFailedRemovalKeepsMarker(t *testing.T) {
	for _, how := range []string{"not kept", "discarded"} {
		t.Run(how, func(t *testing.T) {
			m, dir, armed := faultMirror(t, func(op, name string) error {
				if op == OpRemove && strings.Contains(name, tempPrefix) {
					return syscall.EIO
				}
				return nil
			})
			var err error
			if how == "not kept" {
				armed.Store(true)
				_, err = m.Put("h/f", time.Time{}, func(s resourcesync.Sink) (bool, error) {
					s.Write([]byte("304: the held copy is current"))
					return false, nil
				})
			} else {
				ticket := stage(t, m, "h/f", "staged", time.Time{})
				armed.Store(true)
				err = m.Discard(ticket)
			}
			if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "h/f") {
				t.Fatalf("error %v, want EIO naming h/f", err)
			}
			armed.Store(false)
			if err := m.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir + "/.resync-dest/dirty"); err != nil {
				t.Fatalf("crash marker cleared with a temp file left: %v", err)
			}
			openLockedAt(t, dir, DefaultOptions())
			if tf := tempFiles(t, dir); len(tf) != 0 {
				t.Errorf("the next Lock did not sweep %v", tf)
			}
		})
	}
}

// SyncDirs syncs once when anything changed, not when nothing did, and a
// failure leaves the changes pending.
func TestSyncDirsBatching(t *testing.T) {
	l := newOpLog(OpSyncFS, OpSyncDir)
	m, _, armed := faultMirror(t, l.fault)
	armed.Store(true)
	for _, rel := range []string{"h/a/1", "h/a/2", "h/b/c/1"} {
		publish(t, m, stage(t, m, rel, rel, time.Time{}))
	}
	l.take()
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	if got := l.take(); len(got) != 0 {
		t.Errorf("SyncDirs with nothing changed did %v", got)
	}
	if err := m.Remove("h/a/1"); err != nil {
		t.Fatal(err)
	}
	if err := m.Remove("h/a/2"); err != nil {
		t.Fatal(err)
	}
	l.setFail(func(op, _ string) error {
		if op == OpSyncFS {
			return syscall.EIO
		}
		return nil
	})
	if err := m.SyncDirs(); !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), m.dest) {
		t.Errorf("SyncDirs error %v, want EIO naming the mirror", err)
	}
	l.setFail(nil)
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	if got := l.take(); !slices.Equal(got, []string{"syncfs .", "syncfs ."}) {
		t.Errorf("a failed and a retried SyncDirs did %v", got)
	}
}

// Where syncfs is unavailable, SyncDirs fsyncs each changed directory once,
// names one that fails, and retries it.
func TestSyncDirsWithoutSyncFS(t *testing.T) {
	var mu sync.Mutex
	var synced []string
	failDir := ""
	m, _, armed := faultMirror(t, func(op, name string) error {
		if op == OpSyncFS {
			return syscall.ENOSYS
		}
		if op != OpSyncDir {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		synced = append(synced, name)
		if name == failDir {
			return syscall.EIO
		}
		return nil
	})
	armed.Store(true)
	take := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := synced
		synced = nil
		slices.Sort(out)
		return out
	}
	var tickets []string
	for _, rel := range []string{"h/a/1", "h/a/2", "h/a/3", "h/b/c/1", "g/1"} {
		tickets = append(tickets, stage(t, m, rel, rel, time.Time{}))
	}
	if got := take(); len(got) != 0 {
		t.Fatalf("directories synced before Publish: %v", got)
	}
	publish(t, m, tickets...)
	// Each directory once: those holding files, and those where a
	// directory was made.
	want := []string{".", "g", "h", "h/a", "h/b", "h/b/c"}
	if got := take(); !slices.Equal(got, want) {
		t.Errorf("Publish synced %v, want %v", got, want)
	}
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	if got := take(); len(got) != 0 {
		t.Errorf("a SyncDirs after Publish synced %v", got)
	}

	// A failed directory fsync is reported, naming it, and retried.
	if err := m.Remove("h/a/1"); err != nil {
		t.Fatal(err)
	}
	if err := m.Remove("g/1"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	failDir = "h/a"
	mu.Unlock()
	err := m.SyncDirs()
	if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "sync directory h/a") {
		t.Errorf("SyncDirs error %v, want EIO naming h/a", err)
	}
	take()
	mu.Lock()
	failDir = ""
	mu.Unlock()
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	if got := take(); !slices.Equal(got, []string{"h/a"}) {
		t.Errorf("retry synced %v, want [h/a]", got)
	}

	// Remove dirties the directory and the parents of pruned ones.
	if err := m.Remove("h/b/c/1"); err != nil {
		t.Fatal(err)
	}
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	// h/b/c lost its file, and was pruned, which dirtied h/b, which was
	// pruned too and dirtied h. Syncing a pruned directory is attempted and
	// skipped, not an error.
	if got := take(); !slices.Equal(got, []string{"h", "h/b", "h/b/c"}) {
		t.Errorf("after Remove synced %v, want [h h/b h/b/c]", got)
	}
	if _, err := m.Stat(path.Join("h", "b")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("h/b not pruned: %v", err)
	}
}
