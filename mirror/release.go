package mirror

import (
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// A rename that replaces a file frees the old one within the system call,
// in the writer's goroutine: on ext4 that is the inode's and its blocks'
// release, and where the file system is mounted with discard (without a
// journal) a wait for the device as well. The writer renames a batch one
// file after another, so those waits add up, and results pile up behind
// them to the writer's bound (transfer.WriterOptions.MaxBatch): measured
// on such a disk, the apply of 180,000 changes peaked at 87-90 MiB, and
// at 60-68 MiB with the old files held open across their renames and
// closed off the writer, its time the same (bench-sync, the two builds
// alternated).
//
// So on the local disk file systems where freeing costs (localFreeCosts),
// a rename into place first refuses to replace anything (RENAME_NOREPLACE:
// a new file, the whole of a first baseline, costs the same one system
// call, measured at 11.3 µs against renameat's 11.5 on ext4); only when a
// file is there does it open that file (O_PATH, which reads nothing),
// rename over it, and hand the descriptor to a releaser, whose close frees
// the file. Never on a network file system: on NFS a file held open across
// a rename over it leaves a .nfs file behind.

// releaserBound bounds the descriptors waiting for their release; past it
// a rename closes its own, as without a releaser: the descriptors a run
// holds stay bounded, and so does the space freed late.
const releaserBound = 256

// releaserWorkers close descriptors in parallel: one close at a time
// would make the device's waits the releaser's bound instead of the
// writer's.
const releaserWorkers = 4

// releaser closes, off the caller's goroutine, descriptors held on files
// a rename replaced. Its methods are safe for concurrent use; close must
// come after the last release.
type releaser struct {
	fds chan int
	wg  sync.WaitGroup
}

func newReleaser() *releaser {
	r := &releaser{fds: make(chan int, releaserBound)}
	for range releaserWorkers {
		r.wg.Go(func() {
			for fd := range r.fds {
				unix.Close(fd)
			}
		})
	}
	return r
}

// release closes fd, in the background unless releaserBound descriptors
// are waiting already.
func (r *releaser) release(fd int) {
	select {
	case r.fds <- fd:
	default:
		unix.Close(fd)
	}
}

// close waits until every descriptor released is closed.
func (r *releaser) close() {
	close(r.fds)
	r.wg.Wait()
}

// localFreeCosts reports whether the directory open as c is on a local
// disk file system whose frees the releaser takes off the writer: ext4,
// XFS, Btrfs. Elsewhere (tmpfs frees in no time; a network file system
// must not see a replaced file held open) renames replace as they come.
func localFreeCosts(c syscall.Conn) bool {
	rc, err := c.SyscallConn()
	if err != nil {
		return false
	}
	var st unix.Statfs_t
	var serr error = unix.EINVAL
	if rc.Control(func(fd uintptr) { serr = unix.Fstatfs(int(fd), &st) }) != nil || serr != nil {
		return false
	}
	switch int64(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC:
		return true
	}
	return false
}
