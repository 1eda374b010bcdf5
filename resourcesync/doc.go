// Package resourcesync owns the ResourceSync protocol (ANSI/NISO Z39.99-2014
// and the Framework Notification specification): the document model of
// <urlset> and <sitemapindex> documents with their rs:md and rs:ln
// extensions, the capability and change vocabularies, W3C datetimes, the hash
// attribute and its verification, and streaming XML reading and writing.
//
// Reader streams the entries of a document of any length in constant memory
// (ReadDocument reads a small one whole); it has its own XML scanner, which
// refuses DTDs and checks well-formedness, namespaces and UTF-8 as it goes.
// Writer and WriteDocument write documents back. ParseDatetime and
// FormatDatetime handle W3C datetimes; ParseHash and Verifier handle fixity.
//
// It also holds, for now, the Destination's own records that several
// packages exchange - Held, Listed, Tree, Batch, Moved, ChangeRecord,
// Failure, SetState, Counts, Plan, Progress, Pending, BacklogUnit, Via -
// and its pure policies on URIs, Scope (hosts) and Filter (--include,
// --exclude, --collection), so that the engine, the planners and the state
// adapter share one definition without importing each other; they are not
// part of the protocol.
//
// It is pure: no I/O beyond the io.Reader and io.Writer it is handed, no
// network, no files, standard library only. Everything that reads untrusted
// input here is bounded by Limits and fuzzed.
package resourcesync
