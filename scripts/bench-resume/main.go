// Command bench-resume measures what a resumed download costs the Source:
// it serves a fixture Source of one resource of -size bytes on loopback,
// runs the resync-dest binary's baseline against it with the Source
// sending at -rate (so that the client reads what is sent, and sent
// bytes are received bytes, as on a real slow link; a --bwlimit of the
// client's would leave megabytes in the socket buffers), kills it
// (SIGKILL) once the Source has sent -at of the file, runs the baseline
// again at full speed, and prints the body bytes the Source sent for the
// second run, as a share of the file. Each round does it twice, in
// alternation: with resuming (the default --resume-above 8MiB) and
// without (--resume-above 0, the floor: everything again).
//
//	go build -o /tmp/resync-dest ./cmd/resync-dest
//	go run ./scripts/bench-resume -bin /tmp/resync-dest -size 64MiB -at 0.6 -rounds 3
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/scripts/internal/benchmark"
)

func main() {
	bin := flag.String("bin", "", "resync-dest binary to run (required)")
	size := flag.Int64("size", 64<<20, "the resource's size in bytes")
	at := flag.Float64("at", 0.6, "kill the first run once the Source sent this share of the file")
	rate := flag.Int("rate", 16<<20, "bytes per second the Source sends in the first run, so that the kill lands near -at")
	rounds := flag.Int("rounds", 3, "rounds (each: resume, then restart)")
	flag.Parse()
	benchmark.NeedBin("bench-resume", *bin)
	share := map[string][]float64{}
	for i := range *rounds {
		for _, mode := range []string{"resume", "restart"} {
			r, err := round(*bin, *size, *at, *rate, mode)
			benchmark.ExitOn("bench-resume", err)
			fmt.Printf("round %d %-7s: killed after %5.1f%% sent (%.1f%% kept); the next run: %d requests, %d ranged, %d bytes = %5.1f%% of the file, in %s\n",
				i+1, mode, 100*r.killedAt, 100*r.kept, r.requests, r.ranged, r.sent, 100*r.share, r.took.Round(time.Millisecond))
			share[mode] = append(share[mode], r.share)
		}
	}
	for _, mode := range []string{"resume", "restart"} {
		fmt.Printf("%-7s: median %.1f%% of the file sent again (%d rounds)\n", mode, 100*benchmark.Median(share[mode]), len(share[mode]))
	}
}

type result struct {
	killedAt, kept, share float64
	requests, ranged      int
	sent                  int64
	took                  time.Duration
}

func round(bin string, size int64, at float64, rate int, mode string) (result, error) {
	var res result
	spec := fixtures.DefaultSpec()
	spec.Resources, spec.SizeMin, spec.SizeMax = 1, int(size), int(size)
	src, srv, err := benchmark.Serve(spec)
	if err != nil {
		return res, err
	}
	defer srv.Close()
	dest, err := os.MkdirTemp("", "bench-resume-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dest)
	big := src.Resources(0)[0]
	resume := "8MiB"
	if mode == "restart" {
		resume = "0"
	}
	args := []string{"baseline", "--dest", dest, "--progress", "never", "--quiet", "--resume-above", resume}

	// 100 chunks a second, for the first request only.
	src.SetFault(big.Path, fixtures.Fault{Trickle: 10 * time.Millisecond, TrickleBytes: rate / 100, Times: 1})
	first := exec.Command(bin, append(slices.Clone(args), srv.URL)...)
	if err := first.Start(); err != nil {
		return res, err
	}
	done := make(chan error, 1)
	go func() { done <- first.Wait() }()
	want := int64(at * float64(size))
	for src.Count(big.Path).Sent < want {
		select {
		case err := <-done:
			return res, fmt.Errorf("the first run ended before the kill (%v): lower -rate", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	_ = first.Process.Kill()
	<-done
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.AwaitQuiet(ctx); err != nil {
		return res, err
	}
	res.killedAt = float64(src.Count(big.Path).Sent) / float64(size)
	res.kept = float64(keptBytes(dest)) / float64(size)

	src.ClearFaults()
	src.ResetCounts()
	start := time.Now()
	second := exec.Command(bin, append(args, srv.URL)...)
	second.Stderr = os.Stderr
	if err := second.Run(); err != nil {
		return res, fmt.Errorf("the second run: %w", err)
	}
	res.took = time.Since(start)
	c := src.Count(big.Path)
	res.requests, res.ranged, res.sent = c.Bodies, c.Ranged, c.Sent
	res.share = float64(c.Sent) / float64(size)
	return res, checkCopy(src, big, dest)
}

// keptBytes is the size of the partial downloads kept in dest.
func keptBytes(dest string) int64 {
	var n int64
	ents, _ := os.ReadDir(filepath.Join(dest, ".resync-dest", "partial"))
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && filepath.Ext(e.Name()) == "" {
			n += fi.Size()
		}
	}
	return n
}

// checkCopy checks that the mirror holds the resource's bytes.
func checkCopy(src *fixtures.Source, big fixtures.ResourceInfo, dest string) error {
	want, _ := src.Content(big.URI)
	found := false
	err := filepath.WalkDir(dest, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) == "partial" {
			return err
		}
		b, rerr := os.ReadFile(p)
		if rerr == nil && int64(len(b)) == big.Size {
			found = sha256.Sum256(b) == sha256.Sum256(want) && bytes.Equal(b[:16], want[:16])
		}
		return nil
	})
	if err == nil && !found {
		err = fmt.Errorf("the mirror does not hold %s after the second run", big.URI)
	}
	return err
}
