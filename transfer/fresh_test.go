package transfer_test

import (
	"context"
	"io/fs"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// statMirror counts the stats the engine asks of the mirror.
type statMirror struct {
	transfer.Mirror
	stats atomic.Int64
}

func (m *statMirror) Stat(rel string) (fs.FileInfo, error) {
	m.stats.Add(1)
	return m.Mirror.Stat(rel)
}

// A resource the set does not hold, at a path in a directory the run made
// and no unit of the run touched, is not looked for on disk: nothing can be
// there. Everything else is: a copy held (to tell whether it is the one
// recorded), a path a unit of the run already wrote, a directory made by an
// earlier run (another set's file may be there).
func TestEngineStatsNoFreshPath(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)[:10]
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	m := &statMirror{Mirror: h.Mirror}
	// run copies rs once more: each run takes units of its own.
	run := func(mod func(*transfer.RunOptions)) {
		var units []*transfer.Unit
		for _, r := range rs {
			units = append(units, unit(r, base))
		}
		h.counts = resourcesync.Counts{}
		if err := h.run(&planner{units: units}, m, mod); err != nil {
			t.Fatal(err)
		}
	}
	run(oneWorker)
	// The first unit makes the directory: it alone is looked for.
	if n := m.stats.Load(); n != 1 || h.counts.Created != 10 {
		t.Fatalf("first copy: %d stats, counts %+v; want 1, 10 created", n, h.counts)
	}

	// Held now: each copy is looked at, and found in step.
	m.stats.Store(0)
	run(nil)
	if n := m.stats.Load(); n != 10 || h.counts.Unchanged != 10 {
		t.Fatalf("copies held: %d stats, counts %+v; want 10, 10 unchanged", n, h.counts)
	}

	// Another set of the same session, whose run did not make the
	// directories: the files there are found and replaced.
	m.stats.Store(0)
	set, err := h.DB.EnsureSet(context.Background(), h.Src.URL()+"other/capabilitylist.xml", h.Src.SourceDescriptionURL())
	if err != nil {
		t.Fatal(err)
	}
	h.SetID = set.ID
	run(nil)
	if n := m.stats.Load(); n != 10 || h.counts.Updated != 10 {
		t.Fatalf("another set's run: %d stats, counts %+v; want 10, 10 updated", n, h.counts)
	}
}

// oneWorker makes the order of a run's units the order they are decided in.
func oneWorker(o *transfer.RunOptions) { o.Workers = 1 }

// A path a unit of the run already wrote is looked at again by the next
// unit of the path, even in a directory the run made.
func TestEngineStatsAPathTheRunTouched(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)[:5]
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var units []*transfer.Unit
	for v := range 2 {
		for _, r := range rs {
			units = append(units, unit(r, base.Add(time.Duration(v)*time.Hour)))
		}
	}
	m := &statMirror{Mirror: h.Mirror}
	if err := h.run(&planner{units: units}, m, oneWorker); err != nil {
		t.Fatal(err)
	}
	if n := m.stats.Load(); n != 1+int64(len(rs)) {
		t.Errorf("%d stats, want one for the first unit (it makes the directory) and one for each second unit of a path (%d)", n, 1+len(rs))
	}
	if c := h.counts; c.Created+c.Updated != int64(len(units)) || c.Created < int64(len(rs)) {
		t.Errorf("counts %+v; want %d created or updated, at least %d created", c, len(units), len(rs))
	}
}
