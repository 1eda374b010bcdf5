package mirror

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapshot describes every entry below dir - the state directory, temp
// files and directories included - by type, size, modification time and
// content, so that two snapshots differ when anything was written.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
		switch {
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		}
		out[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	for p, d := range before {
		if after[p] != d {
			t.Errorf("%s changed: %q -> %q", p, d, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
		}
	}
}

// readEverything does what a dry run, audit or status does, checking the
// answers against want (rel -> content) and that every write is refused.
func readEverything(t *testing.T, m *Mirror, want map[string]string) {
	t.Helper()
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = m.Walk("", func(rel string, info fs.FileInfo) error {
		seen[rel] = true
		if _, err := m.Stat(rel); err != nil {
			t.Error(err)
		}
		if _, _, err := m.HashFile(rel, []string{"md5", "sha-256"}); err != nil && info.Mode().IsRegular() {
			t.Error(err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range want {
		if !seen[rel] {
			t.Errorf("Walk missed %s", rel)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("Walk saw %d files, want %d", len(seen), len(want))
	}
	for _, rel := range []string{"h/missing", "nothing/at/all"} {
		if _, err := m.Stat(rel); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat(%s) = %v", rel, err)
		}
		if _, _, err := m.HashFile(rel, []string{"md5"}); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("HashFile(%s) = %v", rel, err)
		}
	}
	if _, err := m.Put("h/a", time.Time{}, fillWith("x")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Put: %v, want ErrReadOnly", err)
	}
	if err := m.Remove("h/a"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Remove: %v, want ErrReadOnly", err)
	}
	if errs, err := m.Publish([]string{"h/%tmp-0123456789abcdef"}); !errors.Is(err, ErrReadOnly) || !errors.Is(errs[0], ErrReadOnly) {
		t.Errorf("Publish of a ticket: %v, %v; want ErrReadOnly", errs, err)
	}
	if errs, err := m.Publish(nil); err != nil || len(errs) != 0 {
		t.Errorf("Publish(nil): %v, %v", errs, err)
	}
	if err := m.SyncDirs(); err != nil {
		t.Errorf("SyncDirs: %v", err)
	}
	if err := m.Discard("h/%tmp-0123456789abcdef"); err != nil {
		t.Errorf("Discard: %v", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}

func readOnly() Options {
	o := DefaultOptions()
	o.ReadOnly = true
	return o
}

func TestReadOnlyWritesNothing(t *testing.T) {
	dir := t.TempDir()
	w := openLockedAt(t, dir, DefaultOptions())
	want := map[string]string{"h/a": "a", "h/sub/b": "b", "g/c": "c"}
	for rel, content := range want {
		put(t, w, rel, content, time.Date(2013, 1, 2, 3, 4, 5, 0, time.UTC))
	}
	// What a crashed run leaves: a staged file and the crash marker. Only
	// a write run may sweep them.
	stage(t, w, "h/a", "staged", time.Time{})
	if err := os.Symlink("a", filepath.Join(dir, "h", "link")); err != nil {
		t.Fatal(err)
	}
	want["h/link"] = ""
	w.lockFile.Close() // the crash: the lock goes, the rest stays
	w.lockFile = nil
	before := snapshot(t, dir)
	if _, ok := before[filepath.Join(dir, ".resync-dest", "dirty")]; !ok {
		t.Fatal("no crash marker to leave alone")
	}

	m, err := Open(dir, readOnly())
	if err != nil {
		t.Fatal(err)
	}
	readEverything(t, m, want)
	sameSnapshot(t, before, snapshot(t, dir))
}

func TestReadOnlyAbsent(t *testing.T) {
	// No mirror at all: an empty one, and nothing is created.
	parent := t.TempDir()
	dest := filepath.Join(parent, "mirror")
	m, err := Open(dest, readOnly())
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Walk("h", func(string, fs.FileInfo) error { return nil }); err != nil {
		t.Errorf("Walk(h) of an absent mirror: %v", err)
	}
	readEverything(t, m, nil)
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("a read-only Open of a missing mirror created %v", ents)
	}

	// A directory that never was a mirror: its files are read as they
	// are, and no .resync-dest appears.
	if err := os.MkdirAll(filepath.Join(dest, "h"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dest, "h", "f"), []byte("f"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dest)
	m, err = Open(dest, readOnly())
	if err != nil {
		t.Fatal(err)
	}
	readEverything(t, m, map[string]string{"h/f": "f"})
	sameSnapshot(t, before, snapshot(t, dest))

	// Not a directory, or a state directory that is not one: refused.
	file := filepath.Join(parent, "file")
	os.WriteFile(file, nil, 0o644)
	if m, err := Open(file, readOnly()); err == nil {
		m.Close()
		t.Error("read-only Open of a file succeeded")
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dest, ".resync-dest")); err != nil {
		t.Fatal(err)
	}
	if m, err := Open(dest, readOnly()); err == nil {
		m.Close()
		t.Error("read-only Open accepted a symlinked .resync-dest")
	}
}

// Read-only sessions share the lock with each other and exclude write
// sessions, both ways.
func TestReadOnlyLocking(t *testing.T) {
	dir := t.TempDir()
	open := func(opts Options) *Mirror {
		t.Helper()
		m, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return m
	}
	w := open(DefaultOptions())
	r1, r2 := open(readOnly()), open(readOnly())

	releaseW, err := w.Lock()
	if err != nil {
		t.Fatal(err)
	}
	_, err = r1.Lock()
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d on host ", os.Getpid())) {
		t.Errorf("read-only Lock during a write run: %v, want ErrLocked naming the pid", err)
	}
	if err := releaseW(); err != nil {
		t.Fatal(err)
	}

	release1, err := r1.Lock()
	if err != nil {
		t.Fatalf("read-only Lock: %v", err)
	}
	if _, err := r1.Lock(); !errors.Is(err, ErrLocked) {
		t.Errorf("second Lock of one Mirror: %v", err)
	}
	release2, err := r2.Lock()
	if err != nil {
		t.Errorf("two read-only runs: %v", err)
	}
	_, err = w.Lock()
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "read-only run") {
		t.Errorf("write Lock during read-only runs: %v, want ErrLocked naming a read-only run", err)
	}
	if err := release1(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Lock(); !errors.Is(err, ErrLocked) {
		t.Errorf("write Lock while one read-only run is left: %v", err)
	}
	if err := release2(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Lock(); err != nil {
		t.Errorf("write Lock after the read-only runs: %v", err)
	}
}

// Without a lock file (a mirror no write run ever locked), a read-only
// Lock takes nothing and creates nothing.
func TestReadOnlyLockWithoutLockFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".resync-dest"), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := Open(dir, readOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".resync-dest", "lock")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("read-only Lock created the lock file (%v)", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
}
