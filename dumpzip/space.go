package dumpzip

import (
	"fmt"
	"syscall"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// freeSpace is statfs(2): the bytes an unprivileged process may still
// write on the file system holding dir.
func freeSpace(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", dir, err)
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// checkSpace refuses to go on when the temp directory's file system cannot
// take need more bytes and still keep MinFree. Running out of disk is a
// local fault: it stops the run (resourcesync.ErrLocal), since every other
// package would meet it too.
func checkSpace(o Options, need int64, what string) error {
	free, err := o.FreeSpace(o.TempDir)
	if err != nil {
		return fmt.Errorf("check free space for %s: %w: %w", what, resourcesync.ErrLocal, err)
	}
	if free < 0 {
		return nil
	}
	if need > free-o.MinFree {
		return fmt.Errorf("%w: %s needs %d bytes, and %s has %d free of which %d are kept spare: %w",
			resourcesync.ErrLocal, what, need, o.TempDir, free, o.MinFree, syscall.ENOSPC)
	}
	return nil
}
