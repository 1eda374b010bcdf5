// Command bench-politeness measures what a Source sees of resync-dest's
// politeness limits: it serves a fixture Source of N resources on
// loopback, runs the resync-dest binary's baseline against it with the
// flags given after --, and prints the requests the Source received in
// each second of the wall clock, their largest count, and the run's time.
//
//	go build -o /tmp/resync-dest ./cmd/resync-dest
//	go run ./scripts/bench-politeness -bin /tmp/resync-dest -n 2000 -- --tpslimit 20
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/scripts/internal/benchmark"
)

func main() {
	bin := flag.String("bin", "", "resync-dest binary to run (required)")
	n := flag.Int("n", 2000, "resources")
	flag.Parse()
	benchmark.NeedBin("bench-politeness", *bin)
	benchmark.ExitOn("bench-politeness", run(*bin, *n, flag.Args()))
}

func run(bin string, n int, extra []string) error {
	spec := fixtures.DefaultSpec()
	spec.Resources = n
	src, srv, err := benchmark.Serve(spec)
	if err != nil {
		return err
	}
	defer srv.Close()
	dest, err := os.MkdirTemp("", "bench-politeness-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dest)
	args := append([]string{"baseline", "--dest", dest, "--progress", "never", "--quiet"}, extra...)
	cmd := exec.Command(bin, append(args, srv.URL)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %v: %w", bin, args, err)
	}
	took := time.Since(start)
	per := src.RequestsPerSecond()
	total := 0
	for _, c := range per {
		total += c
	}
	fmt.Printf("flags %v: %d resources, %d requests in %s\n", extra, n, total, took.Round(time.Millisecond))
	fmt.Printf("requests per second: %v\n", per)
	if len(per) > 0 {
		fmt.Printf("largest second: %d requests; median second: %d\n", slices.Max(per), benchmark.Median(per))
	}
	return nil
}
