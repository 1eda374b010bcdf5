package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Sync then Place: one syncfs makes the data durable before any rename;
// the renames wait for the next Sync, which a file staged after the first
// needs no fsync of its own for; a file staged after the last Sync is
// fsynced by Place before its rename.
func TestSyncThenPlace(t *testing.T) {
	l := newOpLog(OpSyncFS, OpRename, OpSync, OpSyncDir)
	m, dir, armed := faultMirror(t, l.fault)
	armed.Store(true)
	t1 := stage(t, m, "h/a/1", "one", time.Time{})
	t2 := stage(t, m, "h/b/2", "two", time.Time{})
	if err := m.Sync(); err != nil {
		t.Fatal(err)
	}
	late := stage(t, m, "h/a/3", "three", time.Time{})
	errs := m.Place([]string{t1, t2})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if got, want := l.take(), []string{"syncfs .", "rename h/a/1", "rename h/b/2"}; !slices.Equal(got, want) {
		t.Errorf("Sync, Place did\n %q\nwant\n %q", got, want)
	}
	// The next Sync makes the renames durable (and late's data).
	if err := m.Sync(); err != nil {
		t.Fatal(err)
	}
	if errs := m.Place([]string{late}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	if got, want := l.take(), []string{"syncfs .", "rename h/a/3"}; !slices.Equal(got, want) {
		t.Errorf("Sync, Place of a file staged before the Sync did %q, want %q", got, want)
	}
	// Staged after the last Sync: fsynced alone before its rename.
	late = stage(t, m, "h/b/4", "four", time.Time{})
	if errs := m.Place([]string{late}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	if got := l.take(); len(got) != 2 || !strings.HasPrefix(got[0], "sync ") || !strings.HasSuffix(got[0], late) || got[1] != "rename h/b/4" {
		t.Errorf("Place of a file staged after the last Sync did %q", got)
	}
	for rel, want := range map[string]string{"h/a/1": "one", "h/b/2": "two", "h/a/3": "three", "h/b/4": "four"} {
		if b, err := os.ReadFile(filepath.Join(dir, rel)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v", rel, b, err)
		}
	}
	if errs := m.Place([]string{late}); !errors.Is(errs[0], fs.ErrInvalid) {
		t.Errorf("a ticket placed twice: %v", errs[0])
	}
}

// A failed Sync records nothing durable: the files stay staged, the next
// Sync syncs again, and Place then renames them.
func TestSyncFault(t *testing.T) {
	l := newOpLog(OpSyncFS, OpRename)
	m, _, armed := faultMirror(t, l.fault)
	tk := stage(t, m, "h/a/f", "new", time.Time{})
	armed.Store(true)
	l.setFail(func(op, _ string) error {
		if op == OpSyncFS {
			return syscall.EIO
		}
		return nil
	})
	if err := m.Sync(); !errors.Is(err, syscall.EIO) {
		t.Fatalf("Sync = %v, want EIO", err)
	}
	l.setFail(nil)
	l.take()
	if err := m.Sync(); err != nil {
		t.Fatal(err)
	}
	if errs := m.Place([]string{tk}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	if got, want := l.take(), []string{"syncfs .", "rename h/a/f"}; !slices.Equal(got, want) {
		t.Errorf("after a failed Sync: %q, want %q", got, want)
	}
}

// Removes that empty a directory together, concurrently, still prune it:
// each looks at the directory after its own unlink, without the tree's
// lock, and the last look sees it empty.
func TestConcurrentRemovesPrune(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	const n = 16
	for round := range 5 {
		d := fmt.Sprintf("h/r%d/x", round)
		for i := range n {
			put(t, m, fmt.Sprintf("%s/f%d", d, i), "f", time.Time{})
		}
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				if err := m.Remove(fmt.Sprintf("%s/f%d", d, i)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if _, err := os.Lstat(filepath.Join(dir, path.Dir(d))); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s not pruned (%v)", path.Dir(d), err)
		}
	}
}
