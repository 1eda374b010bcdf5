package benchmark

import (
	"os"
	"os/exec"
	"time"

	"github.com/resync-dest/resync-dest/fixtures/cputime"
	"github.com/resync-dest/resync-dest/scripts/internal/peakrss"
)

// Measured is one run of a child process: its wall-clock time, its CPU
// time (user + system), the CPU time of this process meanwhile - the
// fixture Source's it serves, which shares the machine's cores - and the
// child's peak RSS in KiB.
type Measured struct {
	Wall, CPU, Source time.Duration
	RSS               int64
}

// Measure runs cmd to its end and measures it. Its peak RSS is polled
// every 2 ms: every contender of a benchmark is polled alike, so that all
// pay for the polling. On error the wall-clock and Source figures are
// still set.
func Measure(cmd *exec.Cmd) (Measured, error) {
	source := cputime.Self()
	start := time.Now()
	rss, err := peakrss.Run(cmd, 2*time.Millisecond)
	m := Measured{Wall: time.Since(start), Source: cputime.Self() - source, RSS: rss}
	if err != nil {
		return m, err
	}
	m.CPU = ChildCPU(cmd.ProcessState)
	return m, nil
}

// Runs are the figures of one kind of run, round by round; Machine is
// the CPU time of the child and the Source together.
type Runs struct {
	Wall, CPU, Machine []time.Duration
	RSS                []int64
}

// Add appends one run's figures.
func (r *Runs) Add(m Measured) {
	r.Wall, r.CPU, r.Machine = append(r.Wall, m.Wall), append(r.CPU, m.CPU), append(r.Machine, m.CPU+m.Source)
	r.RSS = append(r.RSS, m.RSS)
}

// ChildCPU is the CPU time (user + system) of an ended child, from its
// rusage: on a machine shared with other work it moves far less than the
// wall-clock time.
func ChildCPU(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }
