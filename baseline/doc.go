// Package baseline makes a verified copy of a set of resources from its
// Resource List (ANSI/NISO Z39.99-2014 §10, §5.2 "Baseline
// Synchronization"): it streams the list (index parts in index order),
// fetches what the mirror does not already hold with N workers, verifies
// length and every hash, writes atomically, and records each copy in the
// state once it is durable. With Delete it then removes local files of the
// set that the list no longer names, behind a guard.
//
// The package knows no HTTP, SQLite or file system: it declares the few
// methods it needs (Fetcher, Mirror, Store, Listing) and is handed the
// adapters.
package baseline
