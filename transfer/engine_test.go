package transfer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// planner is a Planner that emits a fixed list of units and records what
// became of them.
type planner struct {
	units    []*transfer.Unit
	mu       sync.Mutex
	recorded []transfer.Result
	err      error // returned after the units
}

func (p *planner) Units(_ context.Context, f *transfer.Feed) error {
	for i, u := range p.units {
		if err := f.Emit(u); err != nil {
			for _, rest := range p.units[i+1:] {
				for _, o := range rest.Origins {
					o.Release() // never handed over: the planner's to release
				}
			}
			return err
		}
	}
	return p.err
}

func (p *planner) Recorded(r transfer.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.recorded = append(p.recorded, r)
}

func (p *planner) BeforeCommit(*resourcesync.Batch) {}

// engineHarness runs the engine over the real adapters and a fixture
// Source whose resources answer slowly enough for units to overlap.
type engineHarness struct {
	*desttest.Harness
	counts resourcesync.Counts
	store  transfer.Store // the state the engine is given; nil: h.DB
}

func newEngineHarness(t *testing.T) *engineHarness {
	spec := fixtures.DefaultSpec()
	spec.Resources = 30
	h := &engineHarness{Harness: desttest.NewHarness(t, spec)}
	h.Open(false)
	h.Src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 2 * time.Millisecond})
	return h
}

func (h *engineHarness) run(p *planner, m transfer.Mirror, mod func(*transfer.RunOptions)) error {
	o := transfer.DefaultRunOptions()
	o.Scope, o.Workers, o.BatchSize = h.Scope(), 8, 4
	if mod != nil {
		mod(&o)
	}
	o = o.WithDefaults()
	var would int64
	var failures []resourcesync.Failure
	tally := transfer.NewTally(o, zerolog.Nop(), &h.counts, &would, &failures)
	if m == nil {
		m = h.Mirror
	}
	var store transfer.Store = h.DB
	if h.store != nil {
		store = h.store
	}
	d := transfer.Deps{Fetcher: h.Client, Mirror: m, Store: store, Log: zerolog.Nop()}
	return transfer.Run(context.Background(), transfer.Job{SetID: h.SetID, Planner: p, Tally: tally}, d, o)
}

// unit wants resource r as the Source describes it, with a lastmod of its
// own (which the file's mtime shows).
func unit(r fixtures.ResourceInfo, lastmod time.Time) *transfer.Unit {
	return &transfer.Unit{URI: r.URI, Wanted: true,
		Want: resourcesync.Version{Fixity: r.Fixity, Length: r.Size, HasLength: true, LastMod: lastmod}}
}

// overlapMirror fails the test when two writes of one path overlap.
type overlapMirror struct {
	transfer.Mirror
	t      *testing.T
	mu     sync.Mutex
	active map[string]bool
	puts   atomic.Int64
}

func (m *overlapMirror) Put(rel string, mtime time.Time, fill func(resourcesync.Sink) (bool, error)) (string, error) {
	m.mu.Lock()
	if m.active[rel] {
		m.t.Errorf("two writes of %s at once", rel)
	}
	m.active[rel] = true
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.active, rel)
		m.mu.Unlock()
	}()
	m.puts.Add(1)
	return m.Mirror.Put(rel, mtime, fill)
}

// Units of one path are applied one at a time, in the order they were
// emitted: the version written last is the last one emitted.
func TestEngineAppliesAPathsUnitsInOrder(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)[:10]
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var units []*transfer.Unit
	for v := range 3 {
		for i, r := range rs {
			units = append(units, unit(r, base.Add(time.Duration(10*i+v)*time.Hour)))
		}
	}
	p := &planner{units: units}
	m := &overlapMirror{Mirror: h.Mirror, t: t, active: map[string]bool{}}
	if err := h.run(p, m, nil); err != nil {
		t.Fatal(err)
	}
	if len(p.recorded) != len(units) || h.counts.Listed != int64(len(units)) {
		t.Errorf("%d results recorded, counts %+v; want %d", len(p.recorded), h.counts, len(units))
	}
	for i, r := range rs {
		info, err := os.Stat(h.PathOf(r.URI))
		if err != nil {
			t.Fatal(err)
		}
		if want := base.Add(time.Duration(10*i+2) * time.Hour); !info.ModTime().Equal(want) {
			t.Errorf("%s: mtime %v, want the last unit's lastmod %v", r.URI, info.ModTime(), want)
		}
		if held, ok, err := h.DB.Held(context.Background(), h.SetID, r.URI); err != nil || !ok || !held.LastMod.Equal(info.ModTime()) {
			t.Errorf("%s: the state holds %+v (%v %v), the disk a file of %v", r.URI, held, ok, err, info.ModTime())
		}
	}
}

// origin is an Origin that serves the unit's bytes from the Source, or
// fails.
type origin struct {
	f        transfer.Fetcher
	err      error
	released *atomic.Int64
}

func (o origin) Open(context.Context) (transfer.Fetcher, error) { return o.f, o.err }
func (o origin) Release()                                       { o.released.Add(1) }

// A unit's origins come before the Source: an unusable one hands over to
// the next (the Source last), any other error fails the unit alone. Every
// origin is released once, applied or not.
func TestEngineOrigins(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)
	var released atomic.Int64
	broken := errors.New("member broken")
	unusable := fmt.Errorf("package gone: %w", transfer.ErrUnusable)
	p := &planner{}
	for i, r := range rs[:9] {
		u := unit(r, r.LastMod)
		switch i % 3 {
		case 0: // served by the origin
			u.Origins = []transfer.Origin{origin{f: h.Client, released: &released}}
		case 1: // unusable: the Source serves it
			u.Origins = []transfer.Origin{origin{err: unusable, released: &released}, origin{err: unusable, released: &released}}
		case 2: // the unit fails
			u.Origins = []transfer.Origin{origin{err: broken, released: &released}}
		}
		p.units = append(p.units, u)
	}
	if err := h.run(p, nil, nil); err != nil {
		t.Fatal(err)
	}
	if h.counts.Created != 6 || h.counts.Failed != 3 || released.Load() != 12 {
		t.Errorf("counts %+v, %d origins released; want 6 created, 3 failed, 12 released", h.counts, released.Load())
	}
	for _, r := range p.recorded {
		if r.Outcome == transfer.Failed && !errors.Is(r.Cause, broken) {
			t.Errorf("%s failed for %v", r.Unit.URI, r.Cause)
		}
	}

	// A run stopped before it began releases the origins of every unit
	// it took.
	released.Store(0)
	drain, stop := context.WithCancel(context.Background())
	stop()
	p = &planner{}
	for _, r := range rs[10:20] {
		u := unit(r, r.LastMod)
		u.Origins = []transfer.Origin{origin{f: h.Client, released: &released}}
		p.units = append(p.units, u)
	}
	err := h.run(p, nil, func(o *transfer.RunOptions) { o.Drain = drain })
	if !errors.Is(err, transfer.ErrDrained) || released.Load() != 10 || len(p.recorded) != 0 {
		t.Errorf("drained: %v, %d released, %d recorded", err, released.Load(), len(p.recorded))
	}
}

// removeOrder records what the state holds of a URI when the mirror is
// asked to remove its file.
type removeOrder struct {
	transfer.Mirror
	h       *engineHarness
	heldAt  map[string]bool
	mu      sync.Mutex
	removed int
}

func (m *removeOrder) Remove(rel string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.removed++
	for uri := range m.heldAt {
		if m.h.PathOf(uri) == filepath.Join(m.h.Dest, filepath.FromSlash(rel)) {
			_, held, err := m.h.DB.Held(context.Background(), m.h.SetID, uri)
			if err != nil {
				m.h.T.Error(err)
			}
			m.heldAt[uri] = held
		}
	}
	return m.Mirror.Remove(rel)
}

// A resource gone at the Source is forgotten by the state before its file
// is removed: whenever the run stops, the state never claims a file the
// disk lost.
func TestEngineForgetsBeforeRemoving(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)[:6]
	p := &planner{}
	for _, r := range rs {
		p.units = append(p.units, unit(r, r.LastMod))
	}
	if err := h.run(p, nil, nil); err != nil || h.counts.Created != 6 {
		t.Fatalf("%v %+v", err, h.counts)
	}
	m := &removeOrder{Mirror: h.Mirror, h: h, heldAt: map[string]bool{}}
	p = &planner{}
	for _, r := range rs {
		p.units = append(p.units, &transfer.Unit{URI: r.URI, Gone: true})
		m.heldAt[r.URI] = true
	}
	h.counts = resourcesync.Counts{}
	err := h.run(p, m, func(o *transfer.RunOptions) {
		o.Delete, o.MaxDelete = true, transfer.DeleteLimit{Count: 100}
	})
	if err != nil || h.counts.Deleted != 6 || m.removed != 6 {
		t.Fatalf("%v: counts %+v, %d removed", err, h.counts, m.removed)
	}
	for uri, held := range m.heldAt {
		if held {
			t.Errorf("%s was still held when its file was removed", uri)
		}
	}
	if files := h.Files(); len(files) != 0 {
		t.Errorf("%d files left", len(files))
	}
}

// A Source that keeps failing stops the run instead of failing every
// remaining unit after its retries.
func TestEngineBreakerStopsTheRun(t *testing.T) {
	h := newEngineHarness(t)
	h.Src.SetFault("/dataset1/res/*", fixtures.Fault{Status: slices.Repeat([]int{503}, 1000)})
	p := &planner{}
	for _, r := range h.Src.Resources(0) {
		p.units = append(p.units, unit(r, r.LastMod))
	}
	err := h.run(p, nil, func(o *transfer.RunOptions) { o.MaxUnavailable, o.Workers = 3, 1 })
	if !errors.Is(err, resourcesync.ErrUnavailable) || h.counts.Failed >= int64(len(p.units)) {
		t.Errorf("err %v, counts %+v", err, h.counts)
	}
}
