package mirror

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A rename into place with a releaser replaces what a plain rename would
// and refuses what it would; what it replaced is held for the releaser
// (nothing else is), and once released nothing in the tree is open.
func TestRenameWithReleaser(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, dir string) // makes d/target
		wantErr error
		held    bool // the replaced file is handed to the releaser
	}{
		{"nothing there", func(*testing.T, string) {}, nil, false},
		{"a file", func(t *testing.T, dir string) { writeFile(t, dir, "d/target", "old") }, nil, true},
		{"a symlink", func(t *testing.T, dir string) {
			writeFile(t, dir, "outside", "outside")
			if err := os.Symlink("../outside", filepath.Join(dir, "d", "target")); err != nil {
				t.Fatal(err)
			}
		}, nil, true},
		{"a directory", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "d", "target"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, syscall.EISDIR, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, dir)
			writeFile(t, dir, "d/t", "new")
			f := rootFS(t, dir)
			// A releaser with no workers keeps what it is handed.
			rel := &releaser{fds: make(chan int, 8)}
			f.rel = rel
			err := f.Rename("d/t", "d/target")
			want := []string(nil)
			if tc.held {
				want = []string{filepath.Join(dir, "d", "target") + " (deleted)"}
			}
			var held []string
			close(rel.fds)
			for fd := range rel.fds {
				if l, err := os.Readlink(filepath.Join("/proc/self/fd", strconv.Itoa(fd))); err == nil {
					held = append(held, l)
				}
				unix.Close(fd)
			}
			if !slices.Equal(held, want) {
				t.Errorf("handed to the releaser: %q, want %q", held, want)
			}
			f.rel = nil
			closeRootFS(t, f)
			switch {
			case tc.wantErr != nil:
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Rename = %v, want %v", err, tc.wantErr)
				}
				if got := mustRead(t, dir, "d/t"); got != "new" {
					t.Errorf("the staged file holds %q after a refused rename", got)
				}
			case err != nil:
				t.Fatalf("Rename: %v", err)
			default:
				if got := mustRead(t, dir, "d/target"); got != "new" {
					t.Errorf("d/target = %q, want the new content", got)
				}
				if fi, err := os.Lstat(filepath.Join(dir, "d", "target")); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("d/target: %v, %v; want a regular file", fi, err)
				}
			}
			if got, err := os.ReadFile(filepath.Join(dir, "outside")); err == nil && string(got) != "outside" {
				t.Errorf("the symlink's target outside changed: %q", got)
			}
			if open := openBelow(t, dir); len(open) > 0 {
				t.Errorf("descriptors still open in the tree after Close: %q", open)
			}
		})
	}
}

// Past its bound the releaser closes a descriptor at once, in the caller:
// what a run holds stays bounded. Not parallel: it looks at descriptor
// numbers another test could reuse.
func TestReleaserBound(t *testing.T) {
	r := &releaser{fds: make(chan int, 1)} // no workers: nothing is taken
	queued, inline := openNull(t), openNull(t)
	r.release(queued)
	r.release(inline)
	if _, err := unix.FcntlInt(uintptr(queued), unix.F_GETFD, 0); err != nil {
		t.Errorf("the descriptor within the bound was closed: %v", err)
	}
	if _, err := unix.FcntlInt(uintptr(inline), unix.F_GETFD, 0); err != unix.EBADF {
		t.Errorf("the descriptor past the bound: F_GETFD = %v, want EBADF (closed)", err)
	}
	unix.Close(<-r.fds)

	r = newReleaser()
	fds := make([]int, 3*releaserBound)
	for i := range fds {
		fds[i] = openNull(t)
		r.release(fds[i])
	}
	r.close()
	for _, fd := range fds[len(fds)-releaserBound:] { // some went through the channel
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != unix.EBADF {
			t.Fatalf("descriptor %d still open after close: %v", fd, err)
		}
	}
}

// Only local disk file systems get a releaser: not tmpfs, not /proc. A
// case whose directory is on another file system here is skipped.
func TestLocalFreeCosts(t *testing.T) {
	for _, tc := range []struct {
		dir    string
		fsType int64
		want   bool
	}{
		{"/proc", unix.PROC_SUPER_MAGIC, false},
		{"/dev/shm", unix.TMPFS_MAGIC, false},
		{t.TempDir(), unix.EXT4_SUPER_MAGIC, true},
	} {
		d, err := os.Open(tc.dir)
		if err != nil {
			continue // no such directory here
		}
		var st unix.Statfs_t
		if err := unix.Fstatfs(int(d.Fd()), &st); err != nil {
			t.Fatal(err)
		}
		if int64(st.Type) == tc.fsType {
			if got := localFreeCosts(d); got != tc.want {
				t.Errorf("localFreeCosts(%s) = %v, want %v", tc.dir, got, tc.want)
			}
		} else {
			t.Logf("%s is not on the file system the case is for (%#x): skipped", tc.dir, st.Type)
		}
		d.Close()
	}
}

// rootFS opens a RootFS over dir, closed by closeRootFS.
func rootFS(t *testing.T, dir string) *RootFS {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewRootFS(r)
	if err != nil {
		t.Fatal(err)
	}
	if f.rel != nil {
		f.rel.close() // the test sets its own
	}
	return f
}

func closeRootFS(t *testing.T, f *RootFS) {
	t.Helper()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.r.Close(); err != nil {
		t.Fatal(err)
	}
}

// openBelow lists what the process's descriptors below dir name (a
// released file shows as "name (deleted)").
func openBelow(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	var open []string
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && strings.HasPrefix(l, dir+"/") {
			open = append(open, l)
		}
	}
	return open
}

func openNull(t *testing.T) int {
	t.Helper()
	fd, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	return fd
}
