// Package benchmark holds what the benchmark commands under scripts/ share:
// the check of the -bin flag, the end of a failed run, the work directory,
// the fixture Source served and the median of the runs.
package benchmark

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// NeedBin exits 2, naming the command cmd, when bin - the -bin flag, the
// resync-dest binary every benchmark runs - is empty.
func NeedBin(cmd, bin string) {
	if bin == "" {
		fmt.Fprintf(os.Stderr, "%s: -bin is required\n", cmd)
		os.Exit(2)
	}
}

// ExitOn exits 1, naming the command cmd and err, when err is not nil.
func ExitOn(cmd string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", cmd, err)
		os.Exit(1)
	}
}

// WorkDir returns dir, or when dir is "" a new temporary directory named
// after pattern (as os.MkdirTemp takes it), with what removes it at the
// end: nothing for a directory given, everything for one made here.
func WorkDir(dir, pattern string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// Serve builds the fixture Source of spec and serves it on a free
// loopback port, until the caller closes the server.
func Serve(spec fixtures.Spec) (*fixtures.Source, *fixtures.Server, error) {
	src, err := fixtures.New(spec)
	if err != nil {
		return nil, nil, err
	}
	srv, err := fixtures.Listen("127.0.0.1:0", src)
	if err != nil {
		return nil, nil, err
	}
	return src, srv, nil
}

// Median is the middle of s (of an even count, the upper of the two);
// s is not changed and must not be empty.
func Median[T cmp.Ordered](s []T) T {
	s = slices.Clone(s)
	slices.Sort(s)
	return s[len(s)/2]
}

// RoundRatios formats a[i]/b[i] for each round i, and their median: the
// two ran in the same round, one after the other, so each ratio pairs runs
// that met the same machine - on a shared disk, steadier than the ratio of
// the two medians, which may come from different rounds.
func RoundRatios(a, b []time.Duration) string {
	var r []float64
	var s strings.Builder
	for i := range min(len(a), len(b)) {
		r = append(r, a[i].Seconds()/b[i].Seconds())
		fmt.Fprintf(&s, "%.2f ", r[i])
	}
	if len(r) == 0 {
		return "none"
	}
	fmt.Fprintf(&s, "(median %.2f)", Median(r))
	return s.String()
}

// Settle writes back, untimed, what the last run left dirty, and lets the
// disk go quiet, so that no run pays for the one before it (see
// ../shared/BENCHMARKING.md). bench-sync ran without it until the first
// of two applies in a round was found about 7% slower than the second,
// whichever build it was (four pairs); whether the pause removes all of
// that is not measured yet.
func Settle() {
	syscall.Sync()
	time.Sleep(500 * time.Millisecond)
}
