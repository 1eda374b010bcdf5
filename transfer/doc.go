// Package transfer is the one engine every sync path runs on. Baseline
// (from a Resource List or Dump) and incremental sync (from the change
// history) are planners: they emit Units - a resource, the version wanted
// or that it is gone, where its bytes may come from (Origins: a dump
// package's member, before the Source), the change records its effect
// settles - and Run applies them: the feed looks them up in the state in
// batches and maps them into the mirror, a dispatcher applies the units
// of one path one at a time in order, N workers decide with the one "in
// step" rule (resourcesync.InStep), fetch (verified, into a staged file),
// delete or leave alone, and the single Writer publishes the staged files
// in batches and then records each batch in the state, so that the state
// never claims a file the disk does not durably hold (invariants 1 and 2).
// The Tally counts what became of each unit, the Breaker stops a run whose
// Source is down, Package is the one lifetime of a dump package.
//
// Like the planners it knows no HTTP, SQLite or file system: it declares
// the methods its workers call (Fetcher, Mirror, Store) and is handed the
// adapters; a PostgreSQL state or an object-store mirror is another
// adapter behind the same interfaces.
package transfer
