package baseline

import (
	"github.com/resync-dest/resync-dest/transfer"
)

// Options tune a baseline run. Start from DefaultOptions. RunOptions.Delete
// removes the local files of the set that the list no longer names,
// within RunOptions.MaxDelete.
type Options struct {
	transfer.RunOptions
	Checksum bool // re-hash local files instead of trusting the state
}

// DefaultOptions are the command line's defaults.
func DefaultOptions() Options {
	return Options{RunOptions: transfer.DefaultRunOptions()}
}

func (o Options) withDefaults() Options {
	o.RunOptions = o.RunOptions.WithDefaults()
	return o
}
