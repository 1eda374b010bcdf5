package incremental

import (
	"strconv"

	"github.com/resync-dest/resync-dest/transfer"
)

// Options tune an incremental run. Start from DefaultOptions.
type Options struct {
	transfer.RunOptions
	Delete bool // apply deleted changes to the mirror (else report them)
	// MaxDelete refuses (resourcesync.ErrSafetyStop, before anything is
	// applied) a run whose deleted changes would remove more of the set's
	// files than it allows; nil means 10% of the resources the set holds.
	MaxDelete DeleteGuard
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
	return Options{RunOptions: transfer.DefaultRunOptions(), MaxDelete: percentGuard(10)}
}

func (o Options) withDefaults() Options {
	o.RunOptions = o.RunOptions.WithDefaults()
	if o.MaxDelete == nil {
		o.MaxDelete = percentGuard(10)
	}
	return o
}
