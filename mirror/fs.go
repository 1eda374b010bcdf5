package mirror

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// FS is every file operation the mirror performs, with slash-separated
// names relative to the mirror root. The default (NewRootFS) confines them
// to an *os.Root; FaultFS wraps one to inject failures. Implementations
// must be safe for concurrent use and return errors that name the path
// (*fs.PathError or *os.LinkError).
type FS interface {
	// OpenFile opens a file; the mirror uses O_RDWR|O_CREATE|O_EXCL for
	// temp files, O_WRONLY|O_CREATE|O_TRUNC for its marker, and O_RDONLY
	// (reading, and fsyncing a staged file when SyncFS is unavailable).
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	// Mkdir creates one directory; an existing one is an fs.ErrExist error.
	Mkdir(name string, perm fs.FileMode) error
	// Remove removes a file, a symlink (not its target) or an empty
	// directory.
	Remove(name string) error
	// Rename replaces newname by oldname atomically.
	Rename(oldname, newname string) error
	// Lstat describes name without following a final symlink.
	Lstat(name string) (fs.FileInfo, error)
	// ReadDir lists a directory in any order.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Chtimes sets access and modification times.
	Chtimes(name string, atime, mtime time.Time) error
	// SyncDir fsyncs a directory, making the entries created, renamed and
	// removed in it durable.
	SyncDir(name string) error
	// SyncFS makes everything written to the file system that holds the
	// mirror durable - data, inodes and directory entries, of every file
	// on it - and reports any write-back error since the FS was made
	// (syncfs(2)). An error matching syscall.ENOSYS or syscall.EOPNOTSUPP
	// means it is unavailable; the mirror then fsyncs files and
	// directories one by one.
	SyncFS() error
	// Recheck drops any handle the FS keeps on directory dir unless dir
	// still names that directory: one removed, or moved and replaced, from
	// outside must not go on taking files. An FS that keeps none does
	// nothing.
	Recheck(dir string)
}

// File is an open file of an FS. *os.File satisfies it.
type File interface {
	io.Reader
	io.Writer
	io.Seeker
	Truncate(size int64) error
	Sync() error
	Close() error
	Name() string
}

// RootFS is the FS the mirror uses by default: every operation goes
// through an *os.Root, so that no name - whatever its ".." elements or the
// symlinks met on the way - reaches outside the root's directory. It is
// safe for concurrent use.
type RootFS struct {
	r *os.Root
	// dir is the root directory, held open for SyncFS: syncfs(2) reports
	// the write-back errors that happened since the descriptor it is given
	// was opened, so a descriptor opened per call could miss an error that
	// hit a staged file before the call.
	dir *os.File
	// rel releases the files renames replace (release.go); nil where
	// renames replace as they come.
	rel *releaser

	// subs holds an *os.Root opened on each directory files were used in
	// (up to maxSubRoots), with a descriptor of that directory. os.Root
	// resolves a name one element at a time (an openat per element), so a
	// file five levels down costs a dozen system calls per operation
	// through r; through its directory's Root it costs one. Measured here,
	// that was most of a baseline's CPU. Entries are dropped when their
	// directory is removed through Remove, and when creating in one finds
	// it removed from outside (stale).
	mu   sync.Mutex
	subs map[string]*subDir
}

// subDir is a directory of the tree held open: its Root, and a descriptor
// on which the two operations of every file written take one system call
// each, with nothing to resolve (a temp file's creation, its rename into
// place: subdir_unix.go).
type subDir struct {
	root *os.Root
	dir  *os.File
}

func (s *subDir) close() {
	s.dir.Close()
	s.root.Close()
}

// maxSubRoots bounds the directory descriptors a RootFS keeps open; past
// it, operations resolve names from the root (correct, only slower).
const maxSubRoots = 1024

// NewRootFS returns a RootFS over r. It opens r's directory and keeps it
// open until Close; the caller keeps r open while the RootFS is in use.
// It fails when the directory cannot be opened.
func NewRootFS(r *os.Root) (*RootFS, error) {
	dir, err := r.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	f := &RootFS{r: r, dir: dir, subs: map[string]*subDir{}}
	if localFreeCosts(dir) {
		f.rel = newReleaser()
	}
	return f, nil
}

// Close waits for the files renames replaced to be released and releases
// the directories the RootFS opened; r stays open. No other method may
// run concurrently with it or after it.
func (f *RootFS) Close() error {
	if f.rel != nil {
		f.rel.close()
		f.rel = nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for d, sub := range f.subs {
		sub.close()
		delete(f.subs, d)
	}
	return f.dir.Close()
}

// at returns the Root to resolve name in and the name to give it: name's
// directory's own Root and its last element when one is (or can be)
// cached, else the root and name itself. An error opening the directory
// is left to the operation, which reports it with the full name.
func (f *RootFS) at(name string) (*os.Root, string) {
	if sub, base := f.sub(name); sub != nil {
		return sub.root, base
	}
	return f.r, name
}

// sub returns the cached directory of name, opening it if need be, and
// name's last element; nil when name is at the top or its directory
// cannot be (or is not) cached.
func (f *RootFS) sub(name string) (*subDir, string) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return nil, name
	}
	dir, base := name[:i], name[i+1:]
	f.mu.Lock()
	sub := f.subs[dir]
	full := len(f.subs) >= maxSubRoots
	f.mu.Unlock()
	if sub != nil {
		return sub, base
	}
	if full {
		return nil, name
	}
	r, err := f.r.OpenRoot(dir)
	if err != nil {
		return nil, name
	}
	d, err := r.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		r.Close()
		return nil, name
	}
	sub = &subDir{root: r, dir: d}
	f.mu.Lock()
	defer f.mu.Unlock()
	if old := f.subs[dir]; old != nil { // another goroutine opened it meanwhile
		sub.close()
		return old, base
	}
	if len(f.subs) >= maxSubRoots {
		sub.close()
		return nil, name
	}
	f.subs[dir] = sub
	return sub, base
}

// forget drops the cached Root of a directory that was removed, so that
// nothing is ever created in a directory no longer in the tree.
func (f *RootFS) forget(dir string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if sub := f.subs[dir]; sub != nil {
		sub.close()
		delete(f.subs, dir)
	}
}

// stale reports whether the cached Root of name's directory no longer is
// the directory at that path - it was removed, or moved and replaced,
// from outside - and if so drops it. It is asked only when creating in a
// cached directory found nothing there: a removed directory takes no new
// entries, so that is how its removal shows.
func (f *RootFS) stale(r *os.Root, name string) bool {
	i := strings.LastIndexByte(name, '/')
	if r == f.r || i < 0 {
		return false
	}
	f.mu.Lock()
	sub := f.subs[name[:i]]
	f.mu.Unlock()
	if sub == nil || sub.root != r {
		return true // dropped (or replaced) meanwhile: r was stale
	}
	return f.drop(name[:i], sub)
}

// drop forgets dir's cached Root sub unless dir still names its
// directory, and reports whether it did.
func (f *RootFS) drop(dir string, sub *subDir) bool {
	cached, err := sub.root.Stat(".")
	if err == nil {
		var now fs.FileInfo
		if now, err = f.r.Lstat(dir); err == nil && os.SameFile(cached, now) {
			return false
		}
	}
	f.mu.Lock()
	if f.subs[dir] == sub {
		sub.close()
		delete(f.subs, dir)
	}
	f.mu.Unlock()
	return true
}

// Recheck implements FS: it costs a walk from the root to dir, as any
// operation would without the cache, so the mirror asks once per
// directory per Publish rather than per file.
func (f *RootFS) Recheck(dir string) {
	f.mu.Lock()
	sub := f.subs[dir]
	f.mu.Unlock()
	if sub != nil {
		f.drop(dir, sub)
	}
}

// OpenFile implements FS. A new file (O_CREATE|O_EXCL: the mirror's temp
// files) in a cached directory is made on its descriptor (subdir.go).
func (f *RootFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if excl := os.O_CREATE | os.O_EXCL; flag&excl == excl {
		if sub, base := f.sub(name); sub != nil {
			file, ok, err := sub.create(base, flag, perm, joinName(f.r.Name(), name))
			switch {
			case ok && err == nil:
				return file, nil
			case ok && !(errors.Is(err, fs.ErrNotExist) && f.stale(sub.root, name)):
				return nil, relPathError(err, name)
			}
			// The directory went (or was stale): resolve the name again.
		}
	}
	r, n := f.at(name)
	file, err := r.OpenFile(n, flag, perm)
	if err != nil && flag&os.O_CREATE != 0 && errors.Is(err, fs.ErrNotExist) && f.stale(r, name) {
		r, n = f.at(name)
		file, err = r.OpenFile(n, flag, perm)
	}
	if err != nil {
		return nil, relPathError(err, name) // not a typed nil in an interface
	}
	return file, nil
}

// Mkdir implements FS.
func (f *RootFS) Mkdir(name string, perm fs.FileMode) error {
	r, n := f.at(name)
	err := r.Mkdir(n, perm)
	if errors.Is(err, fs.ErrNotExist) && f.stale(r, name) {
		r, n = f.at(name)
		err = r.Mkdir(n, perm)
	}
	return relPathError(err, name)
}

// Remove implements FS. It resolves name from the root, not through a
// cached directory: a directory moved out of the mirror from outside must
// not lose files to the mirror's deletions.
func (f *RootFS) Remove(name string) error {
	if err := f.r.Remove(name); err != nil {
		return err
	}
	f.forget(name) // in case it was a directory
	return nil
}

// Rename implements FS: within one directory (the mirror's only case) one
// renameat in that directory, on its descriptor (subdir.go).
func (f *RootFS) Rename(oldname, newname string) error {
	if so, no := f.sub(oldname); so != nil {
		if sn, nn := f.sub(newname); sn == so {
			if ok, err := so.rename(no, nn, f.rel); ok {
				return relLinkError(err, oldname, newname)
			}
		}
	}
	ro, no := f.at(oldname)
	rn, nn := f.at(newname)
	if ro != rn {
		return f.r.Rename(oldname, newname)
	}
	return relLinkError(ro.Rename(no, nn), oldname, newname)
}

// Lstat implements FS.
func (f *RootFS) Lstat(name string) (fs.FileInfo, error) {
	r, n := f.at(name)
	fi, err := r.Lstat(n)
	return fi, relPathError(err, name)
}

// Chtimes implements FS.
func (f *RootFS) Chtimes(name string, atime, mtime time.Time) error {
	r, n := f.at(name)
	return relPathError(r.Chtimes(n, atime, mtime), name)
}

// relPathError makes an error from a directory's Root name the file by its
// path from the mirror root, as every FS error must.
func relPathError(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path != name {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
}

func relLinkError(err error, oldname, newname string) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return &os.LinkError{Op: le.Op, Old: oldname, New: newname, Err: le.Err}
	}
	return err
}

// ReadDir implements FS.
func (f *RootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	d, err := f.r.OpenFile(name, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// SyncDir implements FS.
func (f *RootFS) SyncDir(name string) error {
	d, err := f.r.OpenFile(name, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// SyncFS implements FS with syncfs(2) on the root directory.
func (f *RootFS) SyncFS() error {
	rc, err := f.dir.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = rc.Control(func(fd uintptr) {
		serr = ignoringEINTR(func() error { return unix.Syncfs(int(fd)) })
	})
	if err == nil && serr != nil {
		err = &fs.PathError{Op: "syncfs", Path: f.dir.Name(), Err: serr}
	}
	return err
}

// absentFS is the FS of a read-only mirror whose directory does not exist:
// an empty tree that cannot be written.
type absentFS struct{}

func absent(op, name string) error { return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist} }

func (absentFS) OpenFile(name string, _ int, _ fs.FileMode) (File, error) {
	return nil, absent("open", name)
}
func (absentFS) Mkdir(name string, _ fs.FileMode) error    { return absent("mkdir", name) }
func (absentFS) Remove(name string) error                  { return absent("remove", name) }
func (absentFS) Lstat(name string) (fs.FileInfo, error)    { return nil, absent("lstat", name) }
func (absentFS) Chtimes(name string, _, _ time.Time) error { return absent("chtimes", name) }
func (absentFS) SyncDir(name string) error                 { return absent("sync", name) }
func (absentFS) SyncFS() error                             { return nil } // nothing was written
func (absentFS) Recheck(string)                            {}
func (absentFS) Rename(oldname, newname string) error      { return absent("rename", oldname) }
func (absentFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "." {
		return nil, nil // the empty tree has an empty top
	}
	return nil, absent("readdir", name)
}
