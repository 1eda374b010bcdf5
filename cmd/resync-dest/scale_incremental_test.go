package main

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/worker"
)

// pgRecorded is incRecorded of the PostgreSQL state st.
func pgRecorded(t *testing.T, src *fixtures.Source, st *pgstate.DB) (recorded, owed int) {
	t.Helper()
	ctx := context.Background()
	set, ok, err := st.Set(ctx, src.CapabilityListURL(0))
	if err != nil || !ok {
		t.Fatalf("the set of %s: %v (recorded: %v)", src.CapabilityListURL(0), err, ok)
	}
	return changesRecorded(t, src, set.Cursor, func(c fixtures.ChangeInfo) (bool, bool, error) {
		return st.ChangeStatus(ctx, set.ID, c.URI, c.Change, c.At)
	})
}

// kill -9 of a worker mid-incremental, in the changes of a Change List:
// another worker takes the set's job over once its lease ran out and
// resumes at the first change not recorded - it fetches nothing the
// killed one recorded - and ends with what an uninterrupted run records,
// every change recorded and the bucket equal to the Source; a late write
// with the killed worker's epoch is refused.
func TestScaleWorkerKilledMidIncremental(t *testing.T) {
	src, srv := served(t, func(sp *fixtures.Spec) { sp.Resources = 150; sp.ChangeListMax = 100 })
	s, db, st, cfg := pgWorkers(t, src, srv)
	ctx := context.Background()
	first := startProc(t, s.Env(), workerArgs(db, "--config", cfg, "--lease", takeoverLease)...)
	if code, _ := first.wait(); code != 0 {
		t.Fatalf("the baseline's worker: exit %d\n%s", code, first.stderr.String())
	}
	// 300 changes in three Change Lists, each resource 100 ms away, 4
	// fetched at once: the changes take seconds at the least, while the
	// first state commit comes after a second (the writer's interval).
	if err := src.AdvanceRandom(300, time.Second); err != nil {
		t.Fatal(err)
	}
	total := len(src.Changes(0))
	set, _, err := st.Set(ctx, src.CapabilityListURL(0))
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := st.Sources(ctx)
	if err != nil || len(srcs) != 1 {
		t.Fatalf("the Sources recorded: %v (%v)", srcs, err)
	}
	settle(t, srv)
	src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 100 * time.Millisecond})

	a := startProc(t, s.Env(), "worker", "--state", db, "--lease", takeoverLease, "--poll-interval", "1h", "--log-level", "warn")
	if err := worker.Notify(ctx, st, srcs[0].Key); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the first worker recorded some changes", func() bool {
		var n int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM changes WHERE set_id = $1`, set.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0 || a.exited()
	})
	a.cmd.Process.Kill()
	if _, sig := a.wait(); sig != syscall.SIGKILL {
		t.Fatalf("the first worker ended before its kill\n%s", a.stderr.String())
	}
	settle(t, srv)
	before, owed := pgRecorded(t, src, st)
	t.Logf("killed with %d of %d changes recorded, %d resources owed", before, total, owed)
	if before == 0 || before == total {
		t.Fatalf("the kill did not land mid-incremental: %d of %d changes recorded", before, total)
	}

	src.ResetCounts()
	b := startProc(t, s.Env(), workerArgs(db, "--lease", takeoverLease)...)
	if code, _ := b.wait(); code != 0 {
		t.Fatalf("the second worker: exit %d\n%s", code, b.stderr.String())
	}
	settle(t, srv)
	// Exactly where it stopped: every change recorded, and nothing the
	// killed worker recorded fetched again.
	if after, left := pgRecorded(t, src, st); after != total || left != 0 {
		t.Errorf("after the takeover %d of %d changes recorded, %d resources owed", after, total, left)
	}
	if got := src.ResourceBodies(); got > owed {
		t.Errorf("the takeover fetched %d resources; only %d were owed", got, owed)
	}
	assertTakenOver(t, "takeover", s, db, st, src, srv)
}
