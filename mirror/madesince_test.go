package mirror

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// MadeSince is true only of a path whose directory the mirror made after
// the mark, in the write session open now.
func TestMadeSince(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/old/a", "a", time.Time{}) // made before the mark
	if err := os.MkdirAll(filepath.Join(dir, "h", "theirs"), 0o755); err != nil {
		t.Fatal(err)
	}
	mark := m.Mark()
	put(t, m, "h/new/deep/a", "a", time.Time{})
	put(t, m, "h/theirs/a", "a", time.Time{}) // a directory found, not made
	put(t, m, "h/gone/a", "a", time.Time{})
	if err := m.Remove("h/gone/a"); err != nil { // pruned with its file
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"h/new/deep/b", true},
		{"h/new/b", true}, // made along with h/new/deep
		{"h/old/b", false},
		{"h/theirs/b", false},
		{"h/gone/b", false},
		{"top", false}, // the root is never made
		{"h/absent/b", false},
	} {
		if got := m.MadeSince(tc.rel, mark); got != tc.want {
			t.Errorf("MadeSince(%s) = %v, want %v", tc.rel, got, tc.want)
		}
	}
	if later := m.Mark(); m.MadeSince("h/new/deep/b", later) {
		t.Error("a directory made before a later mark counts as made after it")
	}

	// A new write session: nothing was made in it yet, whatever the mark.
	m.Close()
	m2 := openLockedAt(t, dir, DefaultOptions())
	if m2.MadeSince("h/new/deep/b", mark) || m2.MadeSince("h/new/deep/b", m2.Mark()) {
		t.Error("a directory of an earlier session counts as made in this one")
	}
}

// Outside a write session (read-only, or after the lock is released)
// nothing counts as made.
func TestMadeSinceNeedsTheWriteSession(t *testing.T) {
	m, _ := openLocked(t, DefaultOptions())
	mark := m.Mark()
	put(t, m, "h/d/a", "a", time.Time{})
	if !m.MadeSince("h/d/b", mark) {
		t.Fatal("MadeSince is false in the session that made the directory")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if m.MadeSince("h/d/b", mark) {
		t.Error("MadeSince is true after the session ended")
	}
}
