package baseline_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
	"github.com/resync-dest/resync-dest/state"
)

// BenchmarkDumpVsList10k measures a first baseline of 10,000 resources of
// 4 KiB from a Resource Dump of 4 packages against the same from the
// Resource List, alternately in one run (list, dump, list, dump, ...: see
// ../shared/BENCHMARKING.md), each into a fresh mirror, with 8 workers
// against the fixture Source on loopback. It reports the median seconds of
// each, their ratio, and the median of the pairs' ratios; b.N is the
// number of pairs:
//
//	go test -run '^$' -bench DumpVsList10k -benchtime 3x ./baseline/
func BenchmarkDumpVsList10k(b *testing.B) {
	spec := fixtures.DefaultSpec()
	spec.Resources, spec.SizeMin, spec.SizeMax, spec.DumpPackages, spec.NoChangeList = 10000, 4096, 4096, 4, true
	src, _ := fixtures.NewServed(b, spec)
	work := b.TempDir()
	var list, dump []time.Duration
	run := func(i int, viaDump bool) {
		dest := filepath.Join(work, strconv.Itoa(i))
		if viaDump {
			dest += "-dump"
		}
		d, err := benchBaseline(src, dest, viaDump)
		if err != nil {
			b.Fatal(err)
		}
		if viaDump {
			dump = append(dump, d)
		} else {
			list = append(list, d)
		}
		syscall.Sync() // the next run does not pay for this one's write-back
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		run(i, false)
		run(i, true)
	}
	b.StopTimer()
	ml, md := median(list), median(dump)
	b.ReportMetric(ml.Seconds(), "list-s")
	b.ReportMetric(md.Seconds(), "dump-s")
	b.ReportMetric(ml.Seconds()/md.Seconds(), "list/dump")
	// Each pair ran back to back: the median of their ratios is less
	// swayed by load that changes over the run than the ratio of medians.
	var ratios []time.Duration
	for i := range dump {
		ratios = append(ratios, time.Duration(float64(time.Second)*list[i].Seconds()/dump[i].Seconds()))
	}
	b.ReportMetric(median(ratios).Seconds(), "pair-list/dump")
	b.Logf("list %v, dump %v", list, dump)
}

// benchBaseline makes one baseline into the new mirror dest and returns
// how long baseline.Run took.
func benchBaseline(src *fixtures.Source, dest string, viaDump bool) (time.Duration, error) {
	ctx := context.Background()
	m, err := mirror.Open(dest, mirror.DefaultOptions())
	if err != nil {
		return 0, err
	}
	defer m.Close()
	if _, err := m.Lock(); err != nil {
		return 0, err
	}
	so := state.DefaultOptions()
	so.Path = filepath.Join(dest, ".resync-dest", "state.db")
	db, err := state.Open(ctx, so)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	st, err := db.EnsureSet(ctx, src.CapabilityListURL(0), src.SourceDescriptionURL())
	if err != nil {
		return 0, err
	}
	client, err := source.New(source.DefaultOptions())
	if err != nil {
		return 0, err
	}
	defer client.CloseIdleConnections()
	tmp := filepath.Join(dest, ".resync-dest", "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return 0, err
	}
	set := baseline.Set{ID: st.ID, CapabilityList: src.CapabilityListURL(0), ResourceList: src.ResourceListURL(0)}
	if viaDump {
		set.ResourceDump = src.ResourceDumpURL(0)
	}
	o := baseline.DefaultOptions()
	o.Scope = resourcesync.NewScope([]string{src.URL()}, nil)
	d := baseline.Deps{Open: desttest.Opener(client), Fetcher: client, Mirror: m, Store: db, TempDir: tmp, Log: zerolog.Nop(),
		NewListing: func() (baseline.Listing, error) { return state.NewListing(tmp) }}
	start := time.Now()
	sum, err := baseline.Run(ctx, set, d, o)
	elapsed := time.Since(start)
	if err == nil && sum.Created != 10000 {
		err = &benchError{sum: sum}
	}
	return elapsed, err
}

type benchError struct{ sum *baseline.Summary }

func (e *benchError) Error() string {
	return "baseline via " + string(e.sum.Via) + " created " + strconv.FormatInt(e.sum.Created, 10) + " of 10000"
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
