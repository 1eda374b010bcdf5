package transfer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Item is one result for the writer: what to publish and record, all
// optional. The record is made only after the ticket is published.
type Item struct {
	Ticket  string             // staged file to publish first
	Held    *resourcesync.Held // record when the ticket is published (or at once without one)
	Removed string             // a URI no longer held
	// Unlinked: the item's effect removed a file, which must be durable
	// before the item (its change) is recorded.
	Unlinked bool
	Failure  *resourcesync.Failure       // a resource that failed
	Changes  []resourcesync.ChangeRecord // changes this item's effect completes
	// Done, when set, is called by the writer goroutine once the item is
	// recorded, with the publish error of its ticket (nil when published or
	// when there was no ticket). When the publish failed, the writer has
	// already recorded a Failure (and failed Changes) in its place.
	Done func(publishErr error)
}

// WriterOptions tune the writer.
type WriterOptions struct {
	// MinBatch items are gathered before a flush unless Interval passed
	// since the last one. MaxBatch bounds what waits for a flush: each item
	// weighs one plus the change records it carries (weight), and at
	// MaxBatch the writer stops taking more until the running flush
	// finishes (memory stays bounded).
	MinBatch int
	MaxBatch int
	Interval time.Duration
	DryRun   bool // record nothing; Done is still called
	Now      func() time.Time
	// Extra, when set, is called with each batch just before it is
	// committed, to add job-wide records (a new cursor) - except for a
	// batch a local disk fault refused part of, which ends the run.
	Extra func(b *resourcesync.Batch)
	// Failpoint, when set, is called with FailpointAfterPublish once a
	// batch's files are renamed into place and durable but not yet
	// recorded, and with FailpointAfterCommit once the batch is recorded.
	// It is a test seam for crash tests (the command line sets it only
	// from RESYNC_DEST_FAILPOINT); nil in production.
	Failpoint func(name string)
}

// Failpoint names: the moments of a flush where crash tests kill the
// process (see WriterOptions.Failpoint).
const (
	FailpointAfterPublish = "after-publish"
	FailpointAfterCommit  = "after-commit"
)

// DefaultWriterOptions suit a mirror on a local disk. MaxBatch bounds the
// memory the writer holds (about 2 KiB an item, a few hundred bytes a
// change record): 16,384 items let a backlog's apply reach 101 MiB once
// the workers no longer waited on locks, while 4,096 still share one
// syncfs. It counts change records as well because what one resource
// carries grows with the backlog: counting items alone, 1,000,000 changes
// (several a unit) peaked at 95-97 MiB where 180,000 peaked at 61-76.
// Interval: at most ten flushes a second for fewer than MinBatch results,
// so that a short run records its work as it goes (what a kill loses is
// redone) and a long one is paced by MinBatch.
func DefaultWriterOptions() WriterOptions {
	return WriterOptions{MinBatch: 256, MaxBatch: 4096, Interval: 100 * time.Millisecond, Now: time.Now}
}

// Writer is the single goroutine that makes results durable: it publishes
// staged files, then records their batch in one state transaction.
// Flushes overlap with the workers: while one runs, items keep arriving
// and form the next batch (group commit). Flushes are pipelined so that
// each costs one durability barrier (Publisher.Sync), not two: flush k
// syncs - the data of batch k's staged files, batch k-1's renames and
// every removal before it - then records batch k-1 and renames batch k's
// files into place; batch k is recorded by flush k+1, after the Sync that
// makes its renames durable. Flush k+1 starts once MinBatch items wait (or
// Interval passed since flush k began, or the input ends), not as soon as
// flush k ends: a syncfs costs about as much for 16 files as for 256, and
// starting one per handful of results - every 2 ms on a fast Source - cost
// a tenth of a first baseline's CPU time. A batch with no file to rename
// is recorded in the flush that syncs it.
type Writer struct {
	m     Publisher
	s     Committer
	setID int64
	o     WriterOptions
	// placed is the batch whose files the last flush renamed into place,
	// not yet known durable nor recorded. Only flushes, one at a time,
	// touch it.
	placed *placed
}

// placed is a batch renamed into place, with each item's Place error.
type placed struct {
	items []Item
	errs  []error
}

// NewWriter returns a writer for one set.
func NewWriter(m Publisher, s Committer, setID int64, o WriterOptions) *Writer {
	d := DefaultWriterOptions()
	if o.MinBatch <= 0 {
		o.MinBatch = d.MinBatch
	}
	if o.MaxBatch < o.MinBatch {
		o.MaxBatch = max(d.MaxBatch, o.MinBatch)
	}
	if o.Interval <= 0 {
		o.Interval = d.Interval
	}
	if o.Now == nil {
		o.Now = d.Now
	}
	return &Writer{m: m, s: s, setID: setID, o: o}
}

// Run records items from in until it is closed, then flushes the rest. It
// returns the first flush error (durability, state, or a rename refused by
// a local disk fault - wrapping resourcesync.ErrLocal), which must stop the
// run. When ctx is cancelled it still records what was already received,
// so that the next run does not redo it, and returns ctx's error.
func (w *Writer) Run(ctx context.Context, in <-chan Item) error {
	var (
		batch    []Item
		flushing chan error // non-nil while a flush runs
		// The weight of the batch gathering, of the one the running flush
		// took, and of the one before, which that flush may hold placed
		// until it records it: memory is bounded as with one batch in
		// flight, by counting that one against MaxBatch.
		batchW, flushingW, placedW int
		last                       = time.Now()
		tick                       = time.NewTicker(max(w.o.Interval/4, 10*time.Millisecond))
		src                        = in
	)
	defer tick.Stop()
	start := func() {
		b := batch
		batch = nil
		placedW, flushingW, batchW = flushingW, batchW, 0
		last = time.Now()
		flushing = make(chan error, 1)
		go func() { flushing <- w.flush(context.WithoutCancel(ctx), b) }()
	}
	// finish flushes the rest, then records the batch placed last.
	finish := func() error {
		if flushing != nil {
			if err := <-flushing; err != nil {
				return err
			}
		}
		if err := w.flush(context.WithoutCancel(ctx), batch); err != nil {
			return err
		}
		return w.drain(context.WithoutCancel(ctx))
	}
	for {
		// Backpressure: a full batch waits for the running flush.
		src = in
		if batchW+placedW >= w.o.MaxBatch && flushing != nil {
			src = nil
		}
		select {
		case it, ok := <-src:
			if !ok {
				return finish()
			}
			batch = append(batch, it)
			batchW += weight(it)
			if flushing == nil && len(batch) >= w.o.MinBatch {
				start()
			}
		case err := <-flushing:
			flushing = nil
			if err != nil {
				return err
			}
			if len(batch) >= w.o.MinBatch {
				start()
			}
		case <-tick.C:
			if flushing == nil && (len(batch) > 0 || w.placed != nil) && time.Since(last) >= w.o.Interval {
				start()
			}
		case <-ctx.Done():
			_ = finish()
			return ctx.Err()
		}
	}
}

// weight is what an item counts for against WriterOptions.MaxBatch.
func weight(it Item) int { return 1 + len(it.Changes) }

// flush makes durable what items need and records what is durable: the
// batch placed by the flush before, and items unless they have files to
// rename, which are placed and recorded by the next flush (or drain).
func (w *Writer) flush(ctx context.Context, items []Item) error {
	prev := w.placed
	if len(items) == 0 && prev == nil {
		return nil
	}
	if w.o.DryRun {
		return w.record(ctx, items, make([]error, len(items)))
	}
	var tickets []string
	var at []int
	for i, it := range items {
		if it.Ticket != "" {
			tickets = append(tickets, it.Ticket)
			at = append(at, i)
		}
	}
	if prev == nil && len(tickets) == 0 && !hasRemovals(items) {
		return w.record(ctx, items, make([]error, len(items))) // nothing to make durable
	}
	w.placed = nil
	if err := w.m.Sync(); err != nil {
		return fmt.Errorf("make %d files durable: %w: %w", len(tickets)+placedFiles(prev), resourcesync.ErrLocal, err)
	}
	if len(tickets) == 0 {
		if prev == nil {
			return w.record(ctx, items, make([]error, len(items)))
		}
		return w.record(ctx, append(prev.items, items...), append(prev.errs, make([]error, len(items))...))
	}
	// The batch before is recorded first, then this one's files are
	// renamed: a run killed right after a commit leaves no file in place
	// that the state does not hold yet, as it did with one Publish per
	// batch (a resume counts what it fetches again the same way).
	if prev != nil {
		if err := w.record(ctx, prev.items, prev.errs); err != nil {
			return err
		}
	}
	placeErrs := w.m.Place(tickets)
	errs := make([]error, len(items))
	for k, e := range placeErrs {
		errs[at[k]] = e
	}
	w.placed = &placed{items: items, errs: errs}
	if localFault(ctx, errs) != nil {
		// The run stops here: record at once what was placed.
		return w.drain(ctx)
	}
	return nil
}

// drain makes the batch placed last durable and records it.
func (w *Writer) drain(ctx context.Context) error {
	p := w.placed
	if p == nil {
		return nil
	}
	w.placed = nil
	if err := w.m.Sync(); err != nil {
		return fmt.Errorf("make %d files durable: %w: %w", placedFiles(p), resourcesync.ErrLocal, err)
	}
	return w.record(ctx, p.items, p.errs)
}

func placedFiles(p *placed) int {
	if p == nil {
		return 0
	}
	n := 0
	for _, it := range p.items {
		if it.Ticket != "" {
			n++
		}
	}
	return n
}

// record records items, whose effects are durable (pubErrs: each item's
// Place error), in one state transaction, and calls their Done.
func (w *Writer) record(ctx context.Context, items []Item, pubErrs []error) error {
	var b resourcesync.Batch
	last := map[string]bool{} // URI -> its last event in this batch was a removal
	for i, it := range items {
		w.collect(&b, it, pubErrs[i])
		if it.Held != nil && pubErrs[i] == nil {
			last[it.Held.URI] = false
		}
		if it.Removed != "" {
			last[it.Removed] = true
		}
	}
	lastWins(&b, last)
	// A rename that failed for a local disk fault (ENOSPC, EIO, ...) is not
	// about its resource: every later one would fail alike. What was
	// published is still recorded, without the job-wide records (a cursor
	// must not move past work the disk refused), and the run stops.
	diskErr := localFault(ctx, pubErrs)
	if w.o.Extra != nil && diskErr == nil {
		w.o.Extra(&b)
	}
	if !w.o.DryRun && !b.Empty() {
		w.failpoint(FailpointAfterPublish)
		if err := w.s.Commit(ctx, w.setID, &b); err != nil {
			return fmt.Errorf("record %d results in the state: %w: %w", len(items), resourcesync.ErrLocal, err)
		}
		w.failpoint(FailpointAfterCommit)
	}
	for i, it := range items {
		if it.Done != nil {
			it.Done(pubErrs[i])
		}
	}
	return diskErr
}

// localFault returns the first publish error that is a local disk fault,
// wrapped with resourcesync.ErrLocal, or nil.
func localFault(ctx context.Context, pubErrs []error) error {
	for _, e := range pubErrs {
		if e != nil && errors.Is(Classify(ctx, e), resourcesync.ErrLocal) {
			return fmt.Errorf("%w: %w", resourcesync.ErrLocal, e)
		}
	}
	return nil
}

func (w *Writer) failpoint(name string) {
	if w.o.Failpoint != nil {
		w.o.Failpoint(name)
	}
}

// collect adds an item's records to the batch. A ticket that could not be
// published turns its record into a failure; one superseded by a later
// removal records nothing but its changes (the removal says the rest).
func (w *Writer) collect(b *resourcesync.Batch, it Item, pubErr error) {
	switch {
	case pubErr == nil:
		if it.Held != nil {
			b.Held = append(b.Held, *it.Held)
		}
		b.Changes = append(b.Changes, it.Changes...)
	case errors.Is(pubErr, resourcesync.ErrSuperseded):
		b.Changes = append(b.Changes, it.Changes...)
	default:
		uri := ""
		if it.Held != nil {
			uri = it.Held.URI
		}
		b.Failed = append(b.Failed, resourcesync.Failure{URI: uri, Cause: pubErr.Error(), At: w.o.Now()})
		for _, c := range it.Changes {
			c.Failed, c.Cause = true, pubErr.Error()
			b.Changes = append(b.Changes, c)
		}
	}
	if it.Removed != "" {
		b.Removed = append(b.Removed, it.Removed)
	}
	if it.Failure != nil {
		b.Failed = append(b.Failed, *it.Failure)
	}
}

// lastWins keeps, for a URI both held and removed within one batch, only
// the record of the event that came last (items are in the order their
// effects happened): the state applies Held before Removed, which is right
// only when the removal was the later event. last maps a URI to true when
// its last event was a removal.
func lastWins(b *resourcesync.Batch, last map[string]bool) {
	if len(b.Removed) == 0 || len(b.Held) == 0 {
		return
	}
	held := b.Held[:0]
	for _, h := range b.Held {
		if !last[h.URI] {
			held = append(held, h)
		}
	}
	removed := b.Removed[:0]
	for _, u := range b.Removed {
		if last[u] {
			removed = append(removed, u)
		}
	}
	b.Held, b.Removed = held, removed
}

func hasRemovals(items []Item) bool {
	for _, it := range items {
		if it.Removed != "" || it.Unlinked {
			return true
		}
	}
	return false
}
