package transfer

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ErrDrained is returned by Feed.Emit, and by Run, once the run was asked
// to stop taking new work (RunOptions.Drain): what was in flight finished
// and was recorded.
var ErrDrained = errors.New("drained")

// Planner is what the engine runs: it plans the units (baseline from a
// Resource List or Dump, incremental from the change history) and learns
// what became of them.
type Planner interface {
	// Units emits the run's units through f, in the order they are to be
	// applied, and returns when there are no more. An error says the plan
	// could not be completed (a list broke off): the units emitted so far
	// are still applied and recorded, and Run returns the error.
	Units(ctx context.Context, f *Feed) error
	// Recorded is told of each unit once its result is recorded in the
	// state (or, in a dry run, decided). The engine calls it from one
	// goroutine at a time, in the order results are recorded.
	Recorded(r Result)
	// BeforeCommit may add job-wide records (a cursor, lists done) to a
	// batch of results about to be committed: they are then recorded in
	// the same transaction as the results that justify them. It is not
	// called for a batch a local disk fault refused part of.
	BeforeCommit(b *resourcesync.Batch)
}

// Job is one run of the engine over one set.
type Job struct {
	SetID   int64
	Planner Planner
	// Tally counts and reports the results; NewTally makes it.
	Tally *Tally
	// Breaker is shared with what the planner fetches from the Source
	// itself (dump packages); nil means a new one.
	Breaker *Breaker
}

// Run is the one pipeline every sync path runs on: the planner's units,
// looked up in the state in batches and mapped into the mirror (Feed),
// go to o.Workers workers, which bring each one in step - fetched from its
// origins or the Source, verified and staged; deleted; or found in step -
// and hand their results to the one writer, which publishes the staged
// files in batches and records each batch in the state once it is durable
// (group commit). Units that map to one path are applied in the order they
// were emitted, one at a time.
//
// Per-unit failures are recorded and counted; they do not stop the run.
// Run returns the first error that must stop the run (a local disk or
// state fault wrapping resourcesync.ErrLocal, the Source down after the
// breaker tripped, ctx's error); else the planner's error; else ErrDrained
// when o.Drain stopped the run. Whatever was made durable before an error
// is recorded.
func Run(ctx context.Context, j Job, d Deps, o RunOptions) error {
	o = o.WithDefaults()
	e := &engine{d: d, o: o, job: j, claims: newClaims(), mark: d.Mirror.Mark()}
	if e.job.Breaker == nil {
		e.job.Breaker = &Breaker{Max: o.MaxUnavailable}
	}
	return e.run(ctx)
}

type engine struct {
	d      Deps
	o      RunOptions
	job    Job
	disp   *dispatcher
	claims *claims
	mark   uint64 // the mirror's mark when the run started (fresh)
	treeMu sync.Mutex
	tree   *resourcesync.Tree // the set's tree, once a deletion asked (setTree)
	others *bool              // Store.OtherSetsHold, once a deletion asked (othersHold)
}

func (e *engine) run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	units := make(chan *Unit, e.o.Workers*4)
	items := make(chan Item, e.o.Workers*4)
	e.disp = newDispatcher(units, e.o.Workers*8+lookupBatch)

	var planErr error
	feed := &Feed{e: e, ctx: gctx}
	g.Go(func() error {
		defer close(units)
		planErr = e.job.Planner.Units(gctx, feed)
		if planErr == nil || !stopsFeeding(planErr) {
			// What was emitted before the plan broke off is still applied.
			if err := feed.flush(); err != nil && planErr == nil {
				planErr = err
			}
		}
		if planErr == nil {
			e.o.Progress.ListingDone()
		}
		return nil
	})

	var workers sync.WaitGroup
	for range e.o.Workers {
		workers.Add(1)
		g.Go(func() error {
			defer workers.Done()
			w := &worker{e: e}
			for u := range units {
				if err := w.chain(gctx, u, items); err != nil {
					return err
				}
			}
			return nil
		})
	}
	go func() {
		workers.Wait()
		close(items)
	}()

	wo := e.o.WriterOptions()
	wo.Extra = e.job.Planner.BeforeCommit
	wr := NewWriter(e.d.Mirror, e.d.Store, e.job.SetID, wo)
	g.Go(func() error { return wr.Run(gctx, items) })

	err := g.Wait()
	for u := range units {
		e.disp.drop(u) // left by workers that stopped early: their origins must be released
	}
	e.disp.dropWaiting()
	feed.dropPending()
	switch {
	case err != nil:
		return err
	case planErr != nil:
		return planErr
	case e.o.Drain.Err() != nil:
		return ErrDrained
	}
	return nil
}

// fresh reports whether no file can be at u's path but one this run
// placed there, and none was: u's URI and its twin are not held, no unit
// of the run touched the path, and its directory was made by this run.
// Then the path need not be looked at.
func (e *engine) fresh(u *Unit) bool {
	return u.Held == nil && u.TwinHeld == nil && !e.claims.touched(u.Path) && e.d.Mirror.MadeSince(u.Path, e.mark)
}

// stopsFeeding reports whether a planner's error means that nothing more
// must be started, not even the units it already emitted.
func stopsFeeding(err error) bool {
	return errors.Is(err, ErrDrained) || errors.Is(err, resourcesync.ErrLocal) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// recorded counts and reports one unit once the writer recorded it, and
// tells its planner. The writer calls it from one goroutine at a time.
func (e *engine) recorded(res result, publishErr error) {
	u := res.u
	e.claims.recorded(res, publishErr)
	switch {
	case publishErr == nil:
	case errors.Is(publishErr, resourcesync.ErrSuperseded):
		// A later removal of the same file cancelled this write.
		res.outcome, res.bytes = Unchanged, 0
	default:
		res.outcome, res.cause = Failed, publishErr
	}
	t := e.job.Tally
	t.Counts.Listed++
	t.Add(res.outcome, u.URI, u.Path, res.bytes, res.cause)
	t.planned(res.outcome, u.Want, res.conditional, res.cause)
	t.Mirrored(res.outcome, res.mirrorBytes, res.mirrorFailures)
	t.Patched(res.outcome, res.patched, res.bytes, res.patchBytes, res.patchFailed)
	if res.ticket != "" && publishErr == nil {
		e.d.Log.Debug().Str("uri", u.URI).Str("path", u.Path).Int64("bytes", res.bytes).Msg("fetched")
	}
	e.job.Planner.Recorded(Result{Unit: u, Outcome: res.outcome, Bytes: res.bytes, Cause: res.cause})
}

// item turns a worker's result into what the writer publishes and
// records: the effect and, with it, the unit's changes (failed when the
// unit failed). Accounting happens once it is recorded.
func (e *engine) item(res result) Item {
	u := res.u
	it := Item{Ticket: res.ticket, Held: res.held, Unlinked: res.outcome == Deleted && !e.o.DryRun}
	if res.removed && !e.forgets(u) { // forgotten already: no second DELETE
		it.Removed = u.URI
	}
	if res.replaces != "" && res.held != nil && res.outcome != Failed {
		it.Removed = res.replaces
	}
	failed := res.outcome == Failed
	cause := res.note
	if failed {
		cause = res.cause.Error()
		it.Failure = &resourcesync.Failure{URI: u.URI, Cause: cause, At: e.o.Now()}
	}
	if len(u.Changes) > 0 {
		it.Changes = make([]resourcesync.ChangeRecord, len(u.Changes))
		for i, c := range u.Changes {
			c.Failed, c.Cause = failed, cause
			it.Changes[i] = c
		}
	}
	it.Done = func(publishErr error) { e.recorded(res, publishErr) }
	return it
}
