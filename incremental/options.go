package incremental

import (
	"github.com/resync-dest/resync-dest/transfer"
)

// Options tune an incremental run. Start from DefaultOptions.
// RunOptions.Delete applies deleted changes to the mirror (else they are
// reported); RunOptions.MaxDelete refuses (resourcesync.ErrSafetyStop,
// before anything is applied) a run whose deleted changes would remove
// more of the set's files than it allows.
type Options struct {
	transfer.RunOptions
}

// DefaultOptions are the command line's defaults.
func DefaultOptions() Options {
	return Options{RunOptions: transfer.DefaultRunOptions()}
}

func (o Options) withDefaults() Options {
	o.RunOptions = o.RunOptions.WithDefaults()
	return o
}
