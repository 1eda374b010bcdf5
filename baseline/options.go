package baseline

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Options tune a baseline run. Start from DefaultOptions.
type Options struct {
	Workers   int  // concurrent fetches
	Checksum  bool // re-hash local files instead of trusting the state
	Delete    bool // remove local files of the set the list no longer names
	MaxDelete DeleteLimit
	DryRun    bool // decide and report; write nothing, state included
	// Scope decides which listed URIs may be fetched.
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
	// Dump tunes how Resource Dump packages are downloaded and read
	// (Dump.MaxSize is --max-dump-size); an empty Dump.TempDir means
	// Deps.TempDir.
	Dump dumpzip.Options
	// Failpoint is passed to the writer (transfer.WriterOptions): a test
	// seam for crash tests; nil in production.
	Failpoint func(name string)
}

// DefaultOptions are the command line's defaults.
func DefaultOptions() Options {
	return Options{
		Workers:        8,
		MaxDelete:      DeleteLimit{Percent: 10, IsPercent: true},
		LocalAlgs:      []string{resourcesync.AlgMD5},
		BatchSize:      256,
		BatchInterval:  time.Second,
		MaxUnavailable: 16,
		Now:            time.Now,
		Dump:           dumpzip.DefaultOptions(),
	}
}

// DeleteLimit is --max-delete: a count, or a percentage of the set.
type DeleteLimit struct {
	Count     int64
	Percent   float64
	IsPercent bool
}

// ParseDeleteLimit parses "N" or "P%".
func ParseDeleteLimit(s string) (DeleteLimit, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || f > 100 {
			return DeleteLimit{}, fmt.Errorf("max-delete %q: want a count or a percentage between 0%% and 100%%", s)
		}
		return DeleteLimit{Percent: f, IsPercent: true}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return DeleteLimit{}, fmt.Errorf("max-delete %q: want a count or a percentage such as 10%%", s)
	}
	return DeleteLimit{Count: n}, nil
}

// Allows reports whether deleting n of a set of size total is within the
// limit.
func (l DeleteLimit) Allows(n, total int64) bool {
	if !l.IsPercent {
		return n <= l.Count
	}
	if n == 0 {
		return true
	}
	if total == 0 {
		return l.Percent >= 100
	}
	return float64(n)*100 <= l.Percent*float64(total)
}

func (l DeleteLimit) String() string {
	if l.IsPercent {
		return strconv.FormatFloat(l.Percent, 'f', -1, 64) + "%"
	}
	return strconv.FormatInt(l.Count, 10)
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Workers <= 0 {
		o.Workers = d.Workers
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
