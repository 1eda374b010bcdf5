package incremental

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// noDeleteNote is recorded with a deleted change that was not applied.
const noDeleteNote = "deleted at the Source; the local copy was kept (no --delete)"

// result is a worker's report to the writer.
type result struct {
	u       *unit
	outcome transfer.Outcome
	held    *resourcesync.Held // new or refreshed record; nil if none
	ticket  string             // staged file to publish before held is recorded
	removed bool               // the set no longer holds the URI
	bytes   int64
	cause   error  // for transfer.Failed and transfer.Skipped
	note    string // recorded with the changes
}

type worker struct {
	run *run
}

// process brings one resource to the state of its final change. It
// returns an error only when the whole run must stop (local disk, state,
// cancellation, the Source down).
func (w *worker) process(ctx context.Context, u *unit) (result, error) {
	res := result{u: u}
	switch {
	case u.settled:
		return res, nil // superseded by a change already applied
	case u.pathErr != nil:
		res.outcome, res.cause = transfer.Failed, u.pathErr
		return res, nil
	case u.deletes():
		return w.delete(ctx, res)
	}
	if err := w.run.opts.Scope.Check(u.uri); err != nil {
		res.outcome, res.cause, res.note = transfer.Skipped, err, err.Error()
		return res, nil
	}
	return w.fetch(ctx, res)
}

// delete removes the local copy when deletions are asked for, else keeps
// it and says so. A file another set holds is never removed.
func (w *worker) delete(ctx context.Context, res result) (result, error) {
	r, u := w.run, res.u
	if u.held == nil {
		if _, err := r.wouldRemove(ctx, u); err != nil {
			return res, err
		}
	}
	info, err := w.stat(u.path)
	if err != nil {
		return res, err
	}
	exists := info != nil
	if !r.opts.Delete {
		if u.heldOK || exists {
			res.outcome, res.note = transfer.Kept, noDeleteNote
		}
		return res, nil
	}
	res.removed = u.heldOK
	if !exists {
		return res, nil // nothing on disk: the record (if any) goes
	}
	holders, err := r.d.Store.PathHolders(ctx, u.path)
	if err != nil {
		return res, fmt.Errorf("look up the holders of %s: %w: %w", u.path, resourcesync.ErrLocal, err)
	}
	for _, id := range holders {
		if id != r.set.ID {
			return res, nil // another set's file stays
		}
	}
	if !u.heldOK && r.opts.Scope.Check(u.uri) != nil {
		return res, nil // a file this set never fetched
	}
	res.outcome = transfer.Deleted
	if r.opts.DryRun {
		return res, nil
	}
	if err := r.d.Mirror.Remove(u.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		err = transfer.Classify(ctx, fmt.Errorf("delete %s: %w", u.path, err))
		if transfer.Fatal(err) {
			return res, err
		}
		res.outcome, res.cause, res.removed = transfer.Failed, err, false
	}
	return res, nil
}

// stat describes the regular file at rel; nil when there is none.
func (w *worker) stat(rel string) (fs.FileInfo, error) {
	info, err := w.run.d.Mirror.Stat(rel)
	switch {
	case err == nil:
		if !info.Mode().IsRegular() {
			return nil, nil
		}
		return info, nil
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return nil, nil
	}
	return nil, fmt.Errorf("stat %s: %w: %w", rel, resourcesync.ErrLocal, err)
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// fetch brings the resource's final version into the mirror as a staged
// file, unless the copy held is already that version.
func (w *worker) fetch(ctx context.Context, res result) (result, error) {
	r, u := w.run, res.u
	held, ok, err := r.d.Store.Held(ctx, r.set.ID, u.uri)
	if err != nil {
		return res, fmt.Errorf("look up %s in the state: %w: %w", u.uri, resourcesync.ErrLocal, err)
	}
	info, err := w.stat(u.path)
	if err != nil {
		return res, err
	}
	var prev *resourcesync.Held
	if ok {
		prev = &held
	}
	req := transfer.Request{URI: u.uri, Path: u.path, Prev: prev, LocalAlgs: r.opts.LocalAlgs, Now: r.opts.Now()}
	if f := u.final; f != nil {
		req.Hash, req.Length, req.HasLen, req.LastMod = f.hash, f.length, f.hasLen, f.lastmod
		if ok && info != nil && info.Size() == held.Length && inStep(f, &held, u.path) {
			res.outcome = transfer.Unchanged
			if !f.lastmod.Equal(held.LastMod) {
				h := held
				h.LastMod = f.lastmod
				res.held = &h
			}
			return res, nil
		}
	} else if prev != nil {
		// A retry knows nothing of the version wanted: ask whether the copy
		// held is still current, and keep its lastmod if so.
		req.Conditional, req.LastMod = true, held.LastMod
	}
	res.outcome = transfer.Created
	if info != nil {
		res.outcome = transfer.Updated
	}
	if r.opts.DryRun {
		return res, nil
	}
	from, fromPackage, err := w.source(ctx, u)
	if err != nil {
		if transfer.Fatal(err) {
			return res, err
		}
		res.outcome, res.cause = transfer.Failed, err
		return res, nil
	}
	got, err := transfer.Get(ctx, from, r.d.Mirror, req)
	if err != nil {
		if transfer.Fatal(err) {
			return res, err
		}
		if !fromPackage { // a package's faults say nothing about the Source
			if berr := r.breaker.Note(u.uri, err); berr != nil {
				return res, berr
			}
		}
		res.outcome, res.cause = transfer.Failed, err
		return res, nil
	}
	if !fromPackage {
		_ = r.breaker.Note(u.uri, nil)
	}
	res.ticket, res.bytes, res.held = got.Ticket, got.Bytes, &got.Held
	if got.Ticket == "" { // 304: the copy held is current
		res.outcome = transfer.Unchanged
	}
	return res, nil
}

// source is where the unit's bytes come from: the bitstream of its final
// change in its Change Dump package, or the Source - for a Change List, a
// retried failure, or a package that cannot be used. An error is fatal
// (transfer.Fatal) or concerns this resource alone.
func (w *worker) source(ctx context.Context, u *unit) (transfer.Fetcher, bool, error) {
	r := w.run
	if u.final == nil || r.hist.lists[u.final.list].pkg == nil {
		return r.d.Fetcher, false, nil
	}
	m, err := r.member(ctx, u.final)
	switch {
	case err == nil:
		return m, true, nil
	case errors.Is(err, errNoPackage):
		return r.d.Fetcher, false, nil
	}
	return nil, false, transfer.Classify(ctx, err)
}

// inStep reports whether the copy held is the version the change
// describes: same length and, by preference, the same digest; else the
// same lastmod.
func inStep(c *change, held *resourcesync.Held, rel string) bool {
	if held.Path != rel || (c.hasLen && c.length != held.Length) {
		return false
	}
	if c.hash.Verifiable() && sharesAlg(c.hash, held.Fixity) {
		return held.Fixity.Agrees(c.hash)
	}
	return !c.lastmod.IsZero() && c.lastmod.Equal(held.LastMod)
}

func sharesAlg(a, b resourcesync.Fixity) bool {
	for _, d := range a {
		if _, ok := b.Get(d.Alg); ok {
			return true
		}
	}
	return false
}
