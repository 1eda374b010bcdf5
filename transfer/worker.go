package transfer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// NoDeleteNote is recorded with a deletion that was not applied.
const NoDeleteNote = "deleted at the Source; the local copy was kept (no --delete)"

// result is a worker's report to the writer.
type result struct {
	u       *Unit
	outcome Outcome
	held    *resourcesync.Held // new or refreshed record to store; nil if none
	ticket  string             // staged file to publish before held is recorded
	removed bool               // the set no longer holds the URI
	// replaces is the twin whose record this unit's takes over (adopt),
	// dropped when the unit's record is made.
	replaces string
	bytes    int64
	// mirrorBytes are the bytes fetched from a mirror of the Source (of
	// bytes); mirrorFailures the mirrors that failed before.
	mirrorBytes    int64
	mirrorFailures int
	// patched: the copy held was patched (with patchBytes of patch);
	// patchFailed: a patch was tried and did not serve.
	patched     bool
	patchBytes  int64
	patchFailed bool
	cause       error  // for Failed and Skipped
	note        string // recorded with the unit's changes
	// conditional says that the unit is fetched only if the Source says
	// it changed, as nothing the list gives tells (a dry run's plan
	// counts those apart).
	conditional bool
}

type worker struct {
	e *engine
}

// chain applies u, then each unit the dispatcher hands this worker after
// it (those of the same path), and sends their results to the writer. It
// returns an error only when the whole run must stop.
func (w *worker) chain(ctx context.Context, u *Unit, items chan<- Item) error {
	for ; u != nil; u = w.e.disp.done(u) {
		if w.e.o.Drain.Err() != nil {
			u.release() // stop starting new transfers; drain the queue
			continue
		}
		res, err := w.process(ctx, u)
		u.release()
		if err != nil {
			return err // the units waiting behind u are dropped by the engine
		}
		w.e.claims.settle(res, w.freed(res))
		select {
		case items <- w.e.item(res):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// process brings one unit in step. It returns an error only when the whole
// run must stop (local disk, state, cancellation, the Source down).
func (w *worker) process(ctx context.Context, u *Unit) (result, error) {
	res := result{u: u}
	if err := w.e.o.leftOut(u); err != nil {
		// Before a deletion too: what the user left out is not touched.
		res.outcome, res.cause, res.note = Skipped, err, err.Error()
		return res, nil
	}
	if err := w.keepMementos(ctx, u); err != nil {
		if Fatal(err) {
			return res, err
		}
		res.outcome, res.cause = Failed, err
		return res, nil
	}
	switch {
	case u.Settled:
		return res, nil // superseded by a change already applied
	case u.Gone && u.PathErr != nil:
		res.outcome, res.cause = Failed, u.PathErr
		return res, nil
	case u.Gone:
		return w.delete(ctx, res)
	}
	if err := w.e.o.Scope.Check(u.URI); err != nil {
		res.outcome, res.cause, res.note = Skipped, err, err.Error()
		return res, nil
	}
	if u.PathErr != nil {
		res.outcome, res.cause = Failed, u.PathErr
		return res, nil
	}
	if done, err := w.e.claims.check(u); err != nil || done != nil {
		// A twin of the path's owner fails; a copy of a URI this run
		// already brought to the wanted version is in step.
		res.outcome, res.cause = Unchanged, err
		if err != nil {
			res.outcome = Failed
		}
		return res, nil
	}
	adopted := w.adopt(u)
	d, err := w.decide(u)
	if err != nil {
		return res, err
	}
	res.outcome, res.held = d.outcome, d.refresh
	res.conditional = d.conditional && !knownChanged(u.Held.Version(), u.Want)
	if adopted {
		res.replaces = u.Twin
		if res.held == nil && d.outcome == Unchanged {
			res.held = u.Held // the record moves to this URI
		}
	}
	if d.outcome == Unchanged || w.e.o.DryRun {
		res.held = u.withLinks(res.held)
		return res, nil
	}
	res, err = w.fetch(ctx, res, d.conditional)
	res.held = u.withLinks(res.held)
	return res, err
}

// adopt makes a unit whose URI the set does not hold, but a twin of which
// it does, take over the twin's file: judged by the twin's record, as a
// copy of its own - so a file the Source now names by another spelling
// (http to https) is not fetched again when it is unchanged.
func (w *worker) adopt(u *Unit) bool {
	if u.Held != nil || u.TwinHeld == nil {
		return false
	}
	h := *u.TwinHeld
	h.URI = u.URI
	u.Held = &h
	return true
}

// decision is what a unit that must be present needs.
type decision struct {
	outcome     Outcome            // Unchanged, else Created or Updated: fetch
	refresh     *resourcesync.Held // Unchanged, but the record should say so (lastmod, path)
	conditional bool               // ask the Source whether it changed (ETag / Last-Modified)
}

// decide compares what is wanted with what is held, without fetching:
// the copy is in step when the state's record is of the file at the path
// (same length) and of the version wanted (resourcesync.InStep); with
// Rehash the local bytes are compared instead of the record. A copy not
// known to be in step is fetched, conditionally when Revalidate asks and
// its validators are known.
func (w *worker) decide(u *Unit) (decision, error) {
	if w.e.fresh(u) {
		return decision{outcome: Created}, nil
	}
	info, err := w.e.d.Mirror.Stat(u.Path)
	exists := err == nil && info.Mode().IsRegular()
	if err != nil && !missing(err) {
		return decision{}, fmt.Errorf("stat %s: %w: %w", u.Path, resourcesync.ErrLocal, err)
	}
	d := decision{outcome: Created}
	if exists {
		d.outcome = Updated
	}
	held := u.Held
	if held == nil || !exists {
		return d, nil
	}
	if u.Rehash {
		return w.decideByContent(u, d)
	}
	if held.Path != u.Path || info.Size() != held.Length {
		return d, nil // the file is not the one recorded: fetch
	}
	if u.Wanted && resourcesync.InStep(held.Version(), u.Want) {
		d.outcome = Unchanged
		if !u.Want.LastMod.Equal(held.LastMod) || !resourcesync.SameLinks(held.Links, u.links()) {
			h := *held
			h.LastMod = u.Want.LastMod
			d.refresh = &h
		}
		return d, nil
	}
	d.conditional = u.Revalidate && (held.ETag != "" || held.LastModified != "")
	return d, nil
}

// knownChanged reports whether what the list says of a version tells for
// certain that the copy held is another: another length, or a digest of a
// shared algorithm that differs. Else only the Source can tell (a
// conditional GET).
func knownChanged(held, want resourcesync.Version) bool {
	return want.HasLength && held.HasLength && want.Length != held.Length ||
		want.Fixity.Shares(held.Fixity) && !want.Fixity.Agrees(held.Fixity)
}

// decideByContent is --checksum: the local bytes, not the state, are
// compared with the Source's hash (or, when the Source gives none, with the
// digest recorded when the copy was made).
func (w *worker) decideByContent(u *Unit, d decision) (decision, error) {
	held := u.Held
	want := u.Want.Fixity
	if !want.Verifiable() {
		want = held.Fixity
	}
	if !want.Verifiable() {
		return d, nil // nothing to compare with: fetch
	}
	algs := make([]string, 0, len(want))
	for _, dg := range want {
		algs = append(algs, dg.Alg)
	}
	sums, n, err := w.e.d.Mirror.HashFile(u.Path, algs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return d, nil
		}
		return d, fmt.Errorf("hash %s: %w: %w", u.Path, resourcesync.ErrLocal, err)
	}
	if u.Want.HasLength && n != u.Want.Length {
		return d, nil
	}
	if !sums.Agrees(want) || held.Path != u.Path {
		return d, nil
	}
	d.outcome = Unchanged
	if !u.Want.LastMod.Equal(held.LastMod) || held.Length != n || !resourcesync.SameLinks(held.Links, u.links()) {
		h := *held
		h.LastMod, h.Length = u.Want.LastMod, n
		d.refresh = &h
	}
	return d, nil
}

// delete removes the local copy of a resource gone at the Source when
// deletions are asked for, else keeps it and says so. A file another set
// holds is never removed, nor one this set never fetched.
func (w *worker) delete(ctx context.Context, res result) (result, error) {
	e, u := w.e, res.u
	if !e.o.DryRun {
		// A download an earlier run kept for the resource is no longer
		// wanted, whatever becomes of the copy held.
		if err := e.d.Mirror.DropPartial(u.Path); err != nil {
			e.d.Log.Warn().Str("uri", u.URI).Err(err).Msg("cannot remove a partial download")
		}
	}
	exists, err := w.regular(u.Path)
	if err != nil {
		return res, err
	}
	if !e.o.Delete {
		if u.Held != nil || exists {
			res.outcome, res.note = Kept, NoDeleteNote
		}
		return res, nil
	}
	res.removed = u.Held != nil
	if !exists {
		return res, nil // nothing on disk: the record (if any) goes
	}
	others, err := e.othersHold(ctx)
	if err != nil {
		return res, err
	}
	var holders []int64 // of another set's file: only another set can keep it
	if others {
		if holders, err = e.d.Store.PathHolders(ctx, u.Path); err != nil {
			return res, fmt.Errorf("look up the holders of %s: %w: %w", u.Path, resourcesync.ErrLocal, err)
		}
	}
	held := u.Held != nil || u.Twin != ""
	if !held && e.o.Scope.Check(u.URI) != nil {
		return res, nil // a file this set never fetched, of another host
	}
	var tree resourcesync.Tree
	if !held {
		if tree, err = e.setTree(ctx); err != nil {
			return res, err
		}
	}
	if !MayRemove(e.job.SetID, holders, held, tree, u.Path) {
		return res, nil // another set's file, or one outside the set's tree
	}
	res.outcome = Deleted
	if e.o.DryRun {
		return res, nil
	}
	if ok, err := w.keptOrFailed(ctx, &res); !ok {
		res.removed = false
		return res, err
	}
	if err := e.d.Mirror.Remove(u.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		err = Classify(ctx, fmt.Errorf("delete %s: %w", u.Path, err))
		if Fatal(err) {
			return res, err
		}
		res.outcome, res.cause, res.removed = Failed, err, false
	}
	return res, nil
}

// freed reports whether a unit gone at the Source left its set holding
// nothing at its path: its record (or its twin's) was dropped.
func (w *worker) freed(res result) bool {
	u := res.u
	return u.Gone && w.e.o.Delete && res.outcome != Failed && (u.Held != nil || u.Twin != "")
}

// regular reports whether a regular file is at rel.
func (w *worker) regular(rel string) (bool, error) {
	info, err := w.e.d.Mirror.Stat(rel)
	switch {
	case err == nil:
		return info.Mode().IsRegular(), nil
	case missing(err):
		return false, nil
	}
	return false, fmt.Errorf("stat %s: %w: %w", rel, resourcesync.ErrLocal, err)
}

// missing reports whether a stat error says there is no file.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
