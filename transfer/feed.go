package transfer

import (
	"context"
	"fmt"
	"sync"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// lookupBatch is how many units the feed gathers before it asks the state
// what is held of them, in one query (Store.HeldMany): one point lookup
// per resource cost about a tenth of a first baseline's time.
const lookupBatch = 100

// Feed is how a planner hands the engine its units. Its methods are for
// the planner's goroutine (the one running Planner.Units).
type Feed struct {
	e       *engine
	ctx     context.Context
	pending []*Unit
}

// Emit hands over one unit. Units are looked up in the state and mapped in
// batches, then go to the workers; Emit blocks while the workers are busy.
// It returns ErrDrained once the run was asked to stop (the unit is then
// dropped: its origins are released), a local fault (wrapping
// resourcesync.ErrLocal) when the state cannot be read, or ctx's error.
func (f *Feed) Emit(u *Unit) error {
	if f.e.o.Drain.Err() != nil {
		u.release()
		return ErrDrained
	}
	f.e.o.Progress.Listed()
	f.pending = append(f.pending, u)
	if len(f.pending) < lookupBatch {
		return nil
	}
	return f.flush()
}

// Draining reports whether the run was asked to stop taking new work.
func (f *Feed) Draining() bool { return f.e.o.Drain.Err() != nil }

// Breaker is the run's breaker, for what the planner fetches from the
// Source itself.
func (f *Feed) Breaker() *Breaker { return f.e.job.Breaker }

// Needed reports whether any of units would have its bytes fetched, as a
// worker would decide it now, without fetching anything: a dump package
// whose every entry is in step need not be downloaded. The error is
// fatal (the state or the mirror cannot be read).
func (f *Feed) Needed(ctx context.Context, units []*Unit) (bool, error) {
	if err := f.e.prepare(ctx, units); err != nil {
		return false, err
	}
	w := &worker{e: f.e}
	for _, u := range units {
		if u.PathErr != nil || f.e.o.Scope.Check(u.URI) != nil || f.e.o.leftOut(u) != nil {
			continue
		}
		d, err := w.decide(u)
		if err != nil {
			return false, err
		}
		if d.outcome != Unchanged {
			return true, nil
		}
	}
	return false, nil
}

// flush prepares the pending units and dispatches them.
func (f *Feed) flush() error {
	batch := f.pending
	f.pending = f.pending[len(f.pending):]
	if len(batch) == 0 {
		return nil
	}
	f.e.mapPaths(batch)
	f.e.claims.open(batch)
	err := f.e.prepare(f.ctx, batch)
	if err == nil {
		err = f.e.forgetGone(f.ctx, batch)
	}
	for i, u := range batch {
		if err == nil {
			err = f.e.disp.send(f.ctx, u)
			if err == nil {
				continue
			}
		}
		for _, u := range batch[i:] {
			u.release()
		}
		break
	}
	clear(batch)
	f.pending = batch[:0]
	return err
}

// dropPending releases the units a stopped run never dispatched.
func (f *Feed) dropPending() {
	for _, u := range f.pending {
		u.release()
	}
	f.pending = nil
}

// prepare maps each unit into the mirror and looks up, in one query, what
// the state holds of them.
func (e *engine) prepare(ctx context.Context, units []*Unit) error {
	e.mapPaths(units)
	uris := make([]string, len(units))
	for i, u := range units {
		uris[i] = u.URI
	}
	held, err := e.d.Store.HeldMany(ctx, e.job.SetID, uris)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("look up %d resources in the state: %w: %w", len(uris), resourcesync.ErrLocal, err)
	}
	var free []string // paths of units whose URI the set does not hold
	for _, u := range units {
		if h, ok := held[u.URI]; ok {
			u.Held = &h
		} else if u.Path != "" {
			free = append(free, u.Path)
		}
	}
	if len(free) == 0 {
		return nil
	}
	owners, err := e.d.Store.PathOwners(ctx, e.job.SetID, free)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("look up the owners of %d paths in the state: %w: %w", len(free), resourcesync.ErrLocal, err)
	}
	var twins []string
	for _, u := range units {
		if u.Held == nil {
			u.Twin = owners[u.Path] // never u.URI: HeldMany would have found it
		}
		if u.Twin != "" {
			twins = append(twins, u.Twin)
		}
	}
	if len(twins) == 0 {
		return nil
	}
	held, err = e.d.Store.HeldMany(ctx, e.job.SetID, twins)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("look up %d resources in the state: %w: %w", len(twins), resourcesync.ErrLocal, err)
	}
	for _, u := range units {
		if h, ok := held[u.Twin]; ok && u.Twin != "" {
			u.TwinHeld = &h
		}
	}
	return nil
}

// mapPaths maps each unit into the mirror, once.
func (e *engine) mapPaths(units []*Unit) {
	for _, u := range units {
		if u.Path == "" && u.PathErr == nil {
			u.Path, u.PathErr = e.d.Mirror.Path(u.URI)
		}
	}
}

// forgetGone records, before any of their files is removed, that the set
// no longer holds the resources of units that end in a deletion: so the
// state never claims a file the disk lost, whenever the run stops. A
// deletion through a twin spelling forgets the URI the set holds at the
// path: whatever removes a file removes every record of it. A run
// killed before removing a file finds it again next time as a file at the
// path of a deleted resource that no set holds, and removes it then.
func (e *engine) forgetGone(ctx context.Context, units []*Unit) error {
	if !e.o.Delete || e.o.DryRun {
		return nil
	}
	var b resourcesync.Batch
	for _, u := range units {
		if !u.Gone || u.Settled || u.PathErr != nil || e.o.leftOut(u) != nil {
			continue // a URI left out keeps its record and its file
		}
		if e.forgets(u) {
			b.Removed = append(b.Removed, u.URI)
		}
		if u.Twin != "" {
			b.Removed = append(b.Removed, u.Twin)
		}
	}
	if b.Empty() {
		return nil
	}
	if err := e.d.Store.Commit(ctx, e.job.SetID, &b); err != nil {
		return fmt.Errorf("record the resources to delete: %w: %w", resourcesync.ErrLocal, err)
	}
	return nil
}

// forgets reports whether forgetGone forgets u's URI before its file is
// removed: the writer need not forget it again.
func (e *engine) forgets(u *Unit) bool {
	return e.o.Delete && !e.o.DryRun && u.Gone && !u.Settled && u.PathErr == nil && u.Held != nil
}

// dispatcher hands units to the workers so that units mapping to one path
// are applied one at a time, in the order they were emitted: a unit whose
// path is busy waits behind the one in flight, and the worker that
// finishes that one takes it next. Two URIs that share a file (http and
// https) never race. A window bounds the units in flight or waiting.
type dispatcher struct {
	units  chan<- *Unit
	window chan struct{}
	mu     sync.Mutex
	busy   map[string][]*Unit // path -> units waiting behind the one in flight
}

func newDispatcher(units chan<- *Unit, window int) *dispatcher {
	return &dispatcher{units: units, window: make(chan struct{}, window), busy: map[string][]*Unit{}}
}

// send dispatches u, waiting for room in the window.
func (d *dispatcher) send(ctx context.Context, u *Unit) error {
	select {
	case d.window <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	if u.Path != "" {
		d.mu.Lock()
		if q, ok := d.busy[u.Path]; ok {
			d.busy[u.Path] = append(q, u)
			d.mu.Unlock()
			return nil
		}
		d.busy[u.Path] = nil
		d.mu.Unlock()
	}
	select {
	case d.units <- u:
		return nil
	case <-ctx.Done():
		// The path must not stay busy: the units behind u are dropped too.
		for next := d.done(u); next != nil; next = d.done(next) {
			next.release()
		}
		return ctx.Err()
	}
}

// done is called once a worker is through with u; it returns the next unit
// of u's path, which the same worker must take, or nil.
func (d *dispatcher) done(u *Unit) *Unit {
	<-d.window
	return d.finish(u)
}

func (d *dispatcher) finish(u *Unit) *Unit {
	if u.Path == "" {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	q := d.busy[u.Path]
	if len(q) == 0 {
		delete(d.busy, u.Path)
		return nil
	}
	d.busy[u.Path] = q[1:]
	return q[0]
}

// drop releases a unit that will not be applied, and those waiting behind
// it.
func (d *dispatcher) drop(u *Unit) {
	for ; u != nil; u = d.done(u) {
		u.release()
	}
}

// dropWaiting releases every unit still waiting for its path.
func (d *dispatcher) dropWaiting() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for p, q := range d.busy {
		for _, u := range q {
			u.release()
		}
		delete(d.busy, p)
	}
}
