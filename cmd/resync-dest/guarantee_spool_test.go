package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 22, item 5f: nothing is left outside the mirror. A kill -9 while a
// large Resource List downloads used to leave its spool (resync-dest-doc-*)
// in $TMPDIR for good. The spool file now has no name from the moment it is
// made: the killed run (caught while the spool is open, seen through
// /proc) leaves $TMPDIR empty, and the mirror and state stay sound.
func TestGuaranteeKilledRunLeavesNoSpool(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
	locs := make([]string, 20_000) // about 1.5 MB: past the 1 MiB held in memory
	for i := range locs {
		locs[i] = fmt.Sprintf("%sdataset1/res/spool/%06d.txt", src.URL(), i)
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(locs))
	src.SetFault("/dataset1/resourcelist.xml", fixtures.Fault{Trickle: 300 * time.Millisecond, TrickleBytes: 256 << 10})
	tmp := t.TempDir()
	dest := t.TempDir()
	p := startProc(t, []string{"TMPDIR=" + tmp}, args([]string{"baseline", "--dest", dest}, srv.URL)...)
	waitUntil(t, "the Resource List is spooled to a file", func() bool {
		if p.exited() {
			t.Fatalf("the run ended before it was killed:\n%s", p.stderr.String())
		}
		return spoolOpen(p.cmd.Process.Pid, tmp)
	})
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if _, sig := p.wait(); sig != syscall.SIGKILL {
		t.Fatalf("the run was not killed (signal %v)", sig)
	}
	settle(t, srv)
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("the killed run left %v in $TMPDIR", names)
	}
	v := readState(t, dest, src.CapabilityListURL(0))
	assertHeldOnDisk(t, dest, v.held)
}

// spoolOpen reports whether process pid holds a document spool from dir
// open: a descriptor on a file in dir with no name, made with O_TMPFILE
// (its target dir/#inode), or where the file system cannot, named
// dir/resync-dest-doc-* until it is unlinked.
func spoolOpen(pid int, dir string) bool {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(fmt.Sprintf("/proc/%d/fd", pid), fd.Name()))
		if err == nil && (strings.HasPrefix(target, filepath.Join(dir, "#")) || strings.HasPrefix(target, filepath.Join(dir, "resync-dest-doc-"))) {
			return true
		}
	}
	return false
}
