// Package transfer is the machinery the sync workers (baseline,
// incremental, dumps) share to bring resources into the mirror and record
// them: Get fetches one resource, verified, into a staged file; Writer is
// the single goroutine that publishes staged files in batches and then
// records them in the state, so that the state never claims a file the disk
// does not durably hold (ARCHITECTURE.md invariants 1 and 2); Tally counts
// and reports what became of each resource once it is recorded.
//
// Like the workers it knows no HTTP, SQLite or file system; it declares the
// methods it calls and is handed the adapters.
package transfer
