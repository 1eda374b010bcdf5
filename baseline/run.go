package baseline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

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
	r := &run{set: set, d: d, opts: opts, roots: treeRoots{}, breaker: &transfer.Breaker{Max: opts.MaxUnavailable},
		sum: &Summary{Set: set, Via: resourcesync.ViaList, Started: opts.Now()}}
	if set.viaDump() {
		r.sum.ResourceDump, r.sum.Via = set.ResourceDump, resourcesync.ViaDump
		r.packages = &transfer.Packages{Fetcher: d.Fetcher, Want: resourcesync.CapResourceDumpManifest,
			Options: opts.Dump.For(d.TempDir, opts.Limits), Breaker: r.breaker, Log: d.Log}
	} else {
		r.sum.ResourceList = set.ResourceList
	}
	r.tally = transfer.NewTally(opts.RunOptions, d.Log, &r.sum.Counts, &r.sum.WouldDelete, &r.sum.Failures)
	if opts.DryRun {
		r.sum.Plan = &resourcesync.Plan{}
		r.tally.Planned = r.sum.Plan
	}
	opts.Progress.Start(r.sum.Started)
	opts.Progress.Set(set.CapabilityList)
	err := r.run(ctx)
	if r.packages != nil {
		r.sum.Packages = r.packages.Downloaded()
	}
	r.sum.Ended = opts.Now()
	return r.sum, err
}

func (r *run) run(ctx context.Context) error {
	if r.opts.Part {
		return r.copy(ctx) // no deletion pass, no sweep: nothing asks the listing
	}
	fresh, err := r.freshStart(ctx)
	if err != nil {
		return err
	}
	if !fresh {
		listing, err := r.d.NewListing()
		if err != nil {
			return fmt.Errorf("baseline %s: %w: %w", r.set.doc(), resourcesync.ErrLocal, err)
		}
		r.listing = listing
		defer listing.Close()
	}
	err = r.copy(ctx)
	if err == nil && r.sum.ListComplete && !fresh {
		err = r.deletePass(ctx)
	}
	if err == nil && r.sum.ListComplete && !r.opts.DryRun {
		err = r.sweepPartials()
	}
	if err == nil && r.sum.ListComplete {
		// Only now does the mirror reflect the list: a deletion the guard
		// refused (or that failed) leaves the set without a new baseline
		// point, so that incremental sync cannot start past it.
		err = r.recordBaselinePoint(ctx)
	}
	return err
}

// run is one baseline: the planner of the engine's units (the entries of
// the list, or of the dump's packages) and what it learns from their
// results.
type run struct {
	set  Set
	d    Deps
	opts Options
	sum  *Summary
	// tally counts and reports the results the writer recorded (writer
	// goroutine).
	tally    *transfer.Tally
	breaker  *transfer.Breaker
	packages *transfer.Packages // the Resource Dump's; nil for a list

	listing Listing   // nil when nothing will ask it (freshStart, Options.Part)
	roots   treeRoots // the set's mapped tree, from the listed paths (writer goroutine)
	listErr error     // the listing failed (writer goroutine)
}

// copy runs the engine over the list's (or dump's) entries.
func (r *run) copy(ctx context.Context) error {
	job := transfer.Job{SetID: r.set.ID, Planner: r, Tally: r.tally, Breaker: r.breaker}
	err := transfer.Run(ctx, job, r.d.transfer(), r.opts.RunOptions)
	if errors.Is(err, transfer.ErrDrained) {
		return fmt.Errorf("baseline of %s: %w", r.set.doc(), resourcesync.ErrInterrupted)
	}
	if r.listErr != nil && (err == nil || !transfer.Fatal(err)) {
		return r.listErr
	}
	return err
}

// Units emits the entries of the Resource List (and its index parts), or
// of the Resource Dump's packages. An error that is not the engine's own
// (drained, a local fault, the context) is the list's: it names the list.
func (r *run) Units(ctx context.Context, f *transfer.Feed) error {
	var err error
	if r.set.viaDump() {
		err = r.dumpUnits(ctx, f)
	} else {
		err = r.listUnits(ctx, f)
	}
	if err != nil && !errors.Is(err, transfer.ErrDrained) && !transfer.Fatal(err) {
		err = fmt.Errorf("baseline of %s: %w", r.set.doc(), err)
	}
	return err
}

// listUnits emits the entries of the Resource List (and its index parts),
// each followed by the resources fetched along with it (--alternate,
// --with-metadata): listed by this run, so the deletion pass keeps them.
func (r *run) listUnits(ctx context.Context, f *transfer.Feed) error {
	wopts := resourcesync.WalkOptions{Limits: r.opts.Limits, Read: r.opts.Progress.ListRead}
	h, err := resourcesync.Walk(ctx, r.d.Open, r.set.ResourceList, resourcesync.CapResourceList, wopts,
		func(_ *resourcesync.Part, e *resourcesync.Entry) error {
			if e.BadLastMod != "" {
				r.badLastMod(e)
			}
			if err := f.Emit(r.unit(e)); err != nil {
				return err
			}
			cs := r.opts.Companions(e.Links)
			if len(cs) == 0 {
				return nil
			}
			// A companion follows its resource: left out with it (and so
			// kept by the deletion pass), whatever its own URI.
			leftOut := r.opts.Filter.CheckEntry(e.Loc, e.Links)
			for _, l := range cs {
				cu := transfer.CompanionUnit(l)
				cu.LeftOut = leftOut
				if err := f.Emit(cu); err != nil {
					return err
				}
			}
			return nil
		})
	if h != nil {
		r.sum.At, r.sum.Completed = h.MD.At, h.MD.Completed
	}
	if err == nil {
		r.sum.ListComplete = true
	}
	return err
}

// unit is the work for one listed entry: bring it to what the entry says.
func (r *run) unit(e *resourcesync.Entry) *transfer.Unit {
	return &transfer.Unit{
		URI:    e.Loc,
		Want:   resourcesync.Version{Fixity: e.MD.Hash, Length: e.MD.Length, HasLength: e.MD.HasLength, LastMod: e.LastMod},
		Wanted: true, Rehash: r.opts.Checksum, Revalidate: true, Mirrors: resourcesync.Mirrors(e.Links),
		Collections: resourcesync.Collections(e.Links),
		Links:       resourcesync.Recorded(e.Links), RecordLinks: true,
	}
}

// BeforeCommit adds nothing: a baseline's point is recorded once the whole
// list is.
func (r *run) BeforeCommit(*resourcesync.Batch) {}

// freshStart reports whether the run starts from nothing: no file in the
// mirror, no partial download kept and no record of the set in the state.
// Then every file and partial download of the set at the end was made by
// this run, for a listed path: the deletion pass - a walk of the whole
// tree, asking the listing about each file - and the sweep of partial
// downloads can find nothing, so they are skipped, and no listing is kept
// (a tenth of the writer's work).
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
	if kept, err := r.d.Mirror.HasPartials(); err != nil || kept {
		if err != nil {
			return false, fmt.Errorf("look for partial downloads in the mirror: %w: %w", resourcesync.ErrLocal, err)
		}
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
		r.listAt("the Resource List or Dump has no at; using the run's start as the baseline point")
	}
	// An at after this run's time is the Source's mistake; taken as is,
	// it would move the cursor past every change until then. The run's
	// time, cut to the second Sources publish, is the latest the copy can
	// reflect.
	if now := r.opts.Now().Truncate(time.Second); at.After(now) {
		r.listAt(fmt.Sprintf("the Resource List or Dump is dated after this run's time (%s); the baseline point is this run's time, %s",
			resourcesync.FormatDatetime(at), resourcesync.FormatDatetime(now)))
		at = now
	}
	b := &resourcesync.Batch{Baseline: &resourcesync.BaselinePoint{At: at, Completed: r.opts.Now(), Via: r.sum.Via}}
	if err := r.d.Store.Commit(ctx, r.set.ID, b); err != nil {
		return fmt.Errorf("record the baseline point: %w: %w", resourcesync.ErrLocal, err)
	}
	return nil
}

// badLastMod notes an entry whose lastmod is not a W3C datetime: counted,
// and warned about here unless the caller takes the condition (the same
// entry is listed so on every run).
func (r *run) badLastMod(e *resourcesync.Entry) {
	r.sum.BadLastMod++
	const msg = "lastmod is not a W3C datetime; the resource is treated as if it had none"
	if c := r.opts.Condition; c != nil {
		c(transfer.ConditionLastMod, e.Loc, fmt.Sprintf("lastmod %q is not a W3C datetime; treated as none", e.BadLastMod))
		r.d.Log.Debug().Str("uri", e.Loc).Str("lastmod", e.BadLastMod).Msg(msg)
		return
	}
	r.d.Log.Warn().Str("uri", e.Loc).Str("lastmod", e.BadLastMod).Msg(msg)
}

// listAt reports an at of the list that cannot be the baseline point: to
// the caller, when it takes conditions (the same list says so on every
// run), else as a warning.
func (r *run) listAt(msg string) {
	if c := r.opts.Condition; c != nil {
		c(transfer.ConditionListAt, r.set.doc(), msg)
		r.d.Log.Debug().Str("uri", r.set.doc()).Msg(msg)
		return
	}
	r.d.Log.Warn().Str("uri", r.set.doc()).Msg(msg)
}
