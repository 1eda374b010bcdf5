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
	Ticket  string                      // staged file to publish first
	Held    *resourcesync.Held          // record when the ticket is published (or at once without one)
	Removed string                      // a URI no longer held
	Failure *resourcesync.Failure       // a resource that failed
	Changes []resourcesync.ChangeRecord // changes this item's effect completes
	// Done, when set, is called by the writer goroutine once the item is
	// recorded, with the publish error of its ticket (nil when published or
	// when there was no ticket). When the publish failed, the writer has
	// already recorded a Failure (and failed Changes) in its place.
	Done func(publishErr error)
}

// WriterOptions tune the writer.
type WriterOptions struct {
	// MinBatch items are gathered before a flush unless Interval passed
	// since the last one; MaxBatch items make the writer stop taking more
	// until the running flush finishes (memory stays bounded).
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

// DefaultWriterOptions suit a mirror on a local disk.
func DefaultWriterOptions() WriterOptions {
	return WriterOptions{MinBatch: 256, MaxBatch: 16384, Interval: time.Second, Now: time.Now}
}

// Writer is the single goroutine that makes results durable: it publishes
// staged files (one durability barrier for many files), then records their
// batch in one state transaction. Flushes overlap with the workers: while
// one runs, items keep arriving and form the next batch (group commit).
type Writer struct {
	m     Publisher
	s     Committer
	setID int64
	o     WriterOptions
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
		last     = time.Now()
		tick     = time.NewTicker(max(w.o.Interval/4, 10*time.Millisecond))
		src      = in
	)
	defer tick.Stop()
	start := func() {
		b := batch
		batch = nil
		last = time.Now()
		flushing = make(chan error, 1)
		go func() { flushing <- w.flush(context.WithoutCancel(ctx), b) }()
	}
	for {
		// Backpressure: a full batch waits for the running flush.
		src = in
		if len(batch) >= w.o.MaxBatch && flushing != nil {
			src = nil
		}
		select {
		case it, ok := <-src:
			if !ok {
				if flushing != nil {
					if err := <-flushing; err != nil {
						return err
					}
				}
				return w.flush(context.WithoutCancel(ctx), batch)
			}
			batch = append(batch, it)
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
			if flushing == nil && len(batch) > 0 && time.Since(last) >= w.o.Interval {
				start()
			}
		case <-ctx.Done():
			if flushing != nil {
				<-flushing
			}
			_ = w.flush(context.WithoutCancel(ctx), batch)
			return ctx.Err()
		}
	}
}

// flush publishes the batch's staged files, then records it.
func (w *Writer) flush(ctx context.Context, items []Item) error {
	if len(items) == 0 {
		return nil
	}
	pubErrs := make([]error, len(items))
	if !w.o.DryRun {
		var tickets []string
		var at []int
		for i, it := range items {
			if it.Ticket != "" {
				tickets = append(tickets, it.Ticket)
				at = append(at, i)
			}
		}
		if len(tickets) > 0 || hasRemovals(items) {
			errs, err := w.m.Publish(tickets)
			if err != nil {
				return fmt.Errorf("make %d files durable: %w: %w", len(tickets), resourcesync.ErrLocal, err)
			}
			for k, e := range errs {
				pubErrs[at[k]] = e
			}
		}
	}
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
		if it.Removed != "" {
			return true
		}
	}
	return false
}
