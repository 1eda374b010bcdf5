// Package dumpzip owns the packages of Resource Dumps and Change Dumps
// (ANSI/NISO Z39.99-2014 §11, §13): ZIP files holding a manifest.xml and
// the bitstreams it describes. It downloads a package, verified against the
// length and hashes its dump gives, into a temp file; opens it; requires
// exactly one manifest.xml at the top level with the expected capability
// (resourcedump-manifest or changedump-manifest); streams the manifest's
// entries in order, each as a Member bound to its bitstream; and reads a
// bitstream out, verified against the entry's length and every hash while
// it is copied. Contents reads the manifest copy a dump entry may link with
// rel="contents", so that a caller can tell whether it needs the package
// at all before downloading it.
//
// It decides nothing about a mirror or a state: baseline applies Resource
// Dump members, incremental applies Change Dump members, each with its own
// rules, through transfer.Get (a Member is a fetcher whose Source is the
// package).
//
// # Safety
//
// A package is untrusted input. Where a bitstream goes is decided by its
// manifest entry's URI (loc) alone - the caller maps it - never by a name
// in the ZIP, and nothing here writes anywhere but the temp directory. The
// manifest's path (with the standard's leading "/", accepted without)
// names a ZIP entry by exact match; a member is refused, with an error
// naming it, when that path holds a ".." segment, is absolute, has a
// backslash or a NUL, names no entry, names an entry that appears more than
// once, or names anything but a regular file (a symlink, by its mode
// bits). ZIP entries the manifest does not name are never read.
//
// Decompression is bounded three ways, so a bomb stops early and small: a
// bitstream is read at most to its manifest length plus one byte (or
// Options.MaxEntrySize when the manifest gives no length); a package never
// inflates more than Options.MaxSize bytes in all (which also bounds its
// download and its declared sizes); and before a package is downloaded and
// before it is opened, the free space of the temp directory's file system
// must hold it (Options.MinFree kept spare). Copies stream through a fixed
// buffer: memory does not grow with what a package holds.
//
// A downloaded package lives in a temp file that Package.Close removes; a
// failed download or open removes it before returning. Temp files of a
// process killed outright are left for the caller's sweep of its temp
// directory.
package dumpzip
