package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// t0 is the fake clock's time in tests.
var t0 = time.Date(2024, time.March, 1, 12, 0, 0, 0, time.UTC)

func fixedNow() time.Time { return t0 }

// openTest opens a fresh read-write state in t.TempDir() with the fake
// clock, closed when the test ends.
func openTest(t testing.TB) *DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "state.db"))
}

func openAt(t testing.TB, path string) *DB {
	t.Helper()
	opts := DefaultOptions()
	opts.Path = path
	opts.Now = fixedNow
	db, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

func openReadOnly(t testing.TB, path string) *DB {
	t.Helper()
	opts := DefaultOptions()
	opts.Path = path
	opts.ReadOnly = true
	opts.Now = fixedNow
	db, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("Open(%s, read-only): %v", path, err)
	}
	return db
}

func ensureSet(t testing.TB, db *DB, capList string) Set {
	t.Helper()
	s, err := db.EnsureSet(context.Background(), capList, "http://example.org/")
	if err != nil {
		t.Fatalf("EnsureSet(%s): %v", capList, err)
	}
	return s
}

func commit(t testing.TB, db *DB, setID int64, b *Batch) {
	t.Helper()
	if err := db.Commit(context.Background(), setID, b); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

func mustFixity(t testing.TB, s string) resourcesync.Fixity {
	t.Helper()
	f, err := resourcesync.ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func held(uri, path string, length int64) resourcesync.Held {
	return resourcesync.Held{URI: uri, Path: path, Length: length, Fetched: t0.Add(-time.Hour)}
}

// dirHashes maps every file name in dir to the SHA-256 of its bytes.
func dirHashes(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func names(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func wantErrIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want one matching %v", err, target)
	}
}

func allHeld(t testing.TB, db *DB, setID int64) []resourcesync.Held {
	t.Helper()
	var out []resourcesync.Held
	if err := db.EachHeld(context.Background(), setID, func(h resourcesync.Held) error {
		out = append(out, h)
		return nil
	}); err != nil {
		t.Fatalf("EachHeld: %v", err)
	}
	return out
}
