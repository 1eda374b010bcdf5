package resourcesync

import (
	"fmt"
	"io"
	"runtime"
	"testing"
)

// TestConstantMemory streams a generated list of 1,000,000 entries (200,000
// under the race detector) through an io.Pipe and checks that the heap in
// use does not grow with the number of entries read: the Reader holds only
// the entry being read.
func TestConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a million entries")
	}
	n := 1_000_000
	if raceEnabled {
		n = 200_000
	}
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, newGenListReader(n))
		pw.CloseWithError(err)
	}()
	defer pr.Close()

	heapInUse := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	r := NewReader(pr, "generated.xml", Limits{})
	var at100k uint64
	var last *Entry
	for e, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		last = e
		if r.Count() == int64(n/10) {
			at100k = heapInUse()
		}
	}
	at1M := heapInUse()
	if r.Count() != int64(n) || last.Loc != fmt.Sprintf("http://example.com/dataset1/resources/res%d.html", n-1) {
		t.Fatalf("read %d entries, last %q", r.Count(), last.Loc)
	}
	t.Logf("heap in use: %d KiB at %d entries, %d KiB at %d", at100k>>10, n/10, at1M>>10, n)
	// A leak of one byte per entry would show as 900 KB (two bytes, as
	// 360 KB under the race detector).
	if at1M > at100k+256<<10 {
		t.Errorf("heap in use grew from %d to %d bytes between %d and %d entries", at100k, at1M, n/10, n)
	}
}
