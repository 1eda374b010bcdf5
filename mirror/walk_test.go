package mirror

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"
)

func TestWalkOrder(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	files := []string{
		// "b" is a directory: byte order puts "b-c" and "b.txt" before "b/x".
		"h/b/x", "h/b-c", "h/b.txt", "h/b0", "h/B", "h/b/y/z", "h/b/%index",
		"h-/a", "h./a", "h0/a", "g/%C3%A9", "g/~", "g/a?x=1", "g/a", "g/a%3Fx",
	}
	for _, rel := range files {
		put(t, m, rel, rel, time.Time{})
	}
	// Skipped: a staged file, a temp file being written (as a crashed run
	// leaves them) and the state directory.
	stage(t, m, "h/b/staged", "staged", time.Time{})
	if err := os.WriteFile(filepath.Join(dir, "h", "%tmp-00112233445566ff"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".resync-dest", "state.db"), []byte("db"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Reported, not followed: a symlink to a directory.
	if err := os.Symlink("b", filepath.Join(dir, "h", "link")); err != nil {
		t.Fatal(err)
	}

	want := append(slices.Clone(files), "h/link")
	sort.Strings(want)
	var got []string
	modes := map[string]fs.FileMode{}
	err := m.Walk("", func(rel string, info fs.FileInfo) error {
		got = append(got, rel)
		modes[rel] = info.Mode()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Walk order\n got %q\nwant %q", got, want)
	}
	if modes["h/link"]&fs.ModeSymlink == 0 || !modes["h/b/x"].IsRegular() {
		t.Errorf("modes: link %v, file %v", modes["h/link"], modes["h/b/x"])
	}

	got = nil
	if err := m.Walk("h/b", func(rel string, _ fs.FileInfo) error { got = append(got, rel); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"h/b/%index", "h/b/x", "h/b/y/z"}; !slices.Equal(got, want) {
		t.Errorf("Walk(h/b) = %q, want %q", got, want)
	}
	if err := m.Walk("nothing/here", func(string, fs.FileInfo) error { t.Error("called"); return nil }); err != nil {
		t.Errorf("Walk of a missing directory: %v", err)
	}
	if err := m.Walk("h/b.txt", func(string, fs.FileInfo) error { return nil }); err == nil {
		t.Error("Walk of a file succeeded")
	}
	if err := m.Walk(".resync-dest", func(string, fs.FileInfo) error { return nil }); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Walk(.resync-dest): %v", err)
	}

	n := 0
	stop := errors.New("stop")
	if err := m.Walk("", func(string, fs.FileInfo) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("Walk returned %v after %d calls; want the callback's error after 1", err, n)
	}
	n = 0
	if err := m.Walk("", func(string, fs.FileInfo) error { n++; return fs.SkipAll }); err != nil || n != 1 {
		t.Errorf("fs.SkipAll: %v after %d calls", err, n)
	}
}
