package state

import "errors"

// Errors callers inspect with errors.Is. Each is wrapped with the context of
// the operation that failed.
var (
	// ErrReadOnly: a write was asked of a database opened with
	// Options.ReadOnly.
	ErrReadOnly = errors.New("state is open read-only")
	// ErrSchemaTooNew: the database was written by a newer resync-dest whose
	// schema this one does not know; it is left untouched.
	ErrSchemaTooNew = errors.New("state schema is newer than this program knows")
	// ErrSchemaTooOld: a read-only open found a schema older than this
	// program's, which only a read-write open may upgrade.
	ErrSchemaTooOld = errors.New("state schema is older than this program's and read-only mode cannot upgrade it")
	// ErrNotState: the file is an SQLite database of something else.
	ErrNotState = errors.New("not a resync-dest state database")
	// ErrUnknownSet: no set of resources has that ID.
	ErrUnknownSet = errors.New("no such set of resources")
	// ErrUnknownRun: no run has that ID.
	ErrUnknownRun = errors.New("no such run")
	// ErrInvalid: an argument or a record of a Batch is unusable (an empty
	// URI, a negative length); the whole Commit is rolled back.
	ErrInvalid = errors.New("invalid input")
	// ErrCorrupt: IntegrityCheck found the database damaged.
	ErrCorrupt = errors.New("state database is damaged")
)
