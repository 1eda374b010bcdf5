package mirror

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A symlink planted in the mirror as a parent directory, leading outside
// or written as an absolute path (the os.Root below the mirror refuses to
// follow either), makes Stat of a path below it a per-resource path
// conflict (ErrPathConflict, ENOTDIR) - never an error a worker would take
// for a disk fault and stop the whole run for (README "Guarantees",
// hostile Sources). A missing path stays fs.ErrNotExist.
func TestStatBelowAPlantedSymlinkIsAConflict(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "canary"), []byte("canary"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/real/f", "inside", time.Time{})
	for link, target := range map[string]string{"h/out": outside, "h/abs": filepath.Join(dir, "h", "real")} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"h/out/canary", "h/out/absent", "h/abs/f", "h/abs/absent"} {
		_, err := m.Stat(rel)
		if !errors.Is(err, ErrPathConflict) || !errors.Is(err, syscall.ENOTDIR) {
			t.Errorf("Stat(%s) = %v, want a path conflict (ENOTDIR)", rel, err)
		}
	}
	if _, err := m.Stat("h/real/absent"); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrPathConflict) {
		t.Errorf("Stat of a missing file = %v, want fs.ErrNotExist", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "canary")); string(b) != "canary" {
		t.Errorf("the canary outside changed: %q", b)
	}
}
