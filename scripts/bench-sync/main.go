// Command bench-sync measures the two figures of incremental sync, with
// the resync-dest binary end to end against a fixture Source served in
// this process on loopback (see ../shared/BENCHMARKING.md):
//
//  1. sync of an unchanged N-resource mirror (default 10,000), alternated
//     round by round (A B C A B C ...) with the other ways to learn that
//     nothing changed: baseline (re-reading the Resource List and the
//     state) and discover (the floor: process start and discovery);
//  2. sync applying C changes (default 50,000) to a fresh baseline of the
//     snapshot, alternated with a fresh baseline of the changed Source (the
//     alternative to applying changes). -mix random makes them as the
//     fixture's MutateRandom does, in a Change List Index of lists of
//     1,000; -mix even makes a third each of created, updated and deleted
//     (updates and deletions of live resources, some changed several
//     times when C is large), all in one closed Change List - a user back
//     from an outage.
//
// The first measure is skipped with -unchanged=false.
//
// Each run gets a fresh directory and starts on a synced, quiet file
// system (benchmark.Quiet: after a sync, and once the files an apply
// deleted can no longer slow it, -quiet after them - or after an earlier
// invocation's removal of its work directory beside this one,
// benchmark.LastRemoval); everything is deleted at the end. In each round
// the fresh baseline runs first, then the apply, so that only the apply's
// own deletions ever fall inside a timed run; with -peer the two applies
// take turns going first (A B, then B A).
// Every document of both Sources is fetched once, untimed, before the
// first timed run (benchmark.Warm).
// It prints each run, the medians, and resync-dest's peak RSS. For the
// second measure it prints each run's CPU time (user + system) and that of
// the Source served (this process's) too: they share the two cores, and on
// a machine shared with other work the CPU figures move far less than the
// wall-clock ones.
//
//	go build -o /tmp/resync-dest ./cmd/resync-dest
//	go run ./scripts/bench-sync -bin /tmp/resync-dest -n 10000 -changes 50000 -rounds 3
//	go run ./scripts/bench-sync -bin /tmp/resync-dest -unchanged=false -mix even -n 200000 -changes 180000 -rounds 3
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/scripts/internal/benchmark"
)

func main() {
	bin := flag.String("bin", "", "resync-dest binary to measure (required)")
	peer := flag.String("peer", "", "another resync-dest binary (another version) whose sync applying the changes is measured alternately with -bin's, on the same Sources")
	n := flag.Int("n", 10000, "resources")
	changes := flag.Int("changes", 50000, "changes to apply in the second measure (0 skips it)")
	history := flag.Int("history", 2000, "changes in the Source's history before the unchanged mirror is made")
	unchanged := flag.Bool("unchanged", true, "measure the sync of an unchanged mirror (the first measure)")
	mix := flag.String("mix", "random", "the changes applied: random (the fixture's mix, in lists of 1,000) or even (a third each of created, updated, deleted, in one closed Change List)")
	rounds := flag.Int("rounds", 3, "rounds of each measure")
	workers := flag.Int("workers", 8, "resync-dest --workers")
	logLevel := flag.String("log-level", "", "resync-dest --log-level for the measured runs (default: --quiet)")
	work := flag.String("dir", "", "where to make the work directory, removed at the end (default: the system's temporary directory; /dev/shm for tmpfs)")
	quiet := flag.Duration("quiet", benchmark.DefaultQuiet, "how long after an apply's deletions the next run starts, and the first after a benchmark last removed its work directory beside this one (ext4 without a journal slows creating files for up to 6 minutes after a deletion; 0 on tmpfs or a journaled file system)")
	flag.Parse()
	benchmark.NeedBin("bench-sync", *bin)
	if *mix != "random" && *mix != "even" {
		fmt.Fprintln(os.Stderr, "bench-sync: -mix must be random or even")
		os.Exit(2)
	}
	b := &bench{bin: *bin, peer: *peer, workers: *workers, rounds: *rounds, logLevel: *logLevel, mix: *mix, unchanged: *unchanged, quiet: benchmark.Quiet{Wait: *quiet}}
	benchmark.ExitOn("bench-sync", b.run(*n, *history, *changes, *work))
}

type bench struct {
	bin       string
	peer      string
	workers   int
	rounds    int
	logLevel  string
	mix       string
	unchanged bool
	quiet     benchmark.Quiet
	url       string
	serving   atomic.Pointer[fixtures.Source]
}

func (b *bench) run(n, history, changes int, work string) error {
	b.quiet.DeletedAt(benchmark.LastRemoval(work)) // before work names the work directory
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	b.url = base + "/"
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.serving.Load().Handler().ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	work, removeWork, err := benchmark.WorkDir(work, "bench-sync-")
	if err != nil {
		return err
	}
	defer removeWork()
	if b.unchanged {
		if err := b.measureUnchanged(n, history, work, base); err != nil {
			return err
		}
	}
	if changes > 0 {
		return b.applying(n, changes, work, base)
	}
	return nil
}

// source builds the fixture Source of n resources of 4 KiB with the given
// number of changes (one second apart) of the given mix, named by base.
func source(n, changes int, mix, base string) (*fixtures.Source, error) {
	spec := fixtures.DefaultSpec()
	spec.Resources, spec.SizeMin, spec.SizeMax = n, 4096, 4096
	if mix == "even" && changes > 0 {
		spec.ChangeListMax = changes // the last change closes the one list
	}
	src, err := fixtures.New(spec)
	if err != nil {
		return nil, err
	}
	if err := src.SetBaseURL(base); err != nil {
		return nil, err
	}
	if mix == "even" {
		return src, src.AdvanceEven(changes, time.Second)
	}
	return src, src.AdvanceRandom(changes, time.Second)
}

// measureUnchanged times sync, baseline and discover of an unchanged
// mirror.
func (b *bench) measureUnchanged(n, history int, work, base string) error {
	src, err := source(n, history, "random", base)
	if err != nil {
		return err
	}
	b.serving.Store(src)
	dir := filepath.Join(work, "unchanged")
	// The mirror: a baseline, then one sync that reads the history once
	// (and records the closed lists as done), as any cron run after the
	// first would find it.
	if _, err := b.resync("sync", dir); err != nil {
		return err
	}
	if _, err := b.resync("sync", dir); err != nil {
		return err
	}
	fmt.Printf("1. unchanged mirror of %d resources, %d changes in the history (%d Change Lists)\n", n, history, len(src.Changes(0))/src.Spec().ChangeListMax+1)
	times := map[string][]time.Duration{}
	var rss []int64
	for i := range b.rounds {
		for _, verb := range []string{"sync", "baseline", "discover"} {
			m, err := b.resync(verb, dir)
			if err != nil {
				return err
			}
			times[verb] = append(times[verb], m.Wall)
			if verb == "sync" {
				rss = append(rss, m.RSS)
			}
			fmt.Printf("   round %d  %-8s %8s  peak RSS %d MiB\n", i+1, verb, m.Wall.Round(time.Millisecond), m.RSS/1024)
		}
	}
	fmt.Printf("   median: sync %s, baseline %s, discover %s; sync peak RSS max %d MiB\n",
		benchmark.Median(times["sync"]).Round(time.Millisecond), benchmark.Median(times["baseline"]).Round(time.Millisecond),
		benchmark.Median(times["discover"]).Round(time.Millisecond), slices.Max(rss)/1024)
	return nil
}

// applying times a sync that applies the changes to a fresh baseline of
// the snapshot, against a fresh baseline of the changed Source.
func (b *bench) applying(n, changes int, work, base string) error {
	before, err := source(n, 0, b.mix, base)
	if err != nil {
		return err
	}
	after, err := source(n, changes, b.mix, base)
	if err != nil {
		return err
	}
	lists := len(after.Changes(0))/after.Spec().ChangeListMax + 1
	fmt.Printf("2. applying %d changes (%s mix, %d Change Lists) to a mirror of %d resources; the changed Source has %d\n",
		changes, b.mix, lists, n, len(after.Resources(0)))
	// Every document rendered before the first timed run, not by it.
	for _, src := range []*fixtures.Source{before, after} {
		b.serving.Store(src)
		if err := benchmark.Warm(src.SourceDescriptionURL()); err != nil {
			return err
		}
	}
	var a, p, c benchmark.Runs
	apply := func(bin, dir string) (benchmark.Measured, error) {
		b.serving.Store(before)
		if _, err := b.runBin(bin, "sync", dir); err != nil { // the baseline, untimed
			return benchmark.Measured{}, err
		}
		b.serving.Store(after)
		defer b.quiet.Deleted()
		return b.runBin(bin, "sync", dir, "--delete", "--max-delete", "100%")
	}
	for i := range b.rounds {
		// The fresh baseline first: it deletes nothing, so the apply after
		// it starts as clean as it did.
		b.serving.Store(after)
		m, err := b.resync("baseline", filepath.Join(work, fmt.Sprintf("rebase-%d", i)))
		if err != nil {
			return err
		}
		c.Add(m)
		fmt.Printf("   round %d  baseline     %s\n", i+1, show(m))

		// With -peer the two applies take turns going first (A B, B A,
		// ...): the first apply of a round ran slower than the second,
		// whichever build it was (stop 36: by 8 to 16 s in round 1).
		type applier struct {
			bin, name string
			r         *benchmark.Runs
		}
		order := []applier{{b.bin, "sync", &a}, {b.peer, "peer", &p}}
		if b.peer == "" {
			order = order[:1]
		} else if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, ap := range order {
			m, err := apply(ap.bin, filepath.Join(work, fmt.Sprintf("%s-%d", ap.name, i)))
			if err != nil {
				return err
			}
			ap.r.Add(m)
			fmt.Printf("   round %d  %s (apply) %s  %6.0f changes/s\n", i+1, ap.name, show(m), float64(changes)/m.Wall.Seconds())
		}
	}
	ma, mc := benchmark.Median(a.Wall), benchmark.Median(c.Wall)
	fmt.Printf("   median: sync applying %d changes %s (%.0f changes/s), fresh baseline %s (ratio %.2f); sync peak RSS max %d MiB\n",
		changes, ma.Round(time.Millisecond), float64(changes)/ma.Seconds(), mc.Round(time.Millisecond), ma.Seconds()/mc.Seconds(), slices.Max(a.RSS)/1024)
	fmt.Printf("   median CPU: sync applying %s, fresh baseline %s (ratio %.2f); with the Source's: %s and %s (ratio %.2f)\n",
		benchmark.Median(a.CPU).Round(time.Millisecond), benchmark.Median(c.CPU).Round(time.Millisecond),
		benchmark.Median(a.CPU).Seconds()/benchmark.Median(c.CPU).Seconds(),
		benchmark.Median(a.Machine).Round(time.Millisecond), benchmark.Median(c.Machine).Round(time.Millisecond),
		benchmark.Median(a.Machine).Seconds()/benchmark.Median(c.Machine).Seconds())
	fmt.Printf("   round by round, sync (apply) / fresh baseline: wall %s, CPU %s\n", benchmark.RoundRatios(a.Wall, c.Wall), benchmark.RoundRatios(a.CPU, c.CPU))
	if b.peer != "" {
		mp := benchmark.Median(p.Wall)
		fmt.Printf("   median: peer applying %d changes %s (ratio to -bin's %.2f), CPU %s (ratio to -bin's %.2f); peak RSS max %d MiB\n",
			changes, mp.Round(time.Millisecond), mp.Seconds()/ma.Seconds(), benchmark.Median(p.CPU).Round(time.Millisecond),
			benchmark.Median(p.CPU).Seconds()/benchmark.Median(a.CPU).Seconds(), slices.Max(p.RSS)/1024)
		fmt.Printf("   round by round, peer (apply) / fresh baseline: wall %s, CPU %s\n", benchmark.RoundRatios(p.Wall, c.Wall), benchmark.RoundRatios(p.CPU, c.CPU))
		fmt.Printf("   round by round, peer (apply) / sync (apply): wall %s, CPU %s\n", benchmark.RoundRatios(p.Wall, a.Wall), benchmark.RoundRatios(p.CPU, a.CPU))
	}
	return nil
}

// show formats one run of resync-dest.
func show(m benchmark.Measured) string {
	return fmt.Sprintf("%8s  CPU %8s  Source CPU %8s  peak RSS %d MiB", m.Wall.Round(time.Millisecond),
		m.CPU.Round(time.Millisecond), m.Source.Round(time.Millisecond), m.RSS/1024)
}

// resync runs one resync-dest command of -bin and measures it.
func (b *bench) resync(verb, dir string, extra ...string) (benchmark.Measured, error) {
	return b.runBin(b.bin, verb, dir, extra...)
}

// runBin runs one command of the binary bin.
func (b *bench) runBin(bin, verb, dir string, extra ...string) (benchmark.Measured, error) {
	args := []string{"--quiet", verb}
	if b.logLevel != "" {
		args = []string{"--log-level", b.logLevel, verb}
	}
	if verb != "discover" {
		args = append(args, "--progress", "never", "--workers", fmt.Sprint(b.workers), "--dest", dir)
	}
	args = append(append(args, extra...), b.url)
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	if verb == "discover" {
		cmd.Stdout = nil
	}
	b.quiet.Before()
	m, err := benchmark.Measure(cmd)
	if err != nil {
		return m, fmt.Errorf("resync-dest %v: %w", args, err)
	}
	return m, nil
}
