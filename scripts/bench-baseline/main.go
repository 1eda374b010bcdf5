// Command bench-baseline measures a baseline copy: it serves a fixture
// Source of N resources of about 4 KiB on loopback and runs, alternately in
// one process (A B A B ...; see ../shared/BENCHMARKING.md), the resync-dest
// binary and a bare Go fetcher - the floor: 16 keep-alive connections, GET,
// write a .part file, md5 and length check, rename; resync-dest runs with
// -workers fetches in flight, by default as many as the floor's connections.
// The floor runs as a child process too (this program, re-executed with
// -floor-list), so that both pay for a process start and neither shares the
// server's Go runtime, which makes every request's hand-offs cheaper. After
// each run the file system is synced, untimed, so that no run pays for the
// write-back of the one before (the floor does not sync, but with
// -floor-sync). The Source's documents are fetched once, untimed, before
// the first run (benchmark.Warm). Each run gets a fresh directory;
// everything is deleted at the end. No run deletes anything, but on ext4
// without a journal files deleted before the start slow the first runs
// (see benchmark.Quiet): the first run waits until -quiet has passed since
// a benchmark last removed its work directory beside this one
// (benchmark.LastRemoval); start it at least six minutes after deleting
// many files any other way. It prints each run, the medians, their ratios
// to the floor and the peak RSS figures (all are polled alike). Besides
// wall-clock time it reports each child's CPU time (user + system) and CPU
// µs per resource: on a machine shared with other work the CPU figures move
// far less than the wall-clock ones. The server's CPU time during each run
// (this process's) is printed too: it shares the two cores with the child,
// so it dilutes the wall-clock ratio. -before runs a second resync-dest
// binary in the same rounds (A B floor, A B floor, ...), for a before/after
// comparison of a change. -floor-sync makes the floor sync the file system
// once at its end, timed: a second comparison, with the least durability a
// client can have.
//
//	go build -o /tmp/resync-dest ./cmd/resync-dest
//	go run ./scripts/bench-baseline -bin /tmp/resync-dest -n 10000 -rounds 3
//	go run ./scripts/bench-baseline -bin /tmp/after -before /tmp/before -n 50000 -dir /dev/shm
package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/scripts/internal/benchmark"
	"golang.org/x/sys/unix"
)

func main() {
	bin := flag.String("bin", "", "resync-dest binary to measure (required)")
	before := flag.String("before", "", "a second resync-dest binary (say, built from main) run alternately with -bin and the floor, for a before/after comparison")
	n := flag.Int("n", 10000, "resources")
	rounds := flag.Int("rounds", 3, "A/B rounds")
	// As many fetches in flight as the floor has connections: with fewer,
	// both processes and the server wait and wake more per resource, and
	// the figure measures the concurrency, not the work (resync-dest's
	// own default, 8, is a politeness choice).
	workers := flag.Int("workers", floorConns, "resync-dest --workers (default: the floor's connections)")
	work := flag.String("dir", "", "where to make the work directory, removed at the end (default: the system's temporary directory; /dev/shm for tmpfs)")
	quiet := flag.Duration("quiet", benchmark.DefaultQuiet, "how long after a benchmark last removed its work directory beside this one the first run starts (ext4 without a journal slows creating files for up to 6 minutes after a deletion; 0 on a journaled file system; on tmpfs no removal is recorded)")
	floorSync := flag.Bool("floor-sync", false, "the floor makes its files durable at its end, with one syncfs, timed: a second comparison, with the least durability any client can have (the floor of the figures the README reports never syncs)")
	floorList := flag.String("floor-list", "", "internal: be the floor, fetching the URIs (and md5s) in this file into -dir")
	flag.Parse()
	if *floorList != "" {
		if err := runFloor(*floorList, *work, *floorSync); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
		return
	}
	benchmark.NeedBin("bench-baseline", *bin)
	benchmark.ExitOn("bench-baseline", run(config{
		bin: *bin, before: *before, n: *n, rounds: *rounds, workers: *workers, work: *work,
		quiet: benchmark.Quiet{Wait: *quiet}, floorSync: *floorSync,
	}))
}

// config is what the flags ask of a run of the benchmark.
type config struct {
	bin, before        string
	n, rounds, workers int
	work               string // where the work directory is made
	quiet              benchmark.Quiet
	floorSync          bool
}

func run(cfg config) error {
	bin, before, n, rounds, workers, work, quiet := cfg.bin, cfg.before, cfg.n, cfg.rounds, cfg.workers, cfg.work, cfg.quiet
	quiet.DeletedAt(benchmark.LastRemoval(work)) // before work names the work directory
	spec := fixtures.DefaultSpec()
	spec.Resources, spec.SizeMin, spec.SizeMax, spec.NoChangeList = n, 4096, 4096, true
	src, srv, err := benchmark.Serve(spec)
	if err != nil {
		return err
	}
	defer srv.Close()
	work, removeWork, err := benchmark.WorkDir(work, "bench-baseline-")
	if err != nil {
		return err
	}
	defer removeWork()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	list := filepath.Join(work, "floor-list.txt")
	var lines strings.Builder
	for _, r := range src.Resources(0) {
		sum, _ := r.Fixity.Get(resourcesync.AlgMD5)
		fmt.Fprintf(&lines, "%s %s\n", r.URI, sum)
	}
	if err := os.WriteFile(list, []byte(lines.String()), 0o644); err != nil {
		return err
	}
	// The Resource List rendered before the first timed run, not by it.
	if err := benchmark.Warm(src.SourceDescriptionURL()); err != nil {
		return err
	}
	floorSays := ""
	if cfg.floorSync {
		floorSays = ", one syncfs at its end"
	}
	fmt.Printf("%d resources of 4 KiB at %s; resync-dest --workers %d; floor: %d connections%s\n", n, srv.URL, workers, floorConns, floorSays)
	contenders := []contender{{name: "resync-dest", bin: bin}}
	if before != "" {
		contenders = append(contenders, contender{name: "before", bin: before})
	}
	contenders = append(contenders, contender{name: "floor", bin: self})
	quiet.Before()
	for i := range rounds {
		for k := range contenders {
			c := &contenders[k]
			dir := filepath.Join(work, fmt.Sprintf("%s-%d", c.name, i))
			args := []string{"--quiet", "baseline", "--progress", "never", "--workers", fmt.Sprint(workers), "--dest", dir, srv.URL}
			if c.name == "floor" {
				args = []string{"-floor-list", list, "-dir", dir, fmt.Sprintf("-floor-sync=%t", cfg.floorSync)}
			}
			cmd := exec.Command(c.bin, args...)
			cmd.Stderr = os.Stderr
			m, err := benchmark.Measure(cmd)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			c.Add(m)
			fmt.Printf("round %d  %-11s %8s  CPU %8s (user %s, sys %s) = %4.0f µs/resource  peak RSS %d MiB  server CPU %s\n",
				i+1, c.name, m.Wall.Round(time.Millisecond), m.CPU.Round(time.Millisecond),
				cmd.ProcessState.UserTime().Round(time.Millisecond), cmd.ProcessState.SystemTime().Round(time.Millisecond),
				perResource(m.CPU, n), m.RSS/1024, m.Source.Round(time.Millisecond))
			// The floor does not sync (but with -floor-sync): without this
			// the next run would pay for its write-back.
			benchmark.Settle()
		}
	}
	fl := contenders[len(contenders)-1]
	for _, c := range contenders {
		mw, mc := benchmark.Median(c.Wall), benchmark.Median(c.CPU)
		fmt.Printf("median: %-11s wall %8s (%.2f× floor)  CPU %8s = %4.0f µs/resource (%.2f× floor)  peak RSS max %d MiB\n",
			c.name, mw.Round(time.Millisecond), float64(mw)/float64(benchmark.Median(fl.Wall)),
			mc.Round(time.Millisecond), perResource(mc, n), float64(mc)/float64(benchmark.Median(fl.CPU)), slices.Max(c.RSS)/1024)
	}
	for _, c := range contenders[:len(contenders)-1] {
		fmt.Printf("round by round, %s / floor: wall %s, CPU %s\n", c.name, benchmark.RoundRatios(c.Wall, fl.Wall), benchmark.RoundRatios(c.CPU, fl.CPU))
	}
	return nil
}

// A contender is one program the benchmark runs each round, with its
// figures round by round.
type contender struct {
	name, bin string
	benchmark.Runs
}

func perResource(d time.Duration, n int) float64 {
	return float64(d.Microseconds()) / float64(n)
}

// runFloor reads the floor's list - lines of a URI and its md5 - and runs
// the floor into dir; with sync, one syncfs then makes its files durable.
func runFloor(list, dir string, sync bool) error {
	data, err := os.ReadFile(list)
	if err != nil {
		return err
	}
	var uris []string
	sums := map[string]string{}
	for line := range strings.Lines(string(data)) {
		u, sum, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			return fmt.Errorf("%s: bad line %q", list, line)
		}
		uris = append(uris, u)
		sums[u] = sum
	}
	if err := floor(uris, sums, dir); err != nil || !sync {
		return err
	}
	return syncFS(dir)
}

// syncFS makes durable what is written to the file system holding dir, as
// resync-dest's mirror does for each batch.
func syncFS(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := unix.Syncfs(int(d.Fd())); err != nil {
		return fmt.Errorf("syncfs %s: %w", dir, err)
	}
	return nil
}

// floorConns is how many connections the floor fetches over.
const floorConns = 16

// floor is the bare fetcher: what any client must at least do.
func floor(uris []string, sums map[string]string, dir string) error {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: floorConns, DisableCompression: true}}
	jobs := make(chan string)
	errc := make(chan error, floorConns)
	var wg sync.WaitGroup
	for range floorConns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range jobs {
				if err := fetch(context.Background(), client, u, sums[u], dir); err != nil {
					select {
					case errc <- err:
					default:
					}
				}
			}
		}()
	}
	for _, u := range uris {
		jobs <- u
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errc:
		return err
	default:
		return nil
	}
}

func fetch(ctx context.Context, c *http.Client, u, sum, dir string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	pu, _ := url.Parse(u)
	target := filepath.Join(dir, pu.Host, filepath.FromSlash(pu.Path))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	f, err := os.Create(target + ".part")
	if err != nil {
		return err
	}
	h := md5.New()
	n, err := io.Copy(io.MultiWriter(f, h), resp.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if n != resp.ContentLength || hex.EncodeToString(h.Sum(nil)) != sum {
		return errors.New(u + ": length or md5 mismatch")
	}
	return os.Rename(target+".part", target)
}
