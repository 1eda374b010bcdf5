package main

import (
	"context"
	"slices"
	"syscall"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// The first SIGTERM to a worker stops its job's new transfers, lets those
// in flight finish and records them - each in the bucket - and exits 143;
// the job is left to run again (not failed), and the next worker fetches
// exactly what was not recorded and ends as an uninterrupted run.
func TestScaleWorkerSIGTERMStopsSavesAndResumes(t *testing.T) {
	const signalLease = "60s"
	src, srv := takeoverSource(t)
	s, db, st, cfg := pgWorkers(t, src, srv)
	// A's lease is long: this test is about the drain, and a lease that
	// lapses on a loaded machine stops the job itself (its transfers in
	// flight cancelled, rightly not recorded). A releases it when it exits.
	a := startProc(t, s.Env(), "worker", "--state", db, "--config", cfg, "--lease", signalLease, "--log-level", "warn")
	waitUntil(t, "the worker recorded some resources", func() bool { return heldTotal(t, st) >= 30 })
	a.cmd.Process.Signal(syscall.SIGTERM)
	a.wantExit(t, exitSIGTERM)
	settle(t, srv)

	n := countResources(src)
	ctx := context.Background()
	sets, err := st.Sets(ctx)
	if err != nil || len(sets) != 1 {
		t.Fatalf("sets %v, %v", sets, err)
	}
	objects := s.Objects(t, "m/")
	var held int
	err = st.EachHeld(ctx, sets[0].ID, func(h resourcesync.Held) error {
		held++
		if b, ok := objects["m/"+h.Path]; !ok || int64(len(b)) != h.Length {
			t.Errorf("%s is recorded (%d bytes) but the bucket holds %d bytes at m/%s", h.URI, h.Length, len(b), h.Path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if held >= n {
		t.Fatalf("the job finished (%d held) before the signal stopped it", held)
	}
	// Every body the Source sent belongs to a transfer that was in flight
	// or done: each one finished and was recorded.
	if got := src.ResourceBodies(); got != held {
		t.Errorf("the Source sent %d bodies but the state holds %d: in-flight transfers were lost", got, held)
	}
	if sets[0].Baselined() {
		t.Error("an interrupted baseline recorded a baseline point")
	}
	var state string
	var errs int
	if err := st.Pool().QueryRow(ctx, `SELECT state, coalesce(array_length(errors, 1), 0) FROM river_job WHERE kind = 'resync_set'`).Scan(&state, &errs); err != nil {
		t.Fatal(err)
	}
	if (state != "available" && state != "scheduled") || errs != 0 {
		t.Errorf("the stopped job is %s with %d errors recorded, want it waiting to run again as no failure", state, errs)
	}

	src.ResetCounts()
	b := startProc(t, s.Env(), workerArgs(db, "--lease", takeoverLease)...)
	if code, _ := b.wait(); code != 0 {
		t.Fatalf("the next worker: exit %d\n%s", code, b.stderr.String())
	}
	if got := src.ResourceBodies(); got != n-held {
		t.Errorf("the resume fetched %d bodies; %d of %d were recorded, so want %d", got, held, n, n-held)
	}
	s.BucketIsSource(t, "m", src)
	src.ClearFaults()
	if got, want := heldRecords(t, st), reference(t, s, srv); !slices.Equal(got, want) {
		t.Errorf("the state after the resume differs from an uninterrupted run's (%d records, %d)", len(got), len(want))
	}
}
