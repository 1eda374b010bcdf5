// Command bench-baseline measures a baseline copy: it serves a fixture
// Source of N resources of about 4 KiB on loopback and runs, alternately in
// one process (A B A B ...; see ../shared/BENCHMARKING.md), the resync-dest
// binary and a bare Go fetcher - the floor: 16 keep-alive connections, GET,
// write a .part file, md5 and length check, rename. The floor runs as a
// child process too (this program, re-executed with -floor-list), so that
// both pay for a process start and neither shares the server's Go runtime,
// which makes every request's hand-offs cheaper. After each run the file
// system is synced, untimed, so that no run pays for the write-back of the
// one before (the floor never syncs). Each run gets a fresh
// directory; everything is deleted at the end. It prints each run, the
// medians, their ratio and both peak RSS figures (both are polled alike).
//
//	go build -o /tmp/resync-dest ./cmd/resync-dest
//	go run ./scripts/bench-baseline -bin /tmp/resync-dest -n 10000 -rounds 3
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
	"syscall"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/scripts/internal/peakrss"
)

func main() {
	bin := flag.String("bin", "", "resync-dest binary to measure (required)")
	n := flag.Int("n", 10000, "resources")
	rounds := flag.Int("rounds", 3, "A/B rounds")
	workers := flag.Int("workers", 8, "resync-dest --workers")
	work := flag.String("dir", "", "work directory (default: a new temp directory, removed at the end)")
	floorList := flag.String("floor-list", "", "internal: be the floor, fetching the URIs (and md5s) in this file into -dir")
	flag.Parse()
	if *floorList != "" {
		if err := runFloor(*floorList, *work); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
		return
	}
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "bench-baseline: -bin is required")
		os.Exit(2)
	}
	if err := run(*bin, *n, *rounds, *workers, *work); err != nil {
		fmt.Fprintln(os.Stderr, "bench-baseline:", err)
		os.Exit(1)
	}
}

func run(bin string, n, rounds, workers int, work string) error {
	spec := fixtures.DefaultSpec()
	spec.Resources, spec.SizeMin, spec.SizeMax, spec.NoChangeList = n, 4096, 4096, true
	src, err := fixtures.New(spec)
	if err != nil {
		return err
	}
	srv, err := fixtures.Listen("127.0.0.1:0", src)
	if err != nil {
		return err
	}
	defer srv.Close()
	if work == "" {
		if work, err = os.MkdirTemp("", "bench-baseline-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	}
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
	fmt.Printf("%d resources of 4 KiB at %s; resync-dest --workers %d; floor: 16 connections\n", n, srv.URL, workers)
	var a, b []time.Duration
	var rss []int64
	for i := range rounds {
		dir := filepath.Join(work, fmt.Sprintf("rd-%d", i))
		start := time.Now()
		cmd := exec.Command(bin, "--quiet", "baseline", "--progress", "never", "--workers", fmt.Sprint(workers), "--dest", dir, srv.URL)
		cmd.Stderr = os.Stderr
		maxrss, err := peakrss.Run(cmd, 2*time.Millisecond) // KiB
		if err != nil {
			return fmt.Errorf("resync-dest: %w", err)
		}
		d := time.Since(start)
		a, rss = append(a, d), append(rss, maxrss)
		fmt.Printf("round %d  resync-dest %8s  peak RSS %d MiB\n", i+1, d.Round(time.Millisecond), maxrss/1024)
		settle()

		dir = filepath.Join(work, fmt.Sprintf("floor-%d", i))
		start = time.Now()
		cmd = exec.Command(self, "-floor-list", list, "-dir", dir)
		cmd.Stderr = os.Stderr
		// Measured like resync-dest, so that both pay for the polling.
		floorRSS, err := peakrss.Run(cmd, 2*time.Millisecond)
		if err != nil {
			return fmt.Errorf("floor: %w", err)
		}
		d = time.Since(start)
		b = append(b, d)
		fmt.Printf("round %d  floor       %8s  peak RSS %d MiB\n", i+1, d.Round(time.Millisecond), floorRSS/1024)
		settle()
	}
	ma, mb := median(a), median(b)
	fmt.Printf("median: resync-dest %s, floor %s, ratio %.2f; resync-dest peak RSS max %d MiB\n",
		ma.Round(time.Millisecond), mb.Round(time.Millisecond), float64(ma)/float64(mb), slices.Max(rss)/1024)
	return nil
}

// settle writes back, untimed, what the last run left dirty: the floor
// never syncs, so without this the next run would pay for its write-back
// (see ../shared/BENCHMARKING.md).
func settle() {
	syscall.Sync()
	time.Sleep(500 * time.Millisecond)
}

// runFloor reads the floor's list - lines of a URI and its md5 - and runs
// the floor into dir.
func runFloor(list, dir string) error {
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
	return floor(uris, sums, dir)
}

// floor is the bare fetcher: what any client must at least do.
func floor(uris []string, sums map[string]string, dir string) error {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}}
	jobs := make(chan string)
	errc := make(chan error, 16)
	var wg sync.WaitGroup
	for range 16 {
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

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
