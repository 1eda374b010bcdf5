package source

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// spool holds a document while it downloads: in memory up to a limit, then
// in a temporary file, so that a large document costs disk rather than RAM.
// The file never has a name (tempFile) and is used through its open
// descriptor only: whatever ends the process (kill -9 included), nothing
// is left in the temporary directory. A spool is used by one goroutine.
type spool struct {
	memLimit int64
	dir      string
	mem      bytes.Buffer
	file     *os.File // nil until the document outgrows memLimit
}

func newSpool(memLimit int64, dir string) *spool {
	return &spool{memLimit: memLimit, dir: dir}
}

// Write appends p, moving to a temporary file when memory is full.
func (s *spool) Write(p []byte) (int, error) {
	if s.file == nil {
		if int64(s.mem.Len()+len(p)) <= s.memLimit {
			return s.mem.Write(p)
		}
		f, err := tempFile(s.dir)
		if err != nil {
			return 0, &spoolError{err: err}
		}
		s.file = f
		if _, err := f.Write(s.mem.Bytes()); err != nil {
			return 0, &spoolError{err: err}
		}
		s.mem = bytes.Buffer{} // release the memory now on disk
	}
	n, err := s.file.Write(p)
	if err != nil {
		return n, &spoolError{err: err}
	}
	return n, nil
}

// tempFile makes a file in dir that never has a name (O_TMPFILE). Where
// the file system cannot, it makes a named one and unlinks it at once: a
// kill between the two leaves it behind, a window a loaded machine made
// wide enough for a test to hit.
func tempFile(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err == nil {
		return os.NewFile(uintptr(fd), filepath.Join(dir, "resync-dest-doc")), nil
	}
	if !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.EISDIR) && !errors.Is(err, unix.EINVAL) {
		return nil, &os.PathError{Op: "open a temporary file in", Path: dir, Err: err}
	}
	f, err := os.CreateTemp(dir, "resync-dest-doc-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// reset empties the spool for another attempt. The temporary file, if
// any, is kept and truncated.
func (s *spool) reset() error {
	s.mem.Reset()
	if s.file == nil {
		return nil
	}
	if err := s.file.Truncate(0); err != nil {
		return &spoolError{err: err}
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return &spoolError{err: err}
	}
	return nil
}

// open hands the content over as a reader; the spool is empty afterwards.
// Closing the reader frees the temporary file's space.
func (s *spool) open() (io.ReadCloser, error) {
	if s.file == nil {
		b := s.mem.Bytes()
		s.mem = bytes.Buffer{}
		return memDoc{bytes.NewReader(b)}, nil
	}
	f := &spoolFile{f: s.file}
	s.file = nil
	if _, err := f.f.Seek(0, io.SeekStart); err != nil {
		_ = f.Close()
		return nil, &spoolError{err: err}
	}
	return f, nil
}

// discard drops the content and frees the temporary file.
func (s *spool) discard() {
	s.mem = bytes.Buffer{}
	if s.file != nil {
		_ = (&spoolFile{f: s.file}).Close()
		s.file = nil
	}
}

// spoolError is a failure to hold a document (a full disk, say): not the
// Source's fault, and not retried.
type spoolError struct{ err error }

func (e *spoolError) Error() string { return "spool document: " + e.err.Error() }
func (e *spoolError) Unwrap() error { return e.err }

// spoolFile is a spooled document open for reading; its file has no name
// left, so Close frees it.
type spoolFile struct{ f *os.File }

func (f *spoolFile) Read(p []byte) (int, error) { return f.f.Read(p) }

// Size is the document's size (a reader of it reports its progress).
func (f *spoolFile) Size() int64 {
	fi, err := f.f.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}

// memDoc is a document held in memory, open for reading; it keeps the
// reader's Size.
type memDoc struct{ *bytes.Reader }

func (memDoc) Close() error { return nil }

// Close closes the file, which frees its space.
func (f *spoolFile) Close() error { return f.f.Close() }
