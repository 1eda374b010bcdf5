package mirror

import (
	"io/fs"
	"time"
)

// Operation names FaultFS passes to its Fault function: one per FS method
// and one per File method.
const (
	OpOpenFile = "openfile"
	OpMkdir    = "mkdir"
	OpRemove   = "remove"
	OpRename   = "rename" // name is the new name (the target)
	OpLstat    = "lstat"
	OpReadDir  = "readdir"
	OpChtimes  = "chtimes"
	OpSyncDir  = "syncdir"
	OpSyncFS   = "syncfs" // name is "."
	OpRead     = "read"   // File methods: name is File.Name()
	OpWrite    = "write"
	OpSeek     = "seek"
	OpTruncate = "truncate"
	OpSync     = "sync"
	OpClose    = "close"
)

// FaultFS wraps an FS and fails chosen operations, for reliability tests:
// before each operation it calls Fault(op, name) (op is one of the Op
// constants), and when that returns an error (syscall.ENOSPC, syscall.EIO,
// ...) the operation is not performed and the error is returned as an
// *fs.PathError naming op and name. A failed Close still closes the inner
// file, so no descriptor leaks. A nil Fault injects nothing. FaultFS is safe
// for concurrent use when Inner and Fault are.
type FaultFS struct {
	Inner FS
	Fault func(op, name string) error
}

func (f *FaultFS) fault(op, name string) error {
	if f.Fault == nil {
		return nil
	}
	if err := f.Fault(op, name); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// OpenFile implements FS.
func (f *FaultFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if err := f.fault(OpOpenFile, name); err != nil {
		return nil, err
	}
	inner, err := f.Inner.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: inner, fs: f}, nil
}

// Mkdir implements FS.
func (f *FaultFS) Mkdir(name string, perm fs.FileMode) error {
	if err := f.fault(OpMkdir, name); err != nil {
		return err
	}
	return f.Inner.Mkdir(name, perm)
}

// Remove implements FS.
func (f *FaultFS) Remove(name string) error {
	if err := f.fault(OpRemove, name); err != nil {
		return err
	}
	return f.Inner.Remove(name)
}

// Rename implements FS; Fault sees the new name.
func (f *FaultFS) Rename(oldname, newname string) error {
	if err := f.fault(OpRename, newname); err != nil {
		return err
	}
	return f.Inner.Rename(oldname, newname)
}

// Lstat implements FS.
func (f *FaultFS) Lstat(name string) (fs.FileInfo, error) {
	if err := f.fault(OpLstat, name); err != nil {
		return nil, err
	}
	return f.Inner.Lstat(name)
}

// ReadDir implements FS.
func (f *FaultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.fault(OpReadDir, name); err != nil {
		return nil, err
	}
	return f.Inner.ReadDir(name)
}

// Chtimes implements FS.
func (f *FaultFS) Chtimes(name string, atime, mtime time.Time) error {
	if err := f.fault(OpChtimes, name); err != nil {
		return err
	}
	return f.Inner.Chtimes(name, atime, mtime)
}

// SyncDir implements FS.
func (f *FaultFS) SyncDir(name string) error {
	if err := f.fault(OpSyncDir, name); err != nil {
		return err
	}
	return f.Inner.SyncDir(name)
}

// SyncFS implements FS; Fault sees the name ".".
func (f *FaultFS) SyncFS() error {
	if err := f.fault(OpSyncFS, "."); err != nil {
		return err
	}
	return f.Inner.SyncFS()
}

// Recheck implements FS; it has no faults.
func (f *FaultFS) Recheck(dir string) { f.Inner.Recheck(dir) }

type faultFile struct {
	File
	fs *FaultFS
}

func (f *faultFile) Read(b []byte) (int, error) {
	if err := f.fs.fault(OpRead, f.Name()); err != nil {
		return 0, err
	}
	return f.File.Read(b)
}

func (f *faultFile) Write(b []byte) (int, error) {
	if err := f.fs.fault(OpWrite, f.Name()); err != nil {
		return 0, err
	}
	return f.File.Write(b)
}

func (f *faultFile) Seek(offset int64, whence int) (int64, error) {
	if err := f.fs.fault(OpSeek, f.Name()); err != nil {
		return 0, err
	}
	return f.File.Seek(offset, whence)
}

func (f *faultFile) Truncate(size int64) error {
	if err := f.fs.fault(OpTruncate, f.Name()); err != nil {
		return err
	}
	return f.File.Truncate(size)
}

func (f *faultFile) Sync() error {
	if err := f.fs.fault(OpSync, f.Name()); err != nil {
		return err
	}
	return f.File.Sync()
}

func (f *faultFile) Close() error {
	err := f.fs.fault(OpClose, f.Name())
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	return err
}
