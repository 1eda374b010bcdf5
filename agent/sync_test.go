package agent_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// destination is a mirror with its state in a temp directory, and the
// Source discovered, as the command line hands them to the jobs.
type destination struct {
	t    *testing.T
	src  *fixtures.Source
	disc *agent.Discovery
	deps agent.Deps
	db   *state.DB
}

func newDestination(t *testing.T, mod func(*fixtures.Spec)) *destination {
	t.Helper()
	src, srv := served(t, mod)
	client := testClient(t)
	disc, err := agent.Discover(context.Background(), client, srv.URL, agent.DefaultDiscoverOptions())
	if err != nil {
		t.Fatal(err)
	}
	l := desttest.Open(t, t.TempDir(), false)
	tmp := t.TempDir()
	return &destination{t: t, src: src, disc: disc, db: l.DB, deps: agent.Deps{
		Client: client, Mirror: l.Mirror, Store: l.DB, TempDir: tmp, Log: zerolog.Nop(),
		NewListing: func() (baseline.Listing, error) { return state.NewListing(tmp) },
		NewBacklog: func() (incremental.Backlog, error) { return state.NewBacklog(tmp) },
	}}
}

func (d *destination) syncOptions() agent.SyncOptions {
	return agent.SyncOptions{Baseline: baseline.DefaultOptions(), Incremental: incremental.DefaultOptions()}
}

func TestSyncBaselinesThenFollowsChanges(t *testing.T) {
	d := newDestination(t, func(s *fixtures.Spec) { s.Sets = 2 })
	rep, err := agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sets) != 2 || rep.Counts.Created != 20 {
		t.Fatalf("first sync: %+v", rep.Counts)
	}
	for _, s := range rep.Sets {
		if s.Baseline == nil || s.Incremental == nil || s.Incremental.Changes != 0 {
			t.Errorf("%s: a set never synced must get a baseline, then its changes since the list's at: %+v", s.CapabilityList, s)
		}
	}
	if err := d.src.AdvanceRandom(8, time.Second); err != nil {
		t.Fatal(err)
	}
	rep, err = agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions())
	if err != nil {
		t.Fatal(err)
	}
	var applied int64
	for _, s := range rep.Sets {
		if s.Baseline != nil || s.Incremental == nil {
			t.Fatalf("%s: a synced set must get an incremental sync: %+v", s.CapabilityList, s)
		}
		applied += s.Incremental.Applied
	}
	if applied != 8 || rep.Counts.Listed == 0 {
		t.Errorf("applied %d changes, counts %+v", applied, rep.Counts)
	}
}

func TestSyncWithoutChangeListMakesABaseline(t *testing.T) {
	d := newDestination(t, func(s *fixtures.Spec) { s.NoChangeList = true })
	for range 2 {
		rep, err := agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions())
		if err != nil || rep.Sets[0].Baseline == nil {
			t.Fatalf("%+v %v", rep, err)
		}
	}
	_, err := agent.Incremental(context.Background(), d.disc, d.deps, agent.IncrementalOptions{Worker: incremental.DefaultOptions()})
	if err == nil {
		t.Fatal("incremental of a set without a Change List succeeded")
	}
}

// A Source that publishes its changes only as a Change Dump is followed
// through it (auto), without one request per changed resource: the first
// sync copies from the Resource Dump, the next applies the Change Dump.
func TestSyncFollowsAChangeDump(t *testing.T) {
	d := newDestination(t, func(s *fixtures.Spec) { s.NoChangeList, s.ChangeDump, s.DumpPackages = true, true, 2 })
	rep, err := agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions())
	if err != nil || rep.Sets[0].Baseline == nil || rep.Sets[0].Baseline.Via != "dump" {
		t.Fatalf("first sync: %+v %v", rep.Sets[0], err)
	}
	if err := d.src.AdvanceRandom(6, time.Second); err != nil {
		t.Fatal(err)
	}
	d.src.ResetCounts()
	rep, err = agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions())
	if err != nil {
		t.Fatal(err)
	}
	inc := rep.Sets[0].Incremental
	if inc == nil || inc.Via != "dump" || inc.Applied != 6 || rep.Sets[0].Baseline != nil {
		t.Fatalf("second sync: %+v", rep.Sets[0])
	}
	if got := d.src.ResourceBodies(); got != 0 {
		t.Errorf("fetched %d resources one by one", got)
	}
	// --via list: without a Change List, the Resource List is the way to
	// follow the Source, as for any set without one.
	o := d.syncOptions()
	o.Via = resourcesync.ViaList
	rep, err = agent.Sync(context.Background(), d.disc, d.deps, o)
	if err != nil || rep.Sets[0].Baseline == nil || rep.Sets[0].Baseline.Via != "list" || rep.Sets[0].Incremental != nil {
		t.Errorf("sync --via list: %+v %v", rep.Sets[0], err)
	}
}

func TestIncrementalNeedsAStartingPoint(t *testing.T) {
	d := newDestination(t, nil)
	o := agent.IncrementalOptions{Worker: incremental.DefaultOptions()}
	rep, err := agent.Incremental(context.Background(), d.disc, d.deps, o)
	if !errors.Is(err, agent.ErrNoStartingPoint) || rep != nil {
		t.Fatalf("err = %v", err)
	}
	if n, _ := d.db.Sets(context.Background()); len(n) != 0 {
		t.Errorf("a refused run recorded %d sets", len(n))
	}
	// From the snapshot time on, every change is applied: the mirror holds
	// what the changes name.
	if err := d.src.AdvanceRandom(6, time.Second); err != nil {
		t.Fatal(err)
	}
	o.From = fixtures.DefaultSpec().Start
	rep, err = agent.Incremental(context.Background(), d.disc, d.deps, o)
	if err != nil {
		t.Fatal(err)
	}
	inc := rep.Sets[0].Incremental
	if inc == nil || inc.Applied != 6 || !inc.From.Equal(o.From) {
		t.Fatalf("%+v", inc)
	}
	// The cursor recorded makes the next run continue without --from.
	if _, err := agent.Incremental(context.Background(), d.disc, d.deps, agent.IncrementalOptions{Worker: incremental.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
}

func TestRebaselineOnGap(t *testing.T) {
	d := newDestination(t, func(s *fixtures.Spec) { s.ChangeListMax = 3 })
	if _, err := agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions()); err != nil {
		t.Fatal(err)
	}
	start := d.src.At()
	if err := d.src.AdvanceRandom(10, time.Second); err != nil {
		t.Fatal(err)
	}
	d.src.TrimHistory(start.Add(5 * time.Second))
	_, err := agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions())
	var gap *incremental.GapError
	if !errors.As(err, &gap) || !errors.Is(err, resourcesync.ErrSafetyStop) {
		t.Fatalf("err = %v, want a gap", err)
	}
	o := d.syncOptions()
	o.RebaselineOnGap = true
	rep, err := agent.Sync(context.Background(), d.disc, d.deps, o)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Sets[0]
	if s.Incremental == nil || s.Baseline == nil || s.Baseline.Created+s.Baseline.Updated == 0 {
		t.Fatalf("%+v", s)
	}
	st, _, _ := d.db.Set(context.Background(), d.src.CapabilityListURL(0))
	if !st.Cursor.Equal(d.src.At()) {
		t.Errorf("cursor %v after the new baseline, want the Resource List's at %v", st.Cursor, d.src.At())
	}
	// Past the gap, incremental sync goes on.
	if _, err := agent.Sync(context.Background(), d.disc, d.deps, d.syncOptions()); err != nil {
		t.Fatal(err)
	}
}
