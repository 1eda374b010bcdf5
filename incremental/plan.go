package incremental

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// unit is the work for one resource: bring it to the state of its final
// change in the history, and record every change of it not yet recorded.
type unit struct {
	uri     string
	path    string // mirror-relative; "" when the URI cannot be mapped
	pathErr error
	// final is the resource's last change in the history; nil for a
	// resource retried only because an earlier run failed it.
	final   *change
	pending []int // indexes in history.changes of the changes to record
	// settled: the final change was already applied by an earlier run, so
	// the pending (earlier) changes are superseded and need no work.
	settled bool
	retry   bool // an earlier run recorded a failure of this resource
	// held is the state's record, looked up while planning deletions.
	held   *resourcesync.Held
	heldOK bool
}

// deletes reports whether the unit ends in a deletion.
func (u *unit) deletes() bool {
	return u.final != nil && u.final.kind == resourcesync.ChangeDeleted && !u.settled
}

// job is the units whose resources map to one path, applied in order by
// one worker: two URIs that share a file (http and https) never race.
type job []*unit

// plan is a run's work, in the order it is fed to the workers: retried
// failures first, then by the first pending change.
type plan struct {
	jobs  []job
	units int
}

// makePlan turns the history into units (group) and the units into jobs,
// then applies the deletion guard.
func (r *run) makePlan(ctx context.Context, h *history) (*plan, error) {
	failures, err := r.d.Store.Failures(ctx, r.set.ID)
	if err != nil {
		return nil, fmt.Errorf("read the set's failures: %w: %w", resourcesync.ErrLocal, err)
	}
	p := &plan{}
	byPath := map[string]int{}
	for _, u := range group(h, failures) {
		p.units++
		u.path, u.pathErr = r.d.Mirror.Path(u.uri)
		if u.pathErr != nil {
			p.jobs = append(p.jobs, job{u})
			continue
		}
		if i, ok := byPath[u.path]; ok {
			p.jobs[i] = append(p.jobs[i], u)
			continue
		}
		byPath[u.path] = len(p.jobs)
		p.jobs = append(p.jobs, job{u})
	}
	return p, r.guardDeletes(ctx, p)
}

// group makes one unit per resource with a change not yet recorded, plus
// one per resource an earlier run recorded as failed that the history does
// not show gone; retried failures come first, then the units in the order
// of their first pending change.
func group(h *history, failures []resourcesync.Failure) []*unit {
	byURI := map[string]*unit{}
	var order []*unit
	for i := range h.changes {
		c := &h.changes[i]
		u, ok := byURI[c.uri]
		if !ok {
			u = &unit{uri: c.uri}
			byURI[c.uri] = u
		}
		u.final = c
		if !c.done {
			if len(u.pending) == 0 {
				order = append(order, u)
			}
			u.pending = append(u.pending, i)
		}
	}
	var retries []*unit
	for _, f := range failures {
		u, ok := byURI[f.URI]
		switch {
		case ok && len(u.pending) > 0:
			u.retry = true // its changes bring it in step
		case ok && u.final.kind == resourcesync.ChangeDeleted:
			// Gone at the Source: nothing to fetch.
		case ok:
			u.retry = true
			retries = append(retries, u)
		default:
			u = &unit{uri: f.URI, retry: true}
			byURI[f.URI] = u
			retries = append(retries, u)
		}
	}
	for _, u := range order {
		u.settled = u.final.done && !u.retry
	}
	return slices.Concat(retries, order)
}

// guardDeletes refuses, before anything is applied, a run whose deletions
// would remove more of the set's files than --max-delete allows.
func (r *run) guardDeletes(ctx context.Context, p *plan) error {
	if !r.opts.Delete {
		return nil
	}
	var n, untracked int64
	for _, j := range p.jobs {
		for _, u := range j {
			if !u.deletes() || u.pathErr != nil {
				continue
			}
			removes, err := r.wouldRemove(ctx, u)
			if err != nil {
				return err
			}
			if removes {
				n++
				if !u.heldOK {
					untracked++
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	held, err := r.d.Store.HeldCount(ctx, r.set.ID)
	if err != nil {
		return fmt.Errorf("count the set's resources: %w: %w", resourcesync.ErrLocal, err)
	}
	// Files no set holds at the paths of deleted resources are the set's
	// too: a run that recorded their deletion and died before removing
	// them left them (forgetDeleted), and its resume must pass the guard
	// the first run passed.
	total := held + untracked
	if !r.opts.MaxDelete.Allows(n, total) {
		return fmt.Errorf("%w: the changes would delete %d local files of a set of %d, more than --max-delete %s allows; nothing was changed (raise --max-delete if this is intended)",
			resourcesync.ErrSafetyStop, n, total, r.opts.MaxDelete)
	}
	return nil
}

// wouldRemove reports whether deleting u removes a file: one the set holds,
// or one at its path that no set holds (a copy published by a run that
// died before recording it). It remembers the held record in u.
func (r *run) wouldRemove(ctx context.Context, u *unit) (bool, error) {
	held, ok, err := r.d.Store.Held(ctx, r.set.ID, u.uri)
	if err != nil {
		return false, fmt.Errorf("look up %s in the state: %w: %w", u.uri, resourcesync.ErrLocal, err)
	}
	u.held, u.heldOK = &held, ok
	if ok {
		return true, nil
	}
	if r.opts.Scope.Check(u.uri) != nil {
		return false, nil // never fetched, so not ours to remove
	}
	info, err := r.d.Mirror.Stat(u.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return false, nil
		}
		return false, fmt.Errorf("stat %s: %w: %w", u.path, resourcesync.ErrLocal, err)
	}
	if !info.Mode().IsRegular() {
		return false, nil
	}
	holders, err := r.d.Store.PathHolders(ctx, u.path)
	if err != nil {
		return false, fmt.Errorf("look up the holders of %s: %w: %w", u.path, resourcesync.ErrLocal, err)
	}
	return len(holders) == 0, nil
}
