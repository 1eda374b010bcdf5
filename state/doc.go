// Package state owns the Destination's memory: the one SQLite database (and
// the only use of SQLite in resync-dest) that records, per set of resources
// (per Capability List), what the mirror holds, which changes of Change Lists
// and Change Dumps were processed, which closed change documents are done,
// the baseline point and the incremental cursor, per-resource failures, and
// the runs.
//
// The invariant callers rely on: state never claims more than the disk
// holds. Callers make the data durable first (fsync files and directories),
// then call Commit; one Commit is one SQLite transaction, all or nothing.
//
// Writes (EnsureSet, Commit, PruneChanges, StartRun, AddRunSets, FinishRun)
// are serialised through one connection; reads run concurrently on a pool of
// read-only connections (WAL lets them proceed while a write is under way).
//
// Listing is a separate, temporary, disk-backed sorted set of paths, for
// the sorted merges of baseline --delete and audit; it never touches the
// state database.
package state
