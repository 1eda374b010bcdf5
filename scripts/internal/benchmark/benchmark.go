// Package benchmark holds what the benchmark commands under scripts/ share:
// the check of the -bin flag, the end of a failed run, the work directory,
// the fixture Source served and its documents fetched before the first
// timed run (Warm), a run measured (Measure: wall-clock and CPU time, the
// Source's CPU time, peak RSS) and the figures of the runs, their median,
// and the quiet file system every timed run starts on (Settle, Quiet).
package benchmark

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
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

// WorkDir makes a new work directory named after pattern (as
// os.MkdirTemp takes it) in parent - the system's temporary directory when
// parent is "" - and returns it with what removes it at the end. Every
// invocation gets its own: a run directory left by an earlier invocation
// (one killed part way) would turn a "fresh" baseline into a sync of an
// existing mirror.
func WorkDir(parent, pattern string) (string, func(), error) {
	dir, err := os.MkdirTemp(parent, pattern)
	if err != nil {
		return "", nil, err
	}
	return dir, func() {
		stampRemoval(filepath.Dir(dir), removingPrefix)
		os.RemoveAll(dir)
		stampRemoval(filepath.Dir(dir), "")
	}, nil
}

// removalStamp names the file a work directory's removal leaves beside it
// (WorkDir), holding when: the next invocation that works there waits
// from then (LastRemoval, Quiet), as a run waits after its own deletions.
// What anything else deleted is not known.
const removalStamp = ".resync-dest-bench-removed"

// removingPrefix starts the stamp while the removal runs: removing a work
// directory of 200,000 files takes minutes, after the invocation printed
// its last line, and a benchmark started meanwhile read the stamp of the
// removal before and did not wait (stop 40's first disk baseline).
const removingPrefix = "removing "

// maxRemoval bounds how long LastRemoval waits for a removal in progress:
// a stamp older than that was left by an invocation killed part way.
const maxRemoval = 30 * time.Minute

// tmpfsMagic is statfs's f_type of tmpfs, which reuses a freed inode at
// once: a removal there slows nothing after it.
const tmpfsMagic = 0x01021994

// onTmpfs reports whether dir is on tmpfs (false when statfs fails).
func onTmpfs(dir string) bool {
	var fs syscall.Statfs_t
	return syscall.Statfs(dir, &fs) == nil && fs.Type == tmpfsMagic
}

// stampRemoval records that files were just removed in parent, or with
// removingPrefix that a removal starts. The stamp is replaced whole (a
// rename), so that a reader never sees half of it. A stamp that cannot be
// written costs only the wait it would have caused.
func stampRemoval(parent, prefix string) {
	if onTmpfs(parent) {
		return
	}
	name := filepath.Join(parent, removalStamp)
	tmp, err := os.CreateTemp(parent, removalStamp+".*")
	if err != nil {
		return
	}
	_, err = tmp.WriteString(prefix + time.Now().UTC().Format(time.RFC3339Nano) + "\n")
	if cerr := tmp.Close(); err == nil && cerr == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// LastRemoval returns when a benchmark last removed its work directory in
// parent ("" for the system's temporary directory), or the zero time.
// While another invocation is still removing its own (for up to
// maxRemoval since it started) it waits, and says so, for that removal to
// end.
func LastRemoval(parent string) time.Time {
	if parent == "" {
		parent = os.TempDir()
	}
	said := false
	for {
		t, removing := readRemovalStamp(parent)
		if !removing || time.Since(t) >= maxRemoval {
			return t
		}
		if !said {
			fmt.Printf("   (waiting for another benchmark's removal of its work directory in %s, started %s ago)\n", parent, time.Since(t).Round(time.Second))
			said = true
		}
		time.Sleep(removalPoll)
	}
}

// removalPoll is how often LastRemoval looks whether a removal ended.
const removalPoll = 200 * time.Millisecond

// readRemovalStamp reads the stamp in parent: the time it holds (the zero
// time when there is none or it cannot be read), and whether it says a
// removal started then and has not ended.
func readRemovalStamp(parent string) (t time.Time, removing bool) {
	b, err := os.ReadFile(filepath.Join(parent, removalStamp))
	if err != nil {
		return time.Time{}, false
	}
	s, removing := strings.CutPrefix(strings.TrimSpace(string(b)), removingPrefix)
	t, err = time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t, removing
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
// ../shared/BENCHMARKING.md).
func Settle() {
	syscall.Sync()
	time.Sleep(500 * time.Millisecond)
}

// Quiet makes a timed run wait until files deleted by an earlier run no
// longer slow it down. ext4 without a journal (this machine's disk) will
// not reuse an inode freed less than 60 s ago - 360 s while its inode
// table block is dirty, as creating files beside it makes it - and skips
// past every such inode of a block group each time it allocates one.
// Measured here: a baseline of 50,000 resources took 34 s right after
// another 50,000 files were deleted, 21 s 70 s later, and 14 s with no
// deletion in the four minutes before it. A run that deletes pays for its
// own deletions; Quiet keeps the next run from paying for them too, and,
// given LastRemoval (DeletedAt), the first run of the next invocation from
// paying for the removal of this one's work directory.
// bench-sync ran without it until the first of two applies in a round was
// found about 7% slower than the second, whichever build it was.
type Quiet struct {
	// Wait is how long after the last deletion a timed run may start;
	// 0 waits for nothing (a file system with a journal, or tmpfs).
	Wait time.Duration
	last time.Time
}

// DefaultQuiet is a deletion's reach on ext4 without a journal (360 s),
// and a margin.
const DefaultQuiet = 6*time.Minute + 15*time.Second

// Deleted records that a run has just deleted files.
func (q *Quiet) Deleted() { q.DeletedAt(time.Now()) }

// DeletedAt records that files were deleted at t (LastRemoval: by an
// earlier invocation); an earlier t than one recorded changes nothing.
func (q *Quiet) DeletedAt(t time.Time) {
	if t.After(q.last) {
		q.last = t
	}
}

// Before settles the file system (Settle) and waits, untimed, until Wait
// has passed since the last deletion recorded; it says so when it waits.
func (q *Quiet) Before() {
	Settle()
	if q.last.IsZero() {
		return
	}
	since := time.Since(q.last)
	if d := q.Wait - since; d > 0 {
		fmt.Printf("   (waiting %s: files were deleted %s ago)\n", d.Round(time.Second), since.Round(time.Second))
		time.Sleep(d)
	}
}
