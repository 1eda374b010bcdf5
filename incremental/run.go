package incremental

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Run applies the set's changes after set.Cursor to the mirror.
//
// It first reads the whole history after the cursor, then checks it: a
// history that no longer reaches back to the cursor stops the run with a
// *GapError, and deletions beyond Options.MaxDelete with an error wrapping
// resourcesync.ErrSafetyStop, both before anything is changed. Then each
// resource named by a change not yet recorded is brought to the state of
// its last change, by Options.Workers workers, and its changes are
// recorded with the effect once it is durable; the cursor and the closed
// lists done are recorded as the changes are.
//
// Per-resource failures (a 404, a hash mismatch after a second fetch, a
// path conflict) are recorded in the state, with the changes concerned
// marked failed, and counted; they do not stop the run. Run returns an
// error when the run could not complete: the history could not be read
// (wrapping resourcesync.ErrUnavailable when the Source could not be
// reached), a local disk or state error (resourcesync.ErrLocal), a safety
// stop, or an interruption (resourcesync.ErrInterrupted). Whatever was
// made durable before the error is recorded. The Summary is returned in
// every case.
func Run(ctx context.Context, set Set, d Deps, opts Options) (*Summary, error) {
	opts = opts.withDefaults()
	r := &run{set: set, d: d, opts: opts, breaker: transfer.Breaker{Max: opts.MaxUnavailable},
		sum: &Summary{Set: set, Via: "list", From: set.Cursor, Cursor: set.Cursor, Started: opts.Now()}}
	if set.viaDump() {
		r.sum.ChangeDump, r.sum.Via = set.ChangeDump, "dump"
	} else {
		r.sum.ChangeList = set.ChangeList
	}
	r.tally = transfer.NewTally(opts.RunOptions, d.Log, &r.sum.Counts, &r.sum.WouldDelete, &r.sum.Failures)
	opts.Progress.Start(r.sum.Started)
	err := r.run(ctx)
	r.closePackages()
	r.sum.Packages = r.packages.Load()
	r.sum.Ended = opts.Now()
	return r.sum, err
}

type run struct {
	set     Set
	d       Deps
	opts    Options
	sum     *Summary
	tally   *transfer.Tally // counts and reports recorded results (writer goroutine)
	hist    *history
	ledger  *ledger
	breaker transfer.Breaker
	// packages counts the Change Dump packages downloaded.
	packages atomic.Int64
}

func (r *run) run(ctx context.Context) error {
	if r.set.Cursor.IsZero() {
		return fmt.Errorf("incremental sync of %s needs a starting point (a baseline or a from time)", r.set.CapabilityList)
	}
	began := time.Now()
	read := r.readHistory
	if r.set.viaDump() {
		read = r.readDumpHistory
	}
	h, err := read(ctx)
	r.hist = h
	r.d.Log.Debug().Int("lists", len(h.lists)).Int("changes", len(h.changes)).Dur("took", time.Since(began)).Msg("change history read")
	r.sum.Earliest, r.sum.ListsRead, r.sum.ListsSkipped = h.earliest, len(h.lists), h.skipped
	if err != nil {
		if errors.Is(err, resourcesync.ErrLocal) || ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("read the change history of set %s: %w", r.set.CapabilityList, err)
	}
	if !h.earliest.IsZero() && h.earliest.After(r.set.Cursor) {
		return &GapError{ChangeList: r.set.doc(), Cursor: r.set.Cursor, Earliest: h.earliest}
	}
	for _, c := range h.changes {
		r.sum.Changes++
		if c.done {
			r.sum.AlreadyDone++
		}
	}
	began = time.Now()
	p, err := r.makePlan(ctx, h)
	if err != nil {
		return err
	}
	r.d.Log.Debug().Int("resources", p.units).Dur("took", time.Since(began)).Msg("changes planned")
	if err := r.forgetDeleted(ctx, p); err != nil {
		return err
	}
	r.ledger = newLedger(h, r.set.Cursor)
	err = r.apply(ctx, p)
	if !errors.Is(err, resourcesync.ErrLocal) {
		err = errors.Join(err, r.finish(ctx))
	}
	switch {
	case err != nil:
		return err
	case r.opts.Drain.Err() != nil:
		return fmt.Errorf("incremental sync of %s: %w", r.set.doc(), resourcesync.ErrInterrupted)
	}
	return nil
}

// apply runs the pipeline: one producer feeding the planned jobs, N
// workers, one writer recording results.
func (r *run) apply(ctx context.Context, p *plan) error {
	g, gctx := errgroup.WithContext(ctx)
	jobs := make(chan job, r.opts.Workers*4)
	items := make(chan transfer.Item, r.opts.Workers*4)

	g.Go(func() error {
		defer close(jobs)
		for _, j := range p.jobs {
			if r.opts.Drain.Err() != nil {
				return nil
			}
			for _, u := range j {
				if !(u.deletes() && r.opts.Delete) {
					r.opts.Progress.Listed()
				}
			}
			select {
			case jobs <- j:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		r.opts.Progress.ListingDone()
		return nil
	})

	var workers sync.WaitGroup
	for range r.opts.Workers {
		workers.Add(1)
		g.Go(func() error {
			defer workers.Done()
			w := &worker{run: r}
			for j := range jobs {
				if r.opts.Drain.Err() != nil {
					continue // stop starting new transfers; drain the queue
				}
				for _, u := range j {
					res, err := w.process(gctx, u)
					if err != nil {
						return err
					}
					select {
					case items <- r.item(res):
					case <-gctx.Done():
						return gctx.Err()
					}
				}
			}
			return nil
		})
	}
	go func() {
		workers.Wait()
		close(items)
	}()

	wo := r.opts.WriterOptions()
	wo.Extra = r.ledger.record
	wr := transfer.NewWriter(r.d.Mirror, r.d.Store, r.set.ID, wo)
	g.Go(func() error { return wr.Run(gctx, items) })
	return g.Wait()
}

// forgetDeleted records, before any file is removed, that the set no
// longer holds the resources the run deletes: so the state never claims a
// file the disk lost, whenever the run stops. A run killed before removing
// a file finds it again next time as a file at the path of a deleted
// resource that no set holds, and removes it then.
func (r *run) forgetDeleted(ctx context.Context, p *plan) error {
	if !r.opts.Delete || r.opts.DryRun {
		return nil
	}
	var b resourcesync.Batch
	for _, j := range p.jobs {
		for _, u := range j {
			if u.deletes() && u.heldOK {
				b.Removed = append(b.Removed, u.uri)
			}
		}
	}
	if b.Empty() {
		return nil
	}
	if err := r.d.Store.Commit(ctx, r.set.ID, &b); err != nil {
		return fmt.Errorf("record the resources to delete: %w: %w", resourcesync.ErrLocal, err)
	}
	return nil
}

// finish records what the writer's batches could not: a cursor moved by
// changes an earlier run recorded, or closed lists they complete. It then
// prunes the change records the cursor now covers.
func (r *run) finish(ctx context.Context) error {
	var b resourcesync.Batch
	r.ledger.advance(&b)
	r.sum.Cursor = r.ledger.cursor
	if r.opts.DryRun {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	if !b.Empty() {
		if err := r.d.Store.Commit(ctx, r.set.ID, &b); err != nil {
			return fmt.Errorf("record the cursor: %w: %w", resourcesync.ErrLocal, err)
		}
	}
	if r.sum.Cursor.After(r.sum.From) {
		n, err := r.d.Store.PruneChanges(ctx, r.set.ID, r.sum.Cursor)
		if err != nil {
			return fmt.Errorf("prune change records: %w: %w", resourcesync.ErrLocal, err)
		}
		r.d.Log.Debug().Int64("records", n).Msg("pruned change records the cursor covers")
	}
	return nil
}
