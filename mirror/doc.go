// Package mirror owns the local tree of a Destination: where each resource
// lives on disk (the URI → path mapping of MAPPING.md: injective,
// traversal-safe, a pure function), how a file gets there, deletes,
// hashing what is held, walking the tree in a stable order, the
// single-writer lock, sweeping the temp files a crashed run left
// behind, and renaming the files an earlier version of the mapping named
// (Rename, once per set, when a write run opens the mirror).
//
// # Writing: put, then publish in batches
//
// A file gets into the mirror in two steps. Put writes the new content
// into a temp file beside the target ("%tmp-" and 16 hex digits), closes
// it and stages it: the target is untouched and the caller gets a ticket.
// Publish takes the tickets of a batch and makes them visible and durable
// together: one syncfs(2) makes every staged file's data durable, each
// file is renamed over its target, and one more syncfs makes the renames
// (and the removals and new directories since the last sync) durable.
// Only then does the caller record the batch in the state. That keeps the
// two invariants users rely on (ARCHITECTURE.md): a file is renamed into
// place only after its bytes are durable, and the state records a file
// only after its rename is durable.
//
// Why not fsync each file: on the build machines an fsync cost ~2.5 ms, so
// a baseline of 10,000 files of 4 KiB spent seconds in fsync against a
// budget of ~1.4 s for the whole run; one syncfs per batch costs ~0.3 ms
// per file and runs while the workers keep downloading (group commit:
// publish whatever finished while the previous Publish ran).
// BenchmarkPut10k measured ~5,600 files/s that way against ~2,500 with an
// fsync per file, alternated in one run with 8 workers. The price is that
// syncfs flushes the whole file system holding the mirror, other
// programs' writes included, and reports its write-back errors whoever
// caused them; where it is unavailable (ENOSYS, EOPNOTSUPP) Publish fsyncs
// each staged file and each changed directory instead.
//
// A rename over a file frees the old one; on ext4, XFS and Btrfs the old
// file is held open across the rename and freed off the renaming
// goroutine by a bounded releaser (release.go), which Close drains.
//
// Remove deletes at once and cancels what is staged for the same path, so
// "create X, then delete X" leaves no X even before the create is
// published. A staged file that is never published is a temp file like
// any other: Discard removes it, ending the session (release or Close)
// discards it, and after a crash the next Lock sweeps it.
//
// # Safety
//
// Every file operation goes through an *os.Root opened on the mirror
// directory (or an FS the caller injects, such as FaultFS in reliability
// tests), so neither a URI nor a symlink planted in the mirror can lead a
// write, a delete or a read outside it; symlinks inside the mirror are not
// followed either. The directory .resync-dest/ at the top of the mirror
// holds the lock, the crash marker and, by default, the state database; no
// URI maps into it and Walk never enters it.
//
// Writing needs the lock: Lock takes it (and sweeps after a crash); Put
// and Remove refuse to run without it. A Mirror opened with
// Options.ReadOnly (dry runs, audit, status) writes nothing at all: it
// shares the lock with other read-only runs, excludes write runs, and
// refuses every write.
package mirror
