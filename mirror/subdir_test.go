package mirror

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// holdsAnEntry tells a directory holding entries - whatever their number
// or the length of their names, and whatever the order getdents gives
// them in - from one holding only "." and "..".
func TestHoldsAnEntry(t *testing.T) {
	long := strings.Repeat("n", 255) // the longest name: one record of 280 bytes
	for _, tc := range []struct {
		name  string
		files []string
		want  bool
	}{
		{"empty", nil, false},
		{"one file", []string{"f"}, true},
		{"one long name", []string{long}, true},
		{"long names", []string{long, strings.Repeat("m", 255), strings.Repeat("o", 254)}, true},
		{"a directory", []string{"d/"}, true},
		{"many", manyNames(3000), true},
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
			held, ok := holdsAnEntry(f)
			if !ok || held != tc.want {
				t.Errorf("holdsAnEntry = %v, %v; want %v, true", held, ok, tc.want)
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
// entry, as each deletion does, the way it does (a few entries at a time)
// and the way it did (os.File.ReadDir(1): 8 KiB of entries):
//
//	go test -run '^$' -bench HoldsEntries ./mirror/
func BenchmarkHoldsEntries(b *testing.B) {
	dir := b.TempDir()
	for _, n := range manyNames(1000) {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, way := range []string{"getdents-512", "ReadDir-1"} {
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
					held, _ = holdsAnEntry(f)
				}
				f.Close()
				if !held {
					b.Fatal("no entry seen")
				}
			}
		})
	}
}
