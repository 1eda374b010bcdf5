package transfer

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// A rename refused by a local disk fault stops the run (README
// "Guarantees", local disk faults): what was published is recorded, the
// refused file becomes a failure, and no job-wide record (a cursor) is
// added, so that the state never moves past work the disk did not take.
func TestWriterDiskFaultOnRenameStopsTheRun(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EIO, syscall.ENOSPC, syscall.EROFS} {
		t.Run(errno.Error(), func(t *testing.T) {
			m, s := newFakeMirror(), &fakeStore{}
			m.ticketErr["b"] = fmt.Errorf("publish b: rename b: %w", errno)
			extra := false
			w := NewWriter(m, s, 1, WriterOptions{MinBatch: 10, Interval: time.Hour, Extra: func(b *resourcesync.Batch) {
				extra = true
				cursor := time.Now()
				b.Cursor = &cursor
			}})
			done := map[string]error{}
			rec := func(uri string) func(error) { return func(err error) { done[uri] = err } }
			err := feed(w, stagedItem(t, m, "a", rec("a")), stagedItem(t, m, "b", rec("b")), stagedItem(t, m, "c", rec("c")))
			if !errors.Is(err, resourcesync.ErrLocal) || !errors.Is(err, errno) {
				t.Fatalf("err = %v, want ErrLocal wrapping %v", err, errno)
			}
			if !strings.Contains(err.Error(), "b") {
				t.Errorf("error %q does not name the file", err)
			}
			all := s.all()
			if len(all.Held) != 2 || len(all.Failed) != 1 || all.Failed[0].URI != "b" {
				t.Errorf("recorded held %+v failed %+v; want a and c held, b failed", all.Held, all.Failed)
			}
			if extra || all.Cursor != nil {
				t.Errorf("the job-wide records were added to a batch the disk refused part of")
			}
			if done["a"] != nil || !errors.Is(done["b"], errno) || len(done) != 3 {
				t.Errorf("Done calls %v", done)
			}
		})
	}
}

// A per-resource publish error (a path conflict) does not stop the run.
func TestWriterPathConflictIsNotADiskFault(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	m.ticketErr["b"] = fmt.Errorf("publish b: path conflict: b is a directory: %w", syscall.EISDIR)
	if err := feed(NewWriter(m, s, 1, WriterOptions{}), stagedItem(t, m, "a", nil), stagedItem(t, m, "b", nil)); err != nil {
		t.Fatalf("a path conflict stopped the run: %v", err)
	}
}

// The failpoints are hit in order: after the files are published and
// before the batch is recorded, then after it is recorded; never in a dry
// run or for an empty batch.
func TestWriterFailpoints(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	var hits []string
	fp := func(name string) {
		hits = append(hits, fmt.Sprintf("%s published=%d committed=%d", name, len(m.published), len(s.batches)))
	}
	if err := feed(NewWriter(m, s, 1, WriterOptions{Failpoint: fp}), stagedItem(t, m, "a", nil)); err != nil {
		t.Fatal(err)
	}
	want := "[after-publish published=1 committed=0 after-commit published=1 committed=1]"
	if got := fmt.Sprint(hits); got != want {
		t.Errorf("failpoints %s, want %s", got, want)
	}
	hits = nil
	if err := feed(NewWriter(m, s, 1, WriterOptions{Failpoint: fp, DryRun: true}), Item{Held: &resourcesync.Held{URI: "x"}}); err != nil {
		t.Fatal(err)
	}
	if len(hits) != 0 {
		t.Errorf("failpoints hit in a dry run: %v", hits)
	}
}
