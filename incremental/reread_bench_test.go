package incremental_test

import (
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
)

// BenchmarkRereadOpenList is the steady cost of a sync with nothing new:
// an open Change List of 10,000 changes, all applied by an earlier run, is
// read again (each change before the cursor is looked up in the records
// kept for it, to tell one listed out of order).
func BenchmarkRereadOpenList(b *testing.B) {
	const n, changes = 2_000, 10_000
	spec := fixtures.DefaultSpec()
	spec.Resources, spec.SizeMin, spec.SizeMax, spec.NoChangeListIndex = n, 256, 256, true
	h := desttest.NewHarness(b, spec)
	h.Open(false)
	if _, err := h.Baseline(0, nil); err != nil {
		b.Fatal(err)
	}
	if err := h.Src.AdvanceEven(changes, time.Second); err != nil {
		b.Fatal(err)
	}
	if _, err := h.Incremental(h.Cursor(), nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sum, err := h.Incremental(h.Cursor(), func(o *incremental.Options) {})
		if err != nil || sum.Applied != 0 || sum.OutOfOrder != 0 {
			b.Fatalf("%v %+v", err, sum)
		}
	}
}
