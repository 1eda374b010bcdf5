package mirror

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Open reads back a copy held; a symlink, a directory, a missing file and
// a path outside the tree are refused.
func TestOpen(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/f", "hello", time.Time{})
	f, err := m.Open("h/f")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(b) != "hello" {
		t.Errorf("Open read %q, %v", b, err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "h/link")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"h/link", "h", "../x", "/etc/passwd"} {
		if f, err := m.Open(rel); err == nil {
			f.Close()
			t.Errorf("Open(%q) succeeded", rel)
		}
	}
	if _, err := m.Open("h/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
