package incremental

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// Run applies the set's changes after set.Cursor to the mirror.
//
// It first streams the history after the cursor into a backlog on disk
// (Deps.NewBacklog), then checks it: a history that no longer reaches back
// to the cursor stops the run with a *GapError, and deletions beyond
// Options.MaxDelete with an error wrapping resourcesync.ErrSafetyStop, both
// before anything is changed. Then the engine brings each resource named
// by a change not yet recorded to the state of its last change, and its
// changes are recorded with the effect once it is durable; the cursor and
// the closed lists done are recorded as the changes are. Memory is bounded
// by the engine's window and batches, not by the number of changes.
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
	r := &run{set: set, d: d, opts: opts, breaker: &transfer.Breaker{Max: opts.MaxUnavailable}, hist: &history{},
		sum: &Summary{Set: set, Via: resourcesync.ViaList, From: set.Cursor, Cursor: set.Cursor, Started: opts.Now()}}
	if set.viaDump() {
		r.sum.ChangeDump, r.sum.Via = set.ChangeDump, resourcesync.ViaDump
		r.packages = &transfer.Packages{Fetcher: d.Fetcher, Want: resourcesync.CapChangeDumpManifest,
			Options: opts.Dump.For(d.TempDir, opts.Limits), Breaker: r.breaker, Log: d.Log}
	} else {
		r.sum.ChangeList = set.ChangeList
	}
	r.tally = transfer.NewTally(opts.RunOptions, d.Log, &r.sum.Counts, &r.sum.WouldDelete, &r.sum.Failures)
	if opts.DryRun {
		r.sum.Plan = &resourcesync.Plan{}
		r.tally.Planned = r.sum.Plan
	}
	opts.Progress.Start(r.sum.Started)
	opts.Progress.Set(set.CapabilityList)
	err := r.run(ctx)
	r.closePackages()
	if r.packages != nil {
		r.sum.Packages = r.packages.Downloaded()
	}
	r.sum.Ended = opts.Now()
	return r.sum, err
}

// run is one incremental sync: the planner of the engine's units (the
// resources of the backlog) and the ledger of their changes.
type run struct {
	set      Set
	d        Deps
	opts     Options
	sum      *Summary
	tally    *transfer.Tally // counts and reports recorded results (writer goroutine)
	breaker  *transfer.Breaker
	packages *transfer.Packages // the Change Dump's; nil for a Change List
	hist     *history
	backlog  Backlog
	ledger   *ledger
	archived []archivedList // lists of the archive read before the history (catchUp)
	bare     bareDeletions  // of the list being read, to look up in the state
}

func (r *run) run(ctx context.Context) error {
	if r.set.Cursor.IsZero() {
		return fmt.Errorf("incremental sync of %s needs a starting point (a baseline or a from time)", r.set.CapabilityList)
	}
	backlog, err := r.d.NewBacklog()
	if err != nil {
		return fmt.Errorf("incremental sync of %s: %w: %w", r.set.doc(), resourcesync.ErrLocal, err)
	}
	r.backlog = backlog
	defer func() { r.backlog.Close() }()

	began := time.Now()
	err = r.loadChecked(ctx)
	if gap, ok := errors.AsType[*GapError](err); ok && r.archived == nil {
		if err = r.catchUp(ctx, gap); err == nil {
			err = r.loadChecked(ctx)
		}
	}
	if err != nil {
		return err
	}
	h := r.hist
	if err := r.unknownStart(); err != nil {
		return err
	}
	if r.sum.Changes, r.sum.AlreadyDone, err = r.backlog.Counts(); err != nil {
		return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
	}
	pending, err := r.backlog.PendingPerList()
	if err != nil {
		return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
	}
	r.d.Log.Debug().Int("lists", len(h.lists)).Int64("changes", r.sum.Changes).Dur("took", time.Since(began)).Msg("change history read")
	r.closeDone(pending)
	if err := r.guardDeletes(ctx); err != nil {
		return err
	}
	r.ledger = newLedger(h.lists, pending, h.latest, r.set.Cursor)
	job := transfer.Job{SetID: r.set.ID, Planner: r, Tally: r.tally, Breaker: r.breaker}
	err = transfer.Run(ctx, job, r.d.transfer(), r.opts.RunOptions)
	drained := errors.Is(err, transfer.ErrDrained)
	if drained {
		err = nil
	}
	if !errors.Is(err, resourcesync.ErrLocal) {
		err = errors.Join(err, r.finish(ctx))
	}
	switch {
	case err != nil:
		return err
	case drained || r.opts.Drain.Err() != nil:
		return fmt.Errorf("incremental sync of %s: %w", r.set.doc(), resourcesync.ErrInterrupted)
	}
	return nil
}

// loadChecked fills the backlog with the history and checks that it
// reaches back to the cursor: a *GapError otherwise.
func (r *run) loadChecked(ctx context.Context) error {
	err := r.load(ctx)
	h := r.hist
	r.sum.Earliest, r.sum.ListsRead, r.sum.ListsSkipped = h.earliest, len(h.lists), h.skipped
	if err != nil {
		if errors.Is(err, resourcesync.ErrLocal) || ctx.Err() != nil {
			return err
		}
		if hole, ok := errors.AsType[*resourcesync.HoleError](err); ok {
			return &GapError{ChangeList: r.set.doc(), Cursor: r.set.Cursor, Earliest: h.earliest, Hole: hole}
		}
		return fmt.Errorf("read the change history of set %s: %w", r.set.CapabilityList, err)
	}
	if !h.earliest.IsZero() && h.earliest.After(r.set.Cursor) {
		return &GapError{ChangeList: r.set.doc(), Cursor: r.set.Cursor, Earliest: h.earliest}
	}
	return nil
}

// closeDone removes at once the Change Dump packages downloaded to read
// their changes when every one of those changes was already applied.
func (r *run) closeDone(pending map[int]int64) {
	for i := range r.hist.lists {
		if ls := &r.hist.lists[i]; ls.pkg != nil && pending[i] == 0 {
			ls.pkg.Close()
		}
	}
}

// closePackages removes every package the run downloaded.
func (r *run) closePackages() {
	for i := range r.hist.lists {
		if p := r.hist.lists[i].pkg; p != nil {
			p.Close()
		}
	}
}

// finish records what the writer's batches could not: a cursor moved by
// changes an earlier run recorded, or closed lists they complete. It then
// prunes the change records the cursor now covers.
func (r *run) finish(ctx context.Context) error {
	var b resourcesync.Batch
	r.sum.Cursor = r.ledger.finish(&b)
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
		n, err := r.d.Store.PruneChanges(ctx, r.set.ID, r.keepFrom(r.sum.Cursor, r.ledger.firstNotDone()))
		if err != nil {
			return fmt.Errorf("prune change records: %w: %w", resourcesync.ErrLocal, err)
		}
		r.d.Log.Debug().Int64("records", n).Msg("pruned change records the cursor covers")
	}
	return nil
}
