package mirror

import (
	"errors"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Sentinels callers test with errors.Is. ErrUnmappable (mapping.go) is one
// more.
var (
	// ErrPathConflict: a file is where a directory must be, or a directory
	// (or a symlink the mirror does not follow) where a file must be - for
	// example http://h/a and http://h/a/b. A per-resource error; the path
	// already there stays intact. --map can separate the two.
	ErrPathConflict = errors.New("path conflict")
	// ErrLocked: another Mirror (in this or another process) holds the
	// mirror's lock in a way that excludes this one: a write run excludes
	// everyone, a read-only run excludes write runs.
	ErrLocked = errors.New("mirror is locked by another run")
	// ErrNotLocked: Put or Remove was called without holding the lock that
	// Lock takes (or the session ended while a Put was writing); writes are
	// refused so that a crash always leaves the marker that makes the next
	// run sweep temp files.
	ErrNotLocked = errors.New("mirror is not locked by this run")
	// ErrReadOnly: a write (Put, Remove, Publish of a ticket) on a Mirror
	// opened with Options.ReadOnly.
	ErrReadOnly = errors.New("mirror is open read-only")
	// ErrSuperseded: Publish did not publish a staged file because Remove
	// deleted its target after it was staged; the target stays absent.
	// The file's content must not be recorded as held. It is
	// resourcesync.ErrSuperseded, so that workers test it without knowing
	// which adapter spoke.
	ErrSuperseded = resourcesync.ErrSuperseded
)
