package baseline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// result is a worker's report to the writer.
type result struct {
	uri     string
	path    string // "" when the URI could not be mapped
	entry   *resourcesync.Entry
	outcome transfer.Outcome
	held    *resourcesync.Held // new or refreshed record to store; nil if none
	ticket  string             // staged file to publish before held is recorded
	bytes   int64
	cause   error // for transfer.Failed and transfer.Skipped
}

type worker struct {
	run *run
}

// process decides what one entry needs and does it. It returns an error
// only when the whole run must stop (local disk, state, cancellation).
func (w *worker) process(ctx context.Context, j job) (result, error) {
	res, prev, d, err := w.assess(ctx, j.entry, j.looked, j.prev)
	if err != nil || (res.outcome != transfer.Created && res.outcome != transfer.Updated) || w.run.opts.DryRun {
		return res, err
	}
	return w.fetch(ctx, res, prev, d.conditional, j.member)
}

// assess maps an entry and decides, without fetching anything, what it
// needs: the result's outcome is transfer.Created or transfer.Updated when its bytes
// must be fetched. When looked is set, prev is what the state holds of the
// entry (nil: nothing), already looked up; otherwise assess looks it up.
// The error is fatal, as process's.
func (w *worker) assess(ctx context.Context, e *resourcesync.Entry, looked bool, prev *resourcesync.Held) (result, *resourcesync.Held, decision, error) {
	r := w.run
	res := result{uri: e.Loc, entry: e}
	if err := r.opts.Scope.Check(e.Loc); err != nil {
		res.outcome, res.cause = transfer.Skipped, err
		return res, nil, decision{}, nil
	}
	rel, err := r.d.Mirror.Path(e.Loc)
	if err != nil {
		res.outcome, res.cause = transfer.Failed, err
		return res, nil, decision{}, nil
	}
	res.path = rel
	if !looked {
		held, ok, err := r.d.Store.Held(ctx, r.set.ID, e.Loc)
		if err != nil {
			return res, nil, decision{}, fmt.Errorf("look up %s in the state: %w: %w", e.Loc, resourcesync.ErrLocal, err)
		}
		if ok {
			prev = &held
		}
	}
	d, err := w.decide(e, rel, prev)
	if err != nil {
		return res, prev, d, err
	}
	if d.unchanged {
		res.outcome = transfer.Unchanged
		if prev != nil && d.refresh {
			h := *prev
			h.Path, h.LastMod = rel, e.LastMod
			res.held = &h
		}
		return res, prev, d, nil
	}
	res.outcome = transfer.Created
	if d.replacing {
		res.outcome = transfer.Updated
	}
	return res, prev, d, nil
}

// decision is what a listed entry needs.
type decision struct {
	unchanged   bool // the local copy is in step
	refresh     bool // ...but its record should be updated (lastmod, path)
	replacing   bool // a local file exists at the path
	conditional bool // ask the Source whether it changed (ETag / Last-Modified)
}

// decide compares the entry with what is held, in the order the issue
// gives: same hash; else same length and lastmod; else a conditional GET.
// With Checksum the local file is re-hashed instead of trusting the state.
func (w *worker) decide(e *resourcesync.Entry, rel string, held *resourcesync.Held) (decision, error) {
	r := w.run
	info, err := r.d.Mirror.Stat(rel)
	exists := err == nil && info.Mode().IsRegular()
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return decision{}, fmt.Errorf("stat %s: %w: %w", rel, resourcesync.ErrLocal, err)
	}
	d := decision{replacing: exists}
	if held == nil || !exists {
		return d, nil
	}
	listed := e.MD.Hash
	if r.opts.Checksum {
		return w.decideByContent(e, rel, held, d)
	}
	if held.Path != rel || info.Size() != held.Length {
		return d, nil // the file is not the one recorded: fetch
	}
	if e.MD.HasLength && e.MD.Length != held.Length {
		return d, nil
	}
	switch {
	case listed.Verifiable() && sharesAlg(listed, held.Fixity):
		d.unchanged = held.Fixity.Agrees(listed)
	case !e.LastMod.IsZero() && !held.LastMod.IsZero():
		d.unchanged = e.LastMod.Equal(held.LastMod)
	}
	if d.unchanged {
		d.refresh = !e.LastMod.Equal(held.LastMod)
		return d, nil
	}
	d.conditional = held.ETag != "" || held.LastModified != ""
	return d, nil
}

// decideByContent is --checksum: the local bytes, not the state, are
// compared with the Source's hash (or, when the Source gives none, with the
// digest recorded when the copy was made).
func (w *worker) decideByContent(e *resourcesync.Entry, rel string, held *resourcesync.Held, d decision) (decision, error) {
	want := e.MD.Hash
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
	sums, n, err := w.run.d.Mirror.HashFile(rel, algs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return d, nil
		}
		return d, fmt.Errorf("hash %s: %w: %w", rel, resourcesync.ErrLocal, err)
	}
	if e.MD.HasLength && n != e.MD.Length {
		return d, nil
	}
	d.unchanged = sums.Agrees(want) && held.Path == rel
	d.refresh = d.unchanged && (!e.LastMod.Equal(held.LastMod) || held.Length != n)
	return d, nil
}

func sharesAlg(a, b resourcesync.Fixity) bool {
	for _, d := range a {
		if _, ok := b.Get(d.Alg); ok {
			return true
		}
	}
	return false
}

// fetch brings the entry into the mirror as a staged file; the writer
// publishes and records it. With a dump member the bytes come out of its
// package instead of from the Source.
func (w *worker) fetch(ctx context.Context, res result, prev *resourcesync.Held, conditional bool, member *dumpzip.Member) (result, error) {
	r, e := w.run, res.entry
	var from transfer.Fetcher = r.d.Fetcher
	if member != nil {
		from, conditional = member, false
	}
	got, err := transfer.Get(ctx, from, r.d.Mirror, transfer.Request{
		URI: e.Loc, Path: res.path, Hash: e.MD.Hash, Length: e.MD.Length, HasLen: e.MD.HasLength,
		LastMod: e.LastMod, Prev: prev, Conditional: conditional, LocalAlgs: r.opts.LocalAlgs, Now: r.opts.Now(),
	})
	if err != nil {
		if transfer.Fatal(err) {
			return res, err
		}
		if member == nil { // a package's faults say nothing about the Source
			if berr := r.breaker.Note(e.Loc, err); berr != nil {
				return res, berr
			}
		}
		res.outcome, res.cause = transfer.Failed, err
		return res, nil
	}
	if member == nil {
		_ = r.breaker.Note(e.Loc, nil)
	}
	res.ticket, res.bytes = got.Ticket, got.Bytes
	res.held = &got.Held
	if got.Ticket == "" { // 304: the copy held is current
		res.outcome = transfer.Unchanged
	}
	return res, nil
}
