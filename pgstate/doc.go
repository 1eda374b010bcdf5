// Package pgstate keeps the resync-dest state in PostgreSQL (13 or later):
// the same records as the SQLite state (package state) - sets, resources
// held, failures, changes processed, lists done, cursors, runs - behind the
// same methods, so that the workers and the command line use either
// (--state FILE or --state postgres://...). Several worker processes share
// one database; its own embedded migrations create the schema resync_dest
// and its tables.
//
// # Fencing
//
// A worker's job holds a lease (Lease, AcquireLease) whose epoch rises
// each time the lease changes hands. A DB fenced with the job's lease
// (DB.Fenced) checks in every write transaction that the epoch is still
// the job's, holding the lease row (FOR SHARE) until the commit, so that a
// takeover waits for a commit in flight and a worker that stalled past its
// lease - killed, paused, cut off from the database - has every later
// write refused with ErrFenced. The state thus never records what another
// owner did not agree with, and resume stays exact.
//
// Times are stored as fixed-width UTC text, compared in byte order, as in
// SQLite: nanoseconds survive and the two adapters order alike.
package pgstate
