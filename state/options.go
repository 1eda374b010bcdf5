package state

import (
	"runtime"
	"time"
)

// Options configure Open. Start from DefaultOptions and set Path.
type Options struct {
	// Path of the database file. Required.
	Path string
	// ReadOnly opens the database without ever writing to it: no migration,
	// no journal mode switch, no checkpoint, not even a -wal or -shm file
	// when the database is idle. Writes return ErrReadOnly. A missing file
	// reads as an empty state and is not created. For --dry-run, audit and
	// status.
	ReadOnly bool
	// BusyTimeout is how long a statement waits for a lock held by another
	// connection or process before it fails with SQLITE_BUSY.
	BusyTimeout time.Duration
	// ReadConns bounds the read-only connections that serve concurrent
	// lookups.
	ReadConns int
	// Now is the clock: run times, set creation, and the default Fetched,
	// failure and change record times.
	Now func() time.Time
}

// DefaultOptions returns the options Open uses for every zero field.
func DefaultOptions() Options {
	return Options{
		BusyTimeout: 5 * time.Second,
		// Lookups are short: more connections than cores only queue in
		// SQLite, and each holds a page cache of its own.
		ReadConns: min(8, max(2, runtime.GOMAXPROCS(0))),
		Now:       time.Now,
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = d.BusyTimeout
	}
	if o.ReadConns <= 0 {
		o.ReadConns = d.ReadConns
	}
	if o.Now == nil {
		o.Now = d.Now
	}
	return o
}
