// Package incremental keeps a mirror in step with a set of resources from
// its Change List (ANSI/NISO Z39.99-2014 §12, §5.2 "Incremental
// Synchronization"): it reads the set's change history after the cursor -
// a Change List Index in index order, closed lists already done skipped
// without fetching them, the open list always read again - checks that the
// history still reaches back to the cursor, and applies the changes: each
// resource is brought to its final state in the history (fetched,
// verified and written atomically, or deleted with Delete), and every
// change is recorded in the state in the same transaction as its effect,
// once the effect is durable.
//
// The cursor is the time of the first unprocessed change: every change
// before it is done, and a change at or after it is done when the state
// recorded it as applied. After a crash, a kill or a failure the next run
// therefore skips exactly the changes recorded and applies the rest; a
// change that failed is recorded as failed, holds the cursor back and is
// tried again.
//
// The package knows no HTTP, SQLite or file system: it declares the few
// methods it needs (Fetcher, Mirror, Store) and is handed the adapters.
package incremental
