package baseline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// errDrained stops the producer when the user asked to stop.
var errDrained = errors.New("drained")

// Run copies the set from its Resource List into the mirror.
//
// Per-resource failures (a 404, a hash mismatch after a second fetch, a path
// conflict) are recorded in the state and counted; they do not stop the
// run. Run returns an error when the run could not complete: the list could
// not be read (wrapping resourcesync.ErrUnavailable when the Source could
// not be reached), a local disk or state error, the deletion guard
// (resourcesync.ErrSafetyStop), or an interruption (resourcesync.
// ErrInterrupted). Whatever was made durable before the error is recorded.
// The Summary is returned in every case.
func Run(ctx context.Context, set Set, d Deps, opts Options) (*Summary, error) {
	opts = opts.withDefaults()
	r := &run{set: set, d: d, opts: opts, roots: treeRoots{}, breaker: transfer.Breaker{Max: opts.MaxUnavailable}, sum: &Summary{Set: set, Via: "list", Started: opts.Now()}}
	if set.viaDump() {
		r.sum.ResourceDump, r.sum.Via = set.ResourceDump, "dump"
	} else {
		r.sum.ResourceList = set.ResourceList
	}
	r.tally = transfer.NewTally(opts.RunOptions, d.Log, &r.sum.Counts, &r.sum.WouldDelete, &r.sum.Failures)
	opts.Progress.Start(r.sum.Started)
	err := r.run(ctx)
	r.sum.Ended = opts.Now()
	return r.sum, err
}

func (r *run) run(ctx context.Context) error {
	listing, err := r.d.NewListing()
	if err != nil {
		return fmt.Errorf("baseline %s: %w: %w", r.set.doc(), resourcesync.ErrLocal, err)
	}
	r.listing = listing
	defer listing.Close()
	fresh, err := r.freshStart(ctx)
	if err != nil {
		return err
	}
	err = r.copy(ctx)
	if err == nil && r.sum.ListComplete && !fresh {
		err = r.deletePass(ctx)
	}
	if err == nil && r.sum.ListComplete {
		// Only now does the mirror reflect the list: a deletion the guard
		// refused (or that failed) leaves the set without a new baseline
		// point, so that incremental sync cannot start past it.
		err = r.recordBaselinePoint(ctx)
	}
	return err
}

type run struct {
	set  Set
	d    Deps
	opts Options
	sum  *Summary
	// tally counts and reports the results the writer recorded (writer
	// goroutine).
	tally *transfer.Tally

	listing Listing
	roots   treeRoots // the set's mapped tree, from the listed paths (writer goroutine)
	listErr error     // the listing failed (writer goroutine)
	breaker transfer.Breaker
}

// job is one listed entry for a worker.
type job struct {
	entry *resourcesync.Entry
	// member is the entry's bitstream in a Resource Dump package, which
	// pkg keeps open until the job is released; nil for a list's entry
	// (and for a dump's entry read from a manifest copy): fetched from the
	// Source.
	member *dumpzip.Member
	pkg    *openPackage
	// looked: the producer already asked the state what is held of the
	// entry's URI, and prev is the answer (nil: nothing).
	looked bool
	prev   *resourcesync.Held
}

// copy runs the pipeline: one producer streaming the list, N workers, one
// writer recording results.
func (r *run) copy(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	jobs := make(chan job, r.opts.Workers*4)
	items := make(chan transfer.Item, r.opts.Workers*4)

	// The producer never fails the group: a list that breaks off midway
	// still lets the workers finish and the writer record what was done.
	var listErr error
	g.Go(func() error {
		defer close(jobs)
		if r.set.viaDump() {
			listErr = r.produceDump(gctx, jobs)
		} else {
			listErr = r.produce(gctx, jobs)
		}
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
					j.release()
					continue // stop starting new transfers; drain the queue
				}
				res, err := w.process(gctx, j)
				j.release()
				if err != nil {
					return err
				}
				select {
				case items <- r.item(res):
				case <-gctx.Done():
					return gctx.Err()
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
	wr := transfer.NewWriter(r.d.Mirror, r.d.Store, r.set.ID, wo)
	g.Go(func() error { return wr.Run(gctx, items) })

	err := g.Wait()
	for j := range jobs {
		j.release() // left by workers that stopped early: their packages must close
	}
	if err == nil {
		err = r.listErr
	}
	switch {
	case err != nil:
		return err
	case errors.Is(listErr, errDrained) || r.opts.Drain.Err() != nil:
		return fmt.Errorf("baseline of %s: %w", r.set.doc(), resourcesync.ErrInterrupted)
	case listErr != nil:
		return fmt.Errorf("baseline of %s: %w", r.set.doc(), listErr)
	}
	return nil
}

// lookupBatch is how many listed entries the producer gathers before it
// asks the state what is held of them, in one query (Store.HeldMany): one
// point lookup per resource cost about a tenth of a first baseline's time.
const lookupBatch = 100

// produce streams the Resource List (and its index parts) to the workers,
// with what the state holds of each entry looked up in batches.
func (r *run) produce(ctx context.Context, jobs chan<- job) error {
	open := func(ctx context.Context, u string) (string, io.ReadCloser, error) {
		final, _, body, err := r.d.Fetcher.OpenDocument(ctx, u)
		return final, body, err
	}
	pending := make([]*resourcesync.Entry, 0, lookupBatch)
	send := func() error {
		defer func() { pending = pending[:0] }()
		uris := make([]string, len(pending))
		for i, e := range pending {
			uris[i] = e.Loc
		}
		held, err := r.d.Store.HeldMany(ctx, r.set.ID, uris)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("look up %d listed resources in the state: %w: %w", len(uris), resourcesync.ErrLocal, err)
		}
		for _, e := range pending {
			j := job{entry: e, looked: true}
			if h, ok := held[e.Loc]; ok {
				j.prev = &h
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	wopts := resourcesync.WalkOptions{Limits: r.opts.Limits}
	h, err := resourcesync.Walk(ctx, open, r.set.ResourceList, resourcesync.CapResourceList, wopts,
		func(_ *resourcesync.Part, e *resourcesync.Entry) error {
			if r.opts.Drain.Err() != nil {
				return errDrained
			}
			r.opts.Progress.Listed()
			if e.BadLastMod != "" {
				r.d.Log.Warn().Str("uri", e.Loc).Str("lastmod", e.BadLastMod).Msg("lastmod is not a W3C datetime; the resource is treated as if it had none")
			}
			if pending = append(pending, e); len(pending) < lookupBatch {
				return nil
			}
			return send()
		})
	if len(pending) > 0 && (err == nil || !errors.Is(err, resourcesync.ErrLocal) && !errors.Is(err, errDrained)) {
		// What was read before the list broke off is still copied.
		if serr := send(); serr != nil && err == nil {
			err = serr
		}
	}
	if h != nil {
		r.sum.At, r.sum.Completed = h.MD.At, h.MD.Completed
	}
	if err == nil {
		r.sum.ListComplete = true
		r.opts.Progress.ListingDone()
	}
	return err
}

// freshStart reports whether the run starts from nothing: no file in the
// mirror and no record of the set in the state. Then every file of the
// set at the end was written by this run, from a listed path, and the
// deletion pass - a walk of the whole tree, asking the listing about each
// file - can find nothing, so it is skipped.
func (r *run) freshStart(ctx context.Context) (bool, error) {
	empty := true
	err := r.d.Mirror.Walk("", func(string, fs.FileInfo) error {
		empty = false
		return fs.SkipAll
	})
	if err != nil {
		return false, fmt.Errorf("look for files in the mirror: %w: %w", resourcesync.ErrLocal, err)
	}
	if !empty {
		return false, nil
	}
	n, err := r.d.Store.HeldCount(ctx, r.set.ID)
	if err != nil {
		return false, fmt.Errorf("count the set's resources: %w: %w", resourcesync.ErrLocal, err)
	}
	return n == 0, nil
}

// recordBaselinePoint records, once the whole list was read and every
// result recorded, the point from which incremental sync starts: the
// Resource List's at.
func (r *run) recordBaselinePoint(ctx context.Context) error {
	if r.opts.DryRun {
		return nil
	}
	at := r.sum.At
	if at.IsZero() {
		// A list without at (non-conforming): the run's start is the latest
		// instant the copy is known to reflect.
		at = r.sum.Started
		r.d.Log.Warn().Str("uri", r.set.doc()).Msg("the Resource List or Dump has no at; using the run's start as the baseline point")
	}
	b := &resourcesync.Batch{Baseline: &resourcesync.BaselinePoint{At: at, Completed: r.opts.Now(), Via: r.sum.Via}}
	if err := r.d.Store.Commit(ctx, r.set.ID, b); err != nil {
		return fmt.Errorf("record the baseline point: %w: %w", resourcesync.ErrLocal, err)
	}
	return nil
}
