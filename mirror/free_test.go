package mirror

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// A rename over a file keeps the old one (Keep) and lets it go after; a
// rename to a new name keeps nothing. The contents are the new ones, and
// a fault of Keep costs only the keeping, never the rename.
func TestPlaceKeepsTheFileItReplaces(t *testing.T) {
	l := newOpLog(OpKeep, OpRename)
	m, dir, armed := faultMirror(t, l.fault)
	// Held before this session: in a directory the session made, a Put
	// does not look for the file it will replace (see createIn).
	if err := os.MkdirAll(filepath.Join(dir, "h/a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "h/a/f"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	update := stage(t, m, "h/a/f", "new", time.Time{})
	create := stage(t, m, "h/a/g", "created", time.Time{})
	if err := errors.Join(m.Place([]string{update, create})...); err != nil {
		t.Fatal(err)
	}
	if got, want := l.take(), []string{"keep h/a/f", "rename h/a/f", "rename h/a/g"}; !slices.Equal(got, want) {
		t.Errorf("Place did %q, want %q", got, want)
	}
	l.setFail(func(op, _ string) error {
		if op == OpKeep {
			return syscall.EMFILE
		}
		return nil
	})
	again := stage(t, m, "h/a/f", "newer", time.Time{})
	if errs := m.Place([]string{again}); errs[0] != nil {
		t.Fatalf("a rename whose Keep failed: %v", errs[0])
	}
	if got := l.take(); !slices.Equal(got, []string{"keep h/a/f", "rename h/a/f"}) {
		t.Errorf("Place with a failing Keep did %q", got)
	}
	for rel, want := range map[string]string{"h/a/f": "newer", "h/a/g": "created"} {
		if got := mustRead(t, dir, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
}

// RootFS.Keep holds the file itself - renamed over, it is still there,
// unlinked, until the hold is closed -, a symlink itself (not followed),
// a FIFO without blocking; a missing name is fs.ErrNotExist.
func TestRootFSKeep(t *testing.T) {
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := NewRootFS(r)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "d"), 0o755))
	for _, name := range []string{"top", "d/f"} {
		must(os.WriteFile(filepath.Join(dir, name), []byte("old bytes"), 0o644))
		must(os.WriteFile(filepath.Join(dir, name+".new"), []byte("new"), 0o644))
		held, err := f.Keep(name)
		if err != nil || held == nil {
			t.Fatalf("Keep(%s) = %v, %v", name, held, err)
		}
		must(f.Rename(name+".new", name))
		var st syscall.Stat_t
		must(syscall.Fstat(int(held.(heldFile)), &st))
		if st.Nlink != 0 || st.Size != int64(len("old bytes")) {
			t.Errorf("%s kept: %d links, %d bytes; want the old file, unlinked", name, st.Nlink, st.Size)
		}
		must(held.Close())
	}
	must(os.Symlink("top", filepath.Join(dir, "d/link")))
	must(syscall.Mkfifo(filepath.Join(dir, "d/fifo"), 0o644))
	for name, want := range map[string]uint32{"d/link": syscall.S_IFLNK, "d/fifo": syscall.S_IFIFO} {
		held, err := f.Keep(name)
		if err != nil {
			t.Fatalf("Keep(%s): %v", name, err)
		}
		var st syscall.Stat_t
		must(syscall.Fstat(int(held.(heldFile)), &st))
		if st.Mode&syscall.S_IFMT != want {
			t.Errorf("Keep(%s) holds mode %o, want %o", name, st.Mode&syscall.S_IFMT, want)
		}
		must(held.Close())
	}
	if _, err := f.Keep("d/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Keep of a missing name: %v", err)
	}
}
