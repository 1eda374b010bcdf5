package incremental_test

import (
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
)

// BenchmarkApplyBacklog applies a backlog of 9,000 changes - a third each
// of created, updated and deleted, in one closed Change List - to a
// mirror of 10,000 resources of 4 KiB, in process, for profiles
// (-cpuprofile, -trace); scripts/bench-sync measures the command against
// a fresh baseline.
func BenchmarkApplyBacklog(b *testing.B) {
	const n, changes = 10_000, 9_000
	for b.Loop() {
		b.StopTimer()
		spec := fixtures.DefaultSpec()
		spec.Resources, spec.SizeMin, spec.SizeMax, spec.ChangeListMax = n, 4096, 4096, changes
		h := desttest.NewHarness(b, spec)
		h.Open(false)
		began := time.Now()
		if _, err := h.Baseline(0, func(o *baseline.Options) { o.Workers = 8 }); err != nil {
			b.Fatal(err)
		}
		b.Logf("baseline %s", time.Since(began))
		if err := h.Src.AdvanceEven(changes, time.Second); err != nil {
			b.Fatal(err)
		}
		cursor := h.Cursor()
		b.StartTimer()
		sum, err := h.Incremental(cursor, func(o *incremental.Options) {
			o.Workers = 8
			withDelete(o)
		})
		if err != nil || sum.Applied != changes {
			b.Fatalf("%v: %+v", err, sum)
		}
		b.StopTimer()
		h.Close()
		b.StartTimer()
	}
}
