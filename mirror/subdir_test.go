package mirror

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// countEntries counts what one read lists of a directory - whatever the
// number of entries or the length of their names, and whatever the order
// getdents gives them in - never more than it holds, and 0 only for one
// holding nothing but "." and "..".
func TestCountEntries(t *testing.T) {
	long := strings.Repeat("n", 255) // the longest name: one record of 280 bytes
	for _, tc := range []struct {
		name     string
		files    []string
		min, max int
	}{
		{"empty", nil, 0, 0},
		{"one file", []string{"f"}, 1, 1},
		{"dot names", []string{"...", ".a"}, 2, 2},
		{"one long name", []string{long}, 1, 1},
		{"long names", []string{long, strings.Repeat("m", 255), strings.Repeat("o", 254)}, 3, 3},
		{"a directory", []string{"d/"}, 1, 1},
		{"many", manyNames(3000), 500, 3000}, // one read of 32 KiB: about 1,000
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				var err error
				if d, ok := strings.CutSuffix(f, "/"); ok {
					err = os.Mkdir(filepath.Join(dir, d), 0o755)
				} else {
					err = os.WriteFile(filepath.Join(dir, f), nil, 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n, ok := countEntries(f)
			if !ok || n < tc.min || n > tc.max {
				t.Errorf("countEntries = %d, %v; want %d to %d, true", n, ok, tc.min, tc.max)
			}
		})
	}
}

// A directory emptied of thousands of files, one Remove at a time, is
// pruned by the last one and by no other.
func TestRemovePrunesALargeDirectory(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	names := manyNames(2000)
	for _, n := range names {
		put(t, m, "h/big/"+n, "x", time.Time{})
	}
	for i, n := range names {
		if err := m.Remove("h/big/" + n); err != nil {
			t.Fatal(err)
		}
		_, err := os.Lstat(filepath.Join(dir, "h/big"))
		if last := i == len(names)-1; last != os.IsNotExist(err) {
			t.Fatalf("after removing %d of %d files: h/big: %v", i+1, len(names), err)
		}
	}
}

func manyNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("r%06d.txt", i)
	}
	return names
}

// BenchmarkHoldsEntries asks whether a directory of 1,000 files holds an
// entry, as a deletion does when it knows no bound (dirEntries), the way
// it does (one read of 32 KiB, which counts most of them) and the way it
// did (os.File.ReadDir(1): 8 KiB of entries):
//
//	go test -run '^$' -bench HoldsEntries ./mirror/
func BenchmarkHoldsEntries(b *testing.B) {
	dir := b.TempDir()
	for _, n := range manyNames(1000) {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, way := range []string{"getdents-32k", "ReadDir-1"} {
		b.Run(way, func(b *testing.B) {
			for b.Loop() {
				f, err := os.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				var held bool
				if way == "ReadDir-1" {
					e, _ := f.ReadDir(1)
					held = len(e) > 0
				} else {
					n, _ := countEntries(f)
					held = n > 0
				}
				f.Close()
				if !held {
					b.Fatal("no entry seen")
				}
			}
		})
	}
}

// A bound learnt by one removal's look spares the next removals theirs,
// and never outlives an entry that went without a removal counted: a temp
// file discarded, or a file moved out by the mapping's migration, must not
// leave the directory unpruned when its last file is removed.
func TestRemovePrunesAfterOtherRemovals(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	names := manyNames(50)
	for _, n := range names {
		put(t, m, "h/d/"+n, "x", time.Time{})
	}
	// A temp file the first removal's look counts, then discarded.
	ticket := stage(t, m, "h/d/extra", "y", time.Time{})
	if err := m.Remove("h/d/" + names[0]); err != nil {
		t.Fatal(err)
	}
	if n, ok := m.entries.bound["h/d"]; !ok || n != 50 {
		t.Fatalf("bound after the first removal: %d, %v; want 50 (49 files and the temp file)", n, ok)
	}
	if err := m.Discard(ticket); err != nil {
		t.Fatal(err)
	}
	for i, n := range names[1:] {
		if err := m.Remove("h/d/" + n); err != nil {
			t.Fatal(err)
		}
		_, err := os.Lstat(filepath.Join(dir, "h/d"))
		if last := i == len(names)-2; last != os.IsNotExist(err) {
			t.Fatalf("after removing %d of %d files: h/d: %v", i+2, len(names), err)
		}
	}
}

// Removals from many workers at once leave the directory pruned by one of
// them, and only once it is empty.
func TestRemovePrunesUnderConcurrentRemovals(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	names := manyNames(1500)
	for _, n := range names {
		put(t, m, "h/c/"+n, "x", time.Time{})
	}
	keep := "h/c/" + names[len(names)-1]
	var wg sync.WaitGroup
	work := make(chan string)
	for range 8 {
		wg.Go(func() {
			for rel := range work {
				if err := m.Remove(rel); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for _, n := range names[:len(names)-1] {
		work <- "h/c/" + n
	}
	close(work)
	wg.Wait()
	if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(keep))); err != nil {
		t.Fatalf("the file kept: %v", err)
	}
	if err := m.Remove(keep); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "h/c")); !os.IsNotExist(err) {
		t.Errorf("h/c after its last file was removed: %v", err)
	}
}
