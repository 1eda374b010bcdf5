package transfer

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// feed sends items to a writer and returns its Run error.
func feed(w *Writer, items ...Item) error {
	in := make(chan Item)
	done := make(chan error, 1)
	go func() { done <- w.Run(context.Background(), in) }()
	for _, it := range items {
		in <- it
	}
	close(in)
	return <-done
}

func stagedItem(t *testing.T, m *fakeMirror, uri string, done func(error)) Item {
	t.Helper()
	ticket, err := m.Put(uri, time.Time{}, func(s resourcesync.Sink) (bool, error) { return true, nil })
	if err != nil {
		t.Fatal(err)
	}
	return Item{Ticket: ticket, Held: &resourcesync.Held{URI: uri, Path: uri},
		Changes: []resourcesync.ChangeRecord{{URI: uri, Change: resourcesync.ChangeUpdated}}, Done: done}
}

func TestWriterPublishesThenRecords(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	w := NewWriter(m, s, 1, WriterOptions{MinBatch: 2})
	var order []string
	done := func(uri string) func(error) {
		return func(err error) {
			if err != nil {
				t.Errorf("%s: %v", uri, err)
			}
			order = append(order, uri)
		}
	}
	items := []Item{stagedItem(t, m, "a", done("a")), stagedItem(t, m, "b", done("b")), stagedItem(t, m, "c", done("c")),
		{Failure: &resourcesync.Failure{URI: "d", Cause: "404"}, Done: done("d")}}
	if err := feed(w, items...); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(m.published); got != "[a b c]" {
		t.Errorf("published %s", got)
	}
	all := s.all()
	if len(all.Held) != 3 || len(all.Changes) != 3 || len(all.Failed) != 1 {
		t.Errorf("recorded %+v", all)
	}
	if got := fmt.Sprint(order); got != "[a b c d]" {
		t.Errorf("Done order %s", got)
	}
}

func TestWriterPublishFailureBecomesAFailure(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	m.ticketErr["b"] = errors.New("path conflict: b is a directory")
	m.ticketErr["c"] = fmt.Errorf("cancelled: %w", resourcesync.ErrSuperseded)
	w := NewWriter(m, s, 1, WriterOptions{})
	var errs = map[string]error{}
	rec := func(uri string) func(error) { return func(err error) { errs[uri] = err } }
	if err := feed(w, stagedItem(t, m, "a", rec("a")), stagedItem(t, m, "b", rec("b")), stagedItem(t, m, "c", rec("c"))); err != nil {
		t.Fatal(err)
	}
	all := s.all()
	if len(all.Held) != 1 || all.Held[0].URI != "a" {
		t.Errorf("held %+v", all.Held)
	}
	if len(all.Failed) != 1 || all.Failed[0].URI != "b" {
		t.Errorf("failed %+v", all.Failed)
	}
	var failedChanges, appliedChanges int
	for _, c := range all.Changes {
		if c.Failed {
			failedChanges++
		} else {
			appliedChanges++
		}
	}
	// b's change failed; a's applied; c's applied too: the later removal
	// superseded it.
	if failedChanges != 1 || appliedChanges != 2 {
		t.Errorf("changes %+v", all.Changes)
	}
	if errs["a"] != nil || errs["b"] == nil || !errors.Is(errs["c"], resourcesync.ErrSuperseded) {
		t.Errorf("Done errors %v", errs)
	}
}

func TestWriterFatalErrorsRecordNothing(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	m.fatal = errors.New("syncfs: input/output error")
	err := feed(NewWriter(m, s, 1, WriterOptions{}), stagedItem(t, m, "a", nil))
	if !errors.Is(err, resourcesync.ErrLocal) || len(s.batches) != 0 {
		t.Fatalf("err = %v, batches %d", err, len(s.batches))
	}
	m, s = newFakeMirror(), &fakeStore{err: errBoom}
	err = feed(NewWriter(m, s, 1, WriterOptions{}), stagedItem(t, m, "a", nil))
	if !errors.Is(err, resourcesync.ErrLocal) || !errors.Is(err, errBoom) {
		t.Fatalf("err = %v", err)
	}
}

func TestWriterLastEventWins(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	w := NewWriter(m, s, 1, WriterOptions{MinBatch: 100, Interval: time.Hour})
	err := feed(w,
		stagedItem(t, m, "x", nil), Item{Removed: "x"}, // created, then deleted: not held
		Item{Removed: "y"}, stagedItem(t, m, "y", nil), // deleted, then created: held
	)
	if err != nil {
		t.Fatal(err)
	}
	all := s.all()
	if fmt.Sprint(all.Removed) != "[x]" || len(all.Held) != 1 || all.Held[0].URI != "y" {
		t.Errorf("held %+v removed %v", all.Held, all.Removed)
	}
	if len(m.calls) != 1 {
		t.Errorf("%d publish calls, want one batch", len(m.calls))
	}
}

func TestWriterGroupCommit(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	m.gate = make(chan struct{})
	w := NewWriter(m, s, 1, WriterOptions{MinBatch: 2, MaxBatch: 1000, Interval: time.Hour})
	in := make(chan Item)
	done := make(chan error, 1)
	go func() { done <- w.Run(context.Background(), in) }()
	// The first two items start a flush, which blocks in Sync; the next
	// fifty arrive meanwhile and must form one next batch, not 25.
	in <- stagedItem(t, m, "a0", nil)
	in <- stagedItem(t, m, "a1", nil)
	for i := range 50 {
		in <- stagedItem(t, m, fmt.Sprint("b", i), nil)
	}
	m.gate <- struct{}{} // first flush
	m.gate <- struct{}{} // second flush
	close(in)
	close(m.gate) // any further flush proceeds
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(m.calls) != 2 || len(m.calls[0]) != 2 || len(m.calls[1]) != 50 {
		sizes := []int{}
		for _, c := range m.calls {
			sizes = append(sizes, len(c))
		}
		t.Errorf("publish batches %v, want [2 50]", sizes)
	}
}

// While a flush runs the writer takes items up to MaxBatch, each weighing
// one plus its change records: what waits stays bounded however many
// changes a resource carries.
func TestWriterBackpressure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes int // change records each item carries
	}{
		{"items without changes", 0},
		{"one change each", 1},
		{"five changes each", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, s := newFakeMirror(), &fakeStore{}
			m.gate = make(chan struct{})
			w := NewWriter(m, s, 1, WriterOptions{MinBatch: 1, MaxBatch: 3 * (1 + tc.changes)})
			in := make(chan Item)
			go w.Run(context.Background(), in)
			item := func(uri string) Item {
				it := stagedItem(t, m, uri, nil)
				it.Changes = nil
				for i := range tc.changes {
					it.Changes = append(it.Changes, resourcesync.ChangeRecord{URI: uri, Change: resourcesync.ChangeUpdated, Position: i + 1})
				}
				return it
			}
			in <- item("first") // starts a flush that blocks
			for i := range 3 {
				in <- item(fmt.Sprint("q", i))
			}
			select {
			case in <- item("over"):
				t.Fatal("the writer took more than MaxBatch while a flush was running")
			case <-time.After(50 * time.Millisecond):
			}
			close(m.gate)
			close(in)
		})
	}
}

func TestWriterDryRunAndExtra(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	called := false
	err := feed(NewWriter(m, s, 1, WriterOptions{DryRun: true}), Item{Held: &resourcesync.Held{URI: "a"}, Done: func(error) { called = true }})
	if err != nil || len(m.calls) != 0 || m.syncs != 0 || len(s.batches) != 0 || !called {
		t.Fatalf("dry run: err %v, places %d, syncs %d, commits %d, done %v", err, len(m.calls), m.syncs, len(s.batches), called)
	}
	cursor := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	err = feed(NewWriter(m, s, 1, WriterOptions{Extra: func(b *resourcesync.Batch) { b.Cursor = &cursor }}), Item{Removed: "z"})
	if err != nil || s.all().Cursor == nil || !s.all().Cursor.Equal(cursor) {
		t.Fatalf("extra: err %v, batches %+v", err, s.batches)
	}
	if len(m.calls) != 0 || m.syncs != 1 {
		t.Errorf("a removal must be made durable: place calls %v, syncs %d", m.calls, m.syncs)
	}
}

func TestWriterCancelledStillRecordsWhatItHas(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	ctx, cancel := context.WithCancel(context.Background())
	w := NewWriter(m, s, 1, WriterOptions{MinBatch: 100, Interval: time.Hour})
	in := make(chan Item)
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, in) }()
	in <- stagedItem(t, m, "a", nil)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if len(s.all().Held) != 1 {
		t.Errorf("the received item was not recorded")
	}
}

// A removal whose record the feed already forgot (Unlinked, no Removed)
// is made durable before its change is recorded, and forgets nothing twice.
func TestWriterSyncsAnUnlinkBeforeItsChange(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	change := []resourcesync.ChangeRecord{{URI: "z", Change: resourcesync.ChangeDeleted}}
	if err := feed(NewWriter(m, s, 1, WriterOptions{}), Item{Unlinked: true, Changes: change}); err != nil {
		t.Fatal(err)
	}
	if all := s.all(); m.syncs != 1 || len(all.Changes) != 1 || len(all.Removed) != 0 {
		t.Errorf("syncs %d, recorded %+v", m.syncs, all)
	}
}

// A batch placed and not yet recorded counts against MaxBatch while the
// next flush runs: memory stays bounded as with one batch in flight.
func TestWriterBackpressureCountsThePlacedBatch(t *testing.T) {
	m, s := newFakeMirror(), &fakeStore{}
	m.gate, m.entered = make(chan struct{}), make(chan struct{})
	// Each item carries one change: three weigh 6.
	w := NewWriter(m, s, 1, WriterOptions{MinBatch: 1, MaxBatch: 6})
	in := make(chan Item)
	go w.Run(context.Background(), in)
	in <- stagedItem(t, m, "p", nil) // flush 1 starts
	<-m.entered
	m.gate <- struct{}{} // flush 1 places p; flush 2 starts at once to record it
	<-m.entered
	for i := range 2 {
		in <- stagedItem(t, m, fmt.Sprint("q", i), nil)
	}
	select {
	case in <- stagedItem(t, m, "over", nil):
		t.Fatal("the writer took more than MaxBatch, counting the placed batch, while a flush was running")
	case <-time.After(50 * time.Millisecond):
	}
	go func() {
		for range m.entered {
		}
	}()
	close(m.gate)
	close(in)
}
