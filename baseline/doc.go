// Package baseline makes a verified copy of a set of resources from its
// Resource List (ANSI/NISO Z39.99-2014 §10, §5.2 "Baseline
// Synchronization"): it streams the list (index parts in index order),
// fetches what the mirror does not already hold with N workers, verifies
// length and every hash, writes atomically, and records each copy in the
// state once it is durable. With Delete it then removes local files of the
// set that the list no longer names, behind a guard.
//
// With Set.ResourceDump it copies from the set's Resource Dump (§11)
// instead, through the same pipeline: each package's manifest entries are
// jobs like listed entries, their bytes read out of the package (dumpzip)
// rather than fetched, and a package whose manifest copy shows every entry
// held is not downloaded at all (dump.go).
//
// The package knows no HTTP, SQLite or file system: it declares the few
// methods it needs (Fetcher, Mirror, Store, Listing) and is handed the
// adapters.
package baseline
