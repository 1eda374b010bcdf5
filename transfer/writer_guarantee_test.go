package transfer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
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

// seqLog is what a pipelined writer did, in order.
type seqLog struct {
	mu     sync.Mutex
	events []string
}

func (l *seqLog) add(e string) { l.mu.Lock(); l.events = append(l.events, e); l.mu.Unlock() }

type seqMirror struct {
	*fakeMirror
	log *seqLog
}

func (m seqMirror) Sync() error { m.log.add("sync"); return m.fakeMirror.Sync() }
func (m seqMirror) Place(tickets []string) []error {
	for _, t := range tickets {
		m.log.add("place " + m.staged[t])
	}
	return m.fakeMirror.Place(tickets)
}

type seqStore struct {
	*fakeStore
	log *seqLog
}

func (s seqStore) Commit(ctx context.Context, set int64, b *resourcesync.Batch) error {
	for _, h := range b.Held {
		s.log.add("record " + h.URI)
	}
	for _, u := range b.Removed {
		s.log.add("record removal " + u)
	}
	return s.fakeStore.Commit(ctx, set, b)
}

// The state never claims more than the disk holds (README "Guarantees",
// I2): the pipelined writer records a file only after a Sync that came
// after its rename, a removal only after a Sync that came after it was
// sent; and it costs one Sync per flush (plus one at the end), not two.
func TestWriterRecordsOnlyWhatASyncMadeDurable(t *testing.T) {
	fm, l := newFakeMirror(), &seqLog{}
	m, s := seqMirror{fm, l}, seqStore{&fakeStore{}, l}
	fm.gate = make(chan struct{})
	w := NewWriter(m, s, 1, WriterOptions{MinBatch: 2, MaxBatch: 1000, Interval: time.Hour})
	in := make(chan Item)
	done := make(chan error, 1)
	go func() { done <- w.Run(context.Background(), in) }()
	in <- stagedItem(t, fm, "a", nil)
	in <- stagedItem(t, fm, "b", nil) // flush 1 starts, waits in Sync
	in <- stagedItem(t, fm, "c", nil)
	in <- Item{Removed: "z"}
	fm.gate <- struct{}{} // flush 1: sync, place a b
	fm.gate <- struct{}{} // flush 2: sync, record a b, place c
	close(in)
	close(fm.gate) // the end: sync, record c and z
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	synced := map[string]bool{} // placed and then synced, or removed before a sync
	var placed []string
	pendingRemoval := []string{"z"}
	for _, e := range l.events {
		switch {
		case e == "sync":
			for _, p := range placed {
				synced[p] = true
			}
			placed = nil
			for _, u := range pendingRemoval {
				synced[u] = true
			}
			pendingRemoval = nil
		case strings.HasPrefix(e, "place "):
			placed = append(placed, strings.TrimPrefix(e, "place "))
		case strings.HasPrefix(e, "record removal "):
			if u := strings.TrimPrefix(e, "record removal "); !synced[u] {
				t.Errorf("%s recorded before a sync made it durable: %q", u, l.events)
			}
		case strings.HasPrefix(e, "record "):
			if u := strings.TrimPrefix(e, "record "); !synced[u] {
				t.Errorf("%s recorded before a sync made its rename durable: %q", u, l.events)
			}
		}
	}
	if all := s.all(); len(all.Held) != 3 || len(all.Removed) != 1 {
		t.Errorf("recorded %+v", all)
	}
	if fm.syncs != 3 {
		t.Errorf("%d syncs for 2 flushes, want 3: %q", fm.syncs, l.events)
	}
}
