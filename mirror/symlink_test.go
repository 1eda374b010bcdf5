package mirror

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSymlinkAttacks plants symlinks in the mirror that point outside it
// and tries every operation through them; canary files outside keep their
// content and no file appears outside.
func TestSymlinkAttacks(t *testing.T) {
	outside := t.TempDir()
	canary := filepath.Join(outside, "canary")
	if err := os.WriteFile(canary, []byte("canary"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, dir := openLocked(t, DefaultOptions())
	rel, err := filepath.Rel(dir, outside)
	if err != nil {
		t.Fatal(err)
	}
	plant := func(target, link string) {
		t.Helper()
		p := filepath.Join(dir, link)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	plant(outside, "abs")                                   // a top-level directory, absolute
	plant(rel, "h/up")                                      // a directory, relative, climbing out
	plant(canary, "h/file-abs")                             // a file, absolute
	plant(filepath.Join("..", rel, "canary"), "h/file-rel") // a file, relative
	plant("../.resync-dest", "h/state")                     // into the state directory

	tries := map[string]func() error{
		"create below abs":     func() error { return tryPut(m, "abs/x") },
		"create below up":      func() error { return tryPut(m, "h/up/canary") },
		"create below up, new": func() error { return tryPut(m, "h/up/new") },
		"create below state":   func() error { return tryPut(m, "h/state/dirty") },
		"remove through up":    func() error { return m.Remove("h/up/canary") },
		"hash through up":      func() error { _, _, err := m.HashFile("h/up/canary", []string{"md5"}); return err },
		"hash file-abs":        func() error { _, _, err := m.HashFile("h/file-abs", []string{"md5"}); return err },
		"walk abs":             func() error { return m.Walk("abs", func(string, fs.FileInfo) error { return nil }) },
		"walk up":              func() error { return m.Walk("h/up", func(string, fs.FileInfo) error { return nil }) },
	}
	for name, try := range tries {
		if err := try(); err == nil {
			t.Errorf("%s: succeeded", name)
		}
	}
	// Publishing over a symlink replaces the link, never writes its target.
	for _, link := range []string{"h/file-abs", "h/file-rel"} {
		if err := tryPut(m, link); err != nil {
			t.Errorf("put over %s: %v", link, err)
		}
		if fi, err := os.Lstat(filepath.Join(dir, link)); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s is not a regular file now (%v)", link, err)
		}
	}
	// Removing a symlink removes the link only.
	plant(canary, "h/remove-me")
	if err := m.Remove("h/remove-me"); err != nil {
		t.Errorf("Remove of a symlink: %v", err)
	}
	// Walk reports the links and enters none.
	var seen []string
	if err := m.Walk("", func(rel string, _ fs.FileInfo) error { seen = append(seen, rel); return nil }); err != nil {
		t.Fatal(err)
	}
	for _, rel := range seen {
		if rel != "abs" && rel != "h/up" && rel != "h/state" && rel != "h/file-abs" && rel != "h/file-rel" {
			t.Errorf("Walk reported %s", rel)
		}
	}

	// A planted crash marker or lock pointing outside.
	os.Remove(filepath.Join(dir, ".resync-dest", "dirty"))
	m.Close()
	plant(canary, ".resync-dest/dirty")
	m2, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m2.Lock(); err == nil {
		t.Error("Lock wrote a marker through a symlink pointing outside")
	}
	m2.Close()
	os.Remove(filepath.Join(dir, ".resync-dest", "dirty"))
	os.Remove(filepath.Join(dir, ".resync-dest", "lock"))
	plant(canary, ".resync-dest/lock")
	m3, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m3.Lock(); err == nil {
		t.Error("Lock opened a lock file through a symlink pointing outside")
	}
	m3.Close()

	if b, err := os.ReadFile(canary); err != nil || string(b) != "canary" {
		t.Errorf("canary holds %q (%v)", b, err)
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		t.Errorf("files appeared outside the mirror: %v", ents)
	}
}

// tryPut writes rel through Put and Publish and returns the first error.
func tryPut(m *Mirror, rel string) error {
	ticket, err := m.Put(rel, time.Time{}, fillWith("attack"))
	if err != nil {
		return err
	}
	errs, err := m.Publish([]string{ticket})
	if err != nil {
		return err
	}
	return errs[0]
}

// A symlink inside the mirror, pointing inside it, is not followed either:
// os.Root would allow it, but it would let one resource's path reach
// another's file.
func TestInMirrorSymlinksNotFollowed(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/real/f", "f", time.Time{})
	if err := os.Symlink("real", filepath.Join(dir, "h", "alias")); err != nil {
		t.Fatal(err)
	}
	_, err := m.Put("h/alias/g", time.Time{}, fillWith("g"))
	if !errors.Is(err, ErrPathConflict) || !strings.Contains(err.Error(), "h/alias is a symlink") {
		t.Errorf("Put below a symlink: %v, want ErrPathConflict naming the symlink", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "h/real/g")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a file appeared through the symlink")
	}
	if err := m.Remove("h/alias/f"); !errors.Is(err, ErrPathConflict) {
		t.Errorf("Remove through a symlink: %v, want ErrPathConflict", err)
	}
	if _, _, err := m.HashFile("h/alias/f", []string{"md5"}); !errors.Is(err, ErrPathConflict) {
		t.Errorf("HashFile through a symlink: %v, want ErrPathConflict", err)
	}
	if err := m.Walk("h/alias", func(string, fs.FileInfo) error { return nil }); !errors.Is(err, ErrPathConflict) {
		t.Errorf("Walk of a symlink: %v, want ErrPathConflict", err)
	}
	if got := mustRead(t, dir, "h/real/f"); got != "f" {
		t.Errorf("the real file holds %q", got)
	}
}
