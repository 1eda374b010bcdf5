// Package audit compares a mirror with the current state of its Source
// (ANSI/NISO Z39.99-2014 §5.2, "Audit": coverage and accuracy) and reports
// the findings; it changes nothing, neither the mirror nor the state.
//
// The Source's current state of a set is its Resource List (index parts
// streamed in order) brought forward with the Change Lists published after
// the list's at: a created or updated change replaces what the list said
// of a resource, a deleted one removes it. It is kept in a disk-backed
// sorted Listing and merged, in path byte order, with a walk of the set's
// mapped tree (resourcesync.Tree), so that memory does not grow with the
// number of resources. Each resource is missing (listed, no local file),
// changed (its length, a hash, or - when the Source gives no hash - its
// lastmod differs from the Source's latest metadata), or in sync; a local
// file in the set's tree that the Source does not list is extra. By
// default every local file is re-hashed, in parallel, with every algorithm
// the Source gives; Options.Fast re-hashes only the files whose size or
// modification time is not the one the state recorded, and trusts the
// digests recorded when the others were fetched.
//
// A Report gathers the sets' findings and renders them for a person
// (WriteText, rclone's "- + * !" lines), for scripts (WriteJSON) and as a
// self-contained HTML page (WriteHTML).
//
// The package knows no HTTP, SQLite or file system: it declares the few
// methods it calls (Mirror, Store, Listing; an Opener for documents) and is handed the
// adapters.
package audit
