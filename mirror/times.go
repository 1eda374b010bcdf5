package mirror

import (
	"errors"
	"io/fs"
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// setTimes sets the access and modification times of the file f was opened
// on. A file of the default FS is an *os.File, whose descriptor takes them
// in one system call; by name, through os.Root, it costs two (the final
// element is checked for a symlink first), which was a few per cent of a
// first baseline. Any other File (a FaultFS's) goes through fsys.Chtimes,
// so that injected faults still apply.
func setTimes(fsys FS, f File, name string, atime, mtime time.Time) error {
	if of, ok := f.(*os.File); ok {
		err := futimens(of, atime, mtime)
		if !errors.Is(err, errors.ErrUnsupported) {
			return err
		}
	}
	return fsys.Chtimes(name, atime, mtime)
}

// futimens is futimens(3): utimensat(2) on the descriptor itself (a NULL
// path, which x/sys/unix's wrappers cannot pass). Times out of the kernel's
// range are errors.ErrUnsupported, for the caller to try by name.
func futimens(f *os.File, atime, mtime time.Time) error {
	var ts [2]unix.Timespec
	var err error
	if ts[0], err = unix.TimeToTimespec(atime); err != nil {
		return errors.ErrUnsupported
	}
	if ts[1], err = unix.TimeToTimespec(mtime); err != nil {
		return errors.ErrUnsupported
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return errors.ErrUnsupported
	}
	var errno unix.Errno
	err = rc.Control(func(fd uintptr) {
		_, _, errno = unix.Syscall6(unix.SYS_UTIMENSAT, fd, 0, uintptr(unsafe.Pointer(&ts[0])), 0, 0, 0)
	})
	switch {
	case err != nil:
		return errors.ErrUnsupported
	case errno != 0:
		return &fs.PathError{Op: "futimens", Path: f.Name(), Err: errno}
	}
	return nil
}
