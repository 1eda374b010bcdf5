package incremental_test

import (
	"context"
	"runtime/pprof"
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
// a fresh baseline. The baseline that makes the mirror and the apply run
// under the profiler labels phase=baseline and phase=apply, so that a
// profile shows one of them (the fixture Source's work has no label):
//
//	go test -run '^$' -bench 'ApplyBacklog$' -benchtime 1x -cpuprofile cpu.out ./incremental/
//	go tool pprof -tagfocus phase=apply -top -cum cpu.out
func BenchmarkApplyBacklog(b *testing.B) { benchApplyBacklog(b, 10_000, 9_000) }

// BenchmarkApplyBacklog200k is BenchmarkApplyBacklog at the scale of
// scripts/bench-sync's figure: 180,000 changes to 200,000 resources (a
// minute a run; TMPDIR on tmpfs keeps the disk out of it).
func BenchmarkApplyBacklog200k(b *testing.B) { benchApplyBacklog(b, 200_000, 180_000) }

func benchApplyBacklog(b *testing.B, n, changes int) {
	for b.Loop() {
		b.StopTimer()
		spec := fixtures.DefaultSpec()
		spec.Resources, spec.SizeMin, spec.SizeMax, spec.ChangeListMax = n, 4096, 4096, changes
		h := desttest.NewHarness(b, spec)
		h.Open(false)
		began := time.Now()
		pprof.Do(context.Background(), pprof.Labels("phase", "baseline"), func(context.Context) {
			if _, err := h.Baseline(0, func(o *baseline.Options) { o.Workers = 8 }); err != nil {
				b.Fatal(err)
			}
		})
		b.Logf("baseline %s", time.Since(began))
		if err := h.Src.AdvanceEven(changes, time.Second); err != nil {
			b.Fatal(err)
		}
		cursor := h.Cursor()
		b.StartTimer()
		pprof.Do(context.Background(), pprof.Labels("phase", "apply"), func(context.Context) {
			sum, err := h.Incremental(cursor, func(o *incremental.Options) {
				o.Workers = 8
				withDelete(o)
			})
			if err != nil || sum.Applied != int64(changes) {
				b.Fatalf("%v: %+v", err, sum)
			}
		})
		b.StopTimer()
		h.Close()
		b.StartTimer()
	}
}
