package transfer_test

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// fullDisk is a mirror whose staged files cannot take a byte.
type fullDisk struct{ transfer.Mirror }

func (m fullDisk) Put(rel string, mtime time.Time, fill func(resourcesync.Sink) (bool, error)) (string, error) {
	return m.Mirror.Put(rel, mtime, func(s resourcesync.Sink) (bool, error) { return fill(enospcSink{s}) })
}

type enospcSink struct{ resourcesync.Sink }

func (enospcSink) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// A local disk fault while a mirror's copy is written stops the run: it
// says nothing about the mirror, so no fallback to the next mirror or
// <loc> may hide it.
func TestEngineMirrorDiskFaultStopsTheRun(t *testing.T) {
	h := newEngineHarness(t)
	r := h.Src.Resources(0)[0]
	u := unit(r, r.LastMod)
	u.Mirrors = []resourcesync.Link{{Rel: resourcesync.RelDuplicate, Href: r.URI}}
	h.Src.ResetCounts()
	err := h.run(&planner{units: []*transfer.Unit{u}}, fullDisk{h.Mirror}, nil)
	if !errors.Is(err, resourcesync.ErrLocal) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("run: %v, want a local disk fault", err)
	}
	if n := h.Src.ResourceBodies(); n != 1 {
		t.Errorf("%d bodies fetched, want 1 (the mirror's; no fallback)", n)
	}
}

// A dry run asks no mirror and no patch for anything.
func TestEngineDryRunAsksNoMirror(t *testing.T) {
	h := newEngineHarness(t)
	var units []*transfer.Unit
	for _, r := range h.Src.Resources(0)[:3] {
		u := unit(r, r.LastMod)
		u.Mirrors = []resourcesync.Link{{Rel: resourcesync.RelDuplicate, Href: r.URI}}
		units = append(units, u)
	}
	h.Src.ResetCounts()
	if err := h.run(&planner{units: units}, nil, func(o *transfer.RunOptions) { o.DryRun = true }); err != nil {
		t.Fatal(err)
	}
	if n := h.Src.TotalRequests(); n != 0 {
		t.Errorf("a dry run made %d requests", n)
	}
}
