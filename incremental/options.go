package incremental

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Options tune an incremental run. Start from DefaultOptions.
type Options struct {
	Workers int  // concurrent fetches
	Delete  bool // apply deleted changes to the mirror (else report them)
	// MaxDelete refuses (resourcesync.ErrSafetyStop, before anything is
	// applied) a run whose deleted changes would remove more of the set's
	// files than it allows; nil means 10% of the resources the set holds.
	MaxDelete DeleteGuard
	DryRun    bool // decide and report; write nothing, state included
	// Scope decides which URIs may be fetched.
	Scope resourcesync.Scope
	// LocalAlgs are computed for the state when the Source gives no hash
	// this package can verify, so that later checks have a digest.
	LocalAlgs []string
	// BatchSize and BatchInterval bound how many results wait for one
	// state transaction and for how long.
	BatchSize     int
	BatchInterval time.Duration
	// MaxUnavailable consecutive resources failing because the Source is
	// unavailable stop the run (exit 5) instead of failing one by one.
	MaxUnavailable int
	Limits         resourcesync.Limits
	Now            func() time.Time
	// Drain, when done, stops feeding new work; transfers in flight finish
	// and are recorded. Nil means never.
	Drain context.Context
	// Plan receives one line per action in a dry run (nil: none).
	Plan io.Writer
	// Progress, when set, is updated as the run goes (for a progress
	// display); read it with its methods from any goroutine.
	Progress *resourcesync.Progress
	// Dump tunes how Change Dump packages are downloaded and read
	// (Dump.MaxSize is --max-dump-size); an empty Dump.TempDir means
	// Deps.TempDir.
	Dump dumpzip.Options
	// Failpoint is passed to the writer (transfer.WriterOptions): a test
	// seam for crash tests; nil in production.
	Failpoint func(name string)
}

// DeleteGuard is the --max-delete limit: whether deleting n files of a set
// holding total resources is allowed. baseline.DeleteLimit is one.
type DeleteGuard interface {
	Allows(n, total int64) bool
	String() string
}

// percentGuard is the default guard: at most a percentage of the set.
type percentGuard float64

func (p percentGuard) Allows(n, total int64) bool {
	return n == 0 || float64(n)*100 <= float64(p)*float64(total)
}

func (p percentGuard) String() string { return strconv.FormatFloat(float64(p), 'f', -1, 64) + "%" }

// DefaultOptions are the command line's defaults.
func DefaultOptions() Options {
	return Options{
		Workers:        8,
		MaxDelete:      percentGuard(10),
		LocalAlgs:      []string{resourcesync.AlgMD5},
		BatchSize:      256,
		BatchInterval:  time.Second,
		MaxUnavailable: 16,
		Now:            time.Now,
		Dump:           dumpzip.DefaultOptions(),
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Workers <= 0 {
		o.Workers = d.Workers
	}
	if o.MaxDelete == nil {
		o.MaxDelete = d.MaxDelete
	}
	if o.BatchSize <= 0 {
		o.BatchSize = d.BatchSize
	}
	if o.BatchInterval <= 0 {
		o.BatchInterval = d.BatchInterval
	}
	if o.MaxUnavailable <= 0 {
		o.MaxUnavailable = d.MaxUnavailable
	}
	if o.Now == nil {
		o.Now = d.Now
	}
	if o.Drain == nil {
		o.Drain = context.Background()
	}
	if o.Progress == nil {
		o.Progress = &resourcesync.Progress{}
	}
	return o
}
