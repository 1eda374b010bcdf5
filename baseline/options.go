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
	// Part marks one part of a set's split baseline (a worker's job): it
	// copies and records what its list or package holds, but neither
	// looks for files to delete (the other parts' files are not in it)
	// nor records the baseline point - the set's own job does both once
	// every part is in.
	Part bool
	// Package, for a baseline from a Resource Dump, limits it to that one
	// package (its URL as the dump lists it): a part of a split baseline.
	// The dump then does not count as completely read.
	Package string
}

// DefaultOptions are the command line's defaults.
func DefaultOptions() Options {
	return Options{RunOptions: transfer.DefaultRunOptions()}
}

func (o Options) withDefaults() Options {
	o.RunOptions = o.RunOptions.WithDefaults()
	return o
}
