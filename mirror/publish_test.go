package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Mirror is the adapter transfer's workers stage and publish through.
var _ transfer.Mirror = (*Mirror)(nil)

func TestStagedInvisibleUntilPublish(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/old", "old", time.Time{})
	tOld := stage(t, m, "h/old", "new", time.Time{})
	tNew := stage(t, m, "h/sub/new", "fresh", time.Time{})

	if got := mustRead(t, dir, "h/old"); got != "old" {
		t.Errorf("staged: h/old holds %q", got)
	}
	if _, err := m.Stat("h/sub/new"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("staged: Stat(h/sub/new) = %v, want fs.ErrNotExist", err)
	}
	if _, _, err := m.HashFile("h/sub/new", []string{"md5"}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("staged: HashFile(h/sub/new) = %v, want fs.ErrNotExist", err)
	}
	var seen []string
	m.Walk("", func(rel string, _ fs.FileInfo) error { seen = append(seen, rel); return nil })
	if !slices.Equal(seen, []string{"h/old"}) {
		t.Errorf("staged: Walk saw %v, want [h/old]", seen)
	}
	if tf := tempFiles(t, dir); len(tf) != 2 {
		t.Errorf("want the two staged temp files, found %v", tf)
	}

	publish(t, m, tOld, tNew)
	if got := mustRead(t, dir, "h/old"); got != "new" {
		t.Errorf("published: h/old holds %q", got)
	}
	if got := mustRead(t, dir, "h/sub/new"); got != "fresh" {
		t.Errorf("published: h/sub/new holds %q", got)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

func TestPublishOrder(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	first := stage(t, m, "h/same", "first", time.Time{})
	second := stage(t, m, "h/same", "second", time.Time{})
	publish(t, m, second, first) // the order given, not the order staged
	if got := mustRead(t, dir, "h/same"); got != "first" {
		t.Errorf("h/same holds %q, want the last ticket given", got)
	}
	a := stage(t, m, "h/same", "a", time.Time{})
	b := stage(t, m, "h/same", "b", time.Time{})
	publish(t, m, a, b)
	if got := mustRead(t, dir, "h/same"); got != "b" {
		t.Errorf("h/same holds %q, want b", got)
	}
	// A ticket given twice is published once.
	c := stage(t, m, "h/same", "c", time.Time{})
	errs, err := m.Publish([]string{c, c})
	if err != nil || errs[0] != nil || !errors.Is(errs[1], fs.ErrInvalid) {
		t.Errorf("ticket given twice: %v, %v", errs, err)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

// A directory appears at one target between Put and Publish: that ticket
// fails, the others publish.
func TestPublishConflict(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	before := stage(t, m, "h/before", "before", time.Time{})
	late := stage(t, m, "h/late", "late", time.Time{})
	after := stage(t, m, "h/after", "after", time.Time{})
	put(t, m, "h/late/child", "child", time.Time{})

	errs, err := m.Publish([]string{before, late, after})
	if err != nil {
		t.Fatalf("a conflict is not fatal: %v", err)
	}
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("the other tickets: %v, %v", errs[0], errs[2])
	}
	if !errors.Is(errs[1], ErrPathConflict) || !strings.Contains(errs[1].Error(), "h/late is a directory") {
		t.Errorf("conflict: %v, want ErrPathConflict naming h/late", errs[1])
	}
	if got := mustRead(t, dir, "h/late/child"); got != "child" {
		t.Errorf("the directory's file holds %q", got)
	}
	if mustRead(t, dir, "h/before") != "before" || mustRead(t, dir, "h/after") != "after" {
		t.Error("the other files were not published")
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
	// The conflicting ticket is consumed.
	if errs, _ := m.Publish([]string{late}); !errors.Is(errs[0], fs.ErrInvalid) {
		t.Errorf("Publish of the failed ticket again: %v", errs[0])
	}
}

func TestRemoveCancelsStaged(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	// Updated, then deleted, while the update is staged.
	put(t, m, "h/x", "v1", time.Time{})
	t1 := stage(t, m, "h/x", "v2", time.Time{})
	t2 := stage(t, m, "h/x", "v3", time.Time{})
	if err := m.Remove("h/x"); err != nil {
		t.Fatal(err)
	}
	// Created, then deleted, while the create is staged: the file never
	// existed, and Remove still succeeds.
	t3 := stage(t, m, "h/new/y", "y", time.Time{})
	if err := m.Remove("h/new/y"); err != nil {
		t.Errorf("Remove of a file that is only staged: %v", err)
	}
	// Staged after the Remove: not cancelled.
	t4 := stage(t, m, "h/z", "z", time.Time{})
	if err := m.Remove("h/z/none"); !errors.Is(err, ErrPathConflict) && !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove(h/z/none) = %v", err)
	}

	errs, err := m.Publish([]string{t1, t2, t3, t4})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range errs[:3] {
		if !errors.Is(e, ErrSuperseded) || !errors.Is(e, resourcesync.ErrSuperseded) {
			t.Errorf("ticket %d: %v, want ErrSuperseded", i, e)
		}
	}
	if errs[3] != nil {
		t.Errorf("unrelated ticket: %v", errs[3])
	}
	for _, gone := range []string{"h/x", "h/new/y", "h/new"} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s exists after Publish (%v)", gone, err)
		}
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
	// Reported once; then the tickets are unknown, and Discard is harmless.
	if errs, _ := m.Publish([]string{t1}); !errors.Is(errs[0], fs.ErrInvalid) {
		t.Errorf("second Publish of a superseded ticket: %v", errs[0])
	}
	t5 := stage(t, m, "h/x", "v4", time.Time{})
	if err := m.Remove("h/x"); err != nil {
		t.Fatal(err)
	}
	if err := m.Discard(t5); err != nil {
		t.Errorf("Discard of a cancelled ticket: %v", err)
	}
	if err := m.Remove("h/x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove with nothing there or staged: %v, want fs.ErrNotExist", err)
	}
}

// opLog is a FaultFS fault function that records the operations named in
// ops and fails those for which fail returns an error.
type opLog struct {
	mu   sync.Mutex
	ops  map[string]bool
	log  []string
	fail func(op, name string) error
}

func newOpLog(ops ...string) *opLog {
	l := &opLog{ops: map[string]bool{}}
	for _, op := range ops {
		l.ops[op] = true
	}
	return l
}

func (l *opLog) fault(op, name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ops[op] {
		l.log = append(l.log, op+" "+name)
	}
	if l.fail != nil {
		return l.fail(op, name)
	}
	return nil
}

func (l *opLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.log
	l.log = nil
	return out
}

func (l *opLog) setFail(fail func(op, name string) error) {
	l.mu.Lock()
	l.fail = fail
	l.mu.Unlock()
}

// Invariants 1 and 2: data durable before any rename, renames durable
// before Publish returns; one syncfs for each, none per file.
func TestPublishSyncOrder(t *testing.T) {
	l := newOpLog(OpSyncFS, OpRename, OpSync, OpSyncDir)
	m, _, armed := faultMirror(t, l.fault)
	armed.Store(true)
	var tickets []string
	for _, rel := range []string{"h/a/1", "h/a/2", "h/b/3"} {
		tickets = append(tickets, stage(t, m, rel, rel, time.Time{}))
	}
	if got := l.take(); len(got) != 0 {
		t.Errorf("Put synced or renamed: %v", got)
	}
	publish(t, m, tickets...)
	want := []string{"syncfs .", "rename h/a/1", "rename h/a/2", "rename h/b/3", "syncfs ."}
	if got := l.take(); !slices.Equal(got, want) {
		t.Errorf("Publish did\n %q\nwant\n %q", got, want)
	}
	// Nothing changed since: no sync at all.
	publish(t, m)
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	if got := l.take(); len(got) != 0 {
		t.Errorf("Publish(nil) and SyncDirs with nothing changed did %v", got)
	}
	// A removal: one syncfs, by Publish(nil) or SyncDirs.
	if err := m.Remove("h/a/1"); err != nil {
		t.Fatal(err)
	}
	publish(t, m)
	if got := l.take(); !slices.Equal(got, []string{"syncfs ."}) {
		t.Errorf("Publish(nil) after Remove did %v", got)
	}
	if err := m.Remove("h/a/2"); err != nil {
		t.Fatal(err)
	}
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	if got := l.take(); !slices.Equal(got, []string{"syncfs ."}) {
		t.Errorf("SyncDirs after Remove did %v", got)
	}
}

func TestPublishSyncFSFault(t *testing.T) {
	l := newOpLog(OpSyncFS, OpRename)
	m, dir, armed := faultMirror(t, l.fault)
	put(t, m, "h/a/f", "old version", time.Time{})
	t1 := stage(t, m, "h/a/f", "new version", time.Time{})
	t2 := stage(t, m, "h/b/g", "new file", time.Time{})
	armed.Store(true)

	// EIO on the first syncfs: fatal, nothing renamed, all still staged.
	l.setFail(func(op, _ string) error {
		if op == OpSyncFS {
			return syscall.EIO
		}
		return nil
	})
	errs, err := m.Publish([]string{t1, t2})
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("Publish = %v, want a fatal EIO", err)
	}
	for i, e := range errs {
		if e == nil {
			t.Errorf("ticket %d has no error after a fatal one", i)
		}
	}
	if got := l.take(); !slices.Equal(got, []string{"syncfs ."}) {
		t.Errorf("after a failed syncfs Publish went on: %v", got)
	}
	if got := mustRead(t, dir, "h/a/f"); got != "old version" {
		t.Errorf("the old version became %q", got)
	}
	if _, err := m.Stat("h/b/g"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("h/b/g appeared (%v)", err)
	}
	if tf := tempFiles(t, dir); len(tf) != 2 {
		t.Errorf("staged files: %v, want both kept", tf)
	}

	// The fault cleared: the same tickets publish.
	l.setFail(nil)
	publish(t, m, t1, t2)
	if mustRead(t, dir, "h/a/f") != "new version" || mustRead(t, dir, "h/b/g") != "new file" {
		t.Error("the retried Publish did not publish")
	}
	l.take()

	// EIO on the second syncfs: renamed, but fatal; the changes stay
	// pending and the next SyncDirs syncs again.
	t3 := stage(t, m, "h/c", "c", time.Time{})
	calls := 0
	l.setFail(func(op, _ string) error {
		if op == OpSyncFS {
			if calls++; calls == 2 {
				return syscall.EIO
			}
		}
		return nil
	})
	errs, err = m.Publish([]string{t3})
	if !errors.Is(err, syscall.EIO) || errs[0] != nil {
		t.Fatalf("Publish = %v, %v; want renamed (nil) and a fatal EIO", errs, err)
	}
	if got := mustRead(t, dir, "h/c"); got != "c" {
		t.Errorf("h/c holds %q", got)
	}
	l.take()
	if err := m.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	if got := l.take(); !slices.Equal(got, []string{"syncfs ."}) {
		t.Errorf("SyncDirs after a failed sync did %v, want one syncfs", got)
	}
	armed.Store(false)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".resync-dest", "dirty")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("crash marker left after a clean Close (%v)", err)
	}
}

// Without syncfs, each staged file is fsynced before the renames and each
// changed directory after them.
func TestPublishWithoutSyncFS(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSYS, syscall.EOPNOTSUPP} {
		t.Run(errno.Error(), func(t *testing.T) {
			l := newOpLog(OpSyncFS, OpRename, OpSync, OpSyncDir)
			l.fail = func(op, _ string) error {
				if op == OpSyncFS {
					return errno
				}
				return nil
			}
			m, dir, armed := faultMirror(t, l.fault)
			armed.Store(true)
			t1 := stage(t, m, "h/a/1", "1", time.Time{})
			t2 := stage(t, m, "h/2", "2", time.Time{})
			publish(t, m, t1, t2)
			got := l.take()
			// File.Sync sees the file's full name.
			synced := func(op, ticket string) bool {
				return strings.HasPrefix(op, "sync /") && strings.HasSuffix(op, "/"+ticket)
			}
			if len(got) != 8 || got[0] != "syncfs ." || !synced(got[1], t1) || !synced(got[2], t2) ||
				got[3] != "rename h/a/1" || got[4] != "rename h/2" {
				t.Fatalf("Publish did %q", got)
			}
			// "." and h got new directories, h and h/a new files.
			dirs := got[5:]
			slices.Sort(dirs)
			if !slices.Equal(dirs, []string{"syncdir .", "syncdir h", "syncdir h/a"}) {
				t.Errorf("directories synced: %q", dirs)
			}
			if mustRead(t, dir, "h/a/1") != "1" || mustRead(t, dir, "h/2") != "2" {
				t.Error("not published")
			}
			// Unavailable once, never tried again.
			publish(t, m, stage(t, m, "h/3", "3", time.Time{}))
			for _, op := range l.take() {
				if op == "syncfs ." {
					t.Error("syncfs tried again")
				}
			}
		})
	}
}

// Remove racing with the Publish of a file staged before it: whichever
// wins, the file is absent once both return, and Publish reports either
// success (renamed, then removed) or ErrSuperseded.
func TestRemoveRacesPublish(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	const n = 200
	for i := range n {
		rel := fmt.Sprintf("h/race/%d/f%d", i%7, i)
		ticket := stage(t, m, rel, "x", time.Time{})
		var pubErrs []error
		var pubErr error
		var wg sync.WaitGroup
		wg.Go(func() { pubErrs, pubErr = m.Publish([]string{ticket}) })
		rmErr := m.Remove(rel)
		wg.Wait()
		if pubErr != nil || rmErr != nil {
			t.Fatalf("%s: Publish %v, Remove %v", rel, pubErr, rmErr)
		}
		if e := pubErrs[0]; e != nil && !errors.Is(e, ErrSuperseded) {
			t.Fatalf("%s: ticket error %v", rel, e)
		}
		if _, err := os.Lstat(filepath.Join(dir, rel)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s exists after Remove (%v)", rel, err)
		}
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

// A directory at a target is refused: by Put when the target's directory
// was there before the session (Put asks), by Publish when the session
// made it (Put trusts what it made; one made behind its back is found by
// the rename).
func TestDirectoryTargetMadeBehindItsBack(t *testing.T) {
	for _, tc := range []struct {
		name      string
		made      bool // the mirror made h in this session
		refusedBy string
	}{
		{"directory there before", false, "put"},
		{"directory made by the session", true, "publish"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, dir := openLocked(t, DefaultOptions())
			if tc.made {
				put(t, m, "h/first", "first", time.Time{})
			} else if err := os.MkdirAll(filepath.Join(dir, "h"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, "h", "d", "e"), 0o755); err != nil {
				t.Fatal(err)
			}
			ticket, err := m.Put("h/d", time.Time{}, fillWith("d"))
			if tc.refusedBy == "put" {
				if !errors.Is(err, ErrPathConflict) || !strings.Contains(err.Error(), "h/d is a directory") {
					t.Fatalf("Put over a directory: %v, want ErrPathConflict naming h/d", err)
				}
			} else {
				if err != nil {
					t.Fatalf("Put: %v", err)
				}
				errs, err := m.Publish([]string{ticket})
				if err != nil || !errors.Is(errs[0], ErrPathConflict) || !strings.Contains(errs[0].Error(), "h/d is a directory") {
					t.Fatalf("Publish over a directory: %v, %v; want ErrPathConflict naming h/d", errs, err)
				}
			}
			if fi, err := os.Stat(filepath.Join(dir, "h", "d", "e")); err != nil || !fi.IsDir() {
				t.Errorf("the directory was touched: %v", err)
			}
			if tf := tempFiles(t, dir); len(tf) != 0 {
				t.Errorf("temp files left: %v", tf)
			}
		})
	}
}
