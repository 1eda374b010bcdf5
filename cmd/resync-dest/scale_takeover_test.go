package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/scaletest"
	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// takeoverLease is the lease of the takeover tests: short, so that they
// take seconds; a live worker renews it every third of it.
const takeoverLease = "3s"

func openPG(t *testing.T, db string) *pgstate.DB {
	t.Helper()
	o := pgstate.DefaultOptions()
	o.URL = db
	st, err := pgstate.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// heldRecords is what the state holds, one line per resource, sorted.
func heldRecords(t *testing.T, st *pgstate.DB) []string {
	t.Helper()
	ctx := context.Background()
	sets, err := st.Sets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range sets {
		err := st.EachHeld(ctx, s.ID, func(h resourcesync.Held) error {
			out = append(out, fmt.Sprintf("%s %s %d %s", h.URI, h.Path, h.Length, h.Fixity))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(out)
	return out
}

func heldTotal(t *testing.T, st *pgstate.DB) int64 {
	t.Helper()
	ctx := context.Background()
	sets, err := st.Sets(ctx)
	if err != nil {
		return 0 // not migrated yet
	}
	var n int64
	for _, s := range sets {
		c, err := st.HeldCount(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		n += c
	}
	return n
}

// lateWriteRefused checks that a write with the epoch before the lease's
// current one - the replaced worker's - is refused and records nothing.
func lateWriteRefused(t *testing.T, st *pgstate.DB, key string) {
	t.Helper()
	ctx := context.Background()
	var epoch int64
	if err := st.Pool().QueryRow(ctx, `SELECT epoch FROM leases WHERE key = $1`, key).Scan(&epoch); err != nil {
		t.Fatalf("lease %s: %v", key, err)
	}
	if epoch < 2 {
		t.Fatalf("lease %s has epoch %d: it was never taken over", key, epoch)
	}
	sets, _ := st.Sets(ctx)
	late := st.Fenced(pgstate.Fence{Key: key, Epoch: epoch - 1})
	err := late.Commit(ctx, sets[0].ID, &resourcesync.Batch{Held: []resourcesync.Held{{URI: "http://late/x", Path: "late/x", Length: 1}}})
	if !errors.Is(err, pgstate.ErrFenced) {
		t.Fatalf("a write with the replaced worker's epoch: %v, want it refused", err)
	}
	if _, ok, _ := st.Held(ctx, sets[0].ID, "http://late/x"); ok {
		t.Fatal("the refused write was recorded")
	}
}

// reference is what an uninterrupted sync of src records.
func reference(t *testing.T, s scaletest.S3, srv *fixtures.Server) []string {
	t.Helper()
	db := scaletest.NewPostgres(t)
	runCLI(t, args([]string{"sync", "--dest", "s3://" + s.Bucket + "/reference", "--state", db}, srv.URL)...).want(t, 0)
	return heldRecords(t, openPG(t, db))
}

// takeoverSource is a Source whose baseline takes 150 x 100 ms / 4
// fetches at once, almost 4 s at the least however fast the machine,
// while the first state commit comes after a second (the writer's
// interval): a test waiting for some records always finds the job still
// running.
func takeoverSource(t *testing.T) (*fixtures.Source, *fixtures.Server) {
	src, srv := served(t, func(sp *fixtures.Spec) { sp.Resources = 150 })
	src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 100 * time.Millisecond})
	return src, srv
}

// kill -9 of a worker mid-job: another takes the job over once its lease
// ran out, resumes where the state says (what was recorded is not fetched
// again), and ends with the state an uninterrupted run makes; a late
// write with the killed worker's epoch is refused.
func TestScaleWorkerKilledMidJob(t *testing.T) {
	s := scaletest.NewS3(t)
	db := scaletest.NewPostgres(t)
	useS3(t, s)
	src, srv := takeoverSource(t)
	cfg := workerConfig(t, s, []scaleSource{{src: src, srv: srv, prefix: "m"}})
	st := openPG(t, db)
	a := startProc(t, s.Env(), "worker", "--state", db, "--config", cfg, "--lease", takeoverLease, "--log-level", "warn")
	waitUntil(t, "the first worker recorded some resources", func() bool { return heldTotal(t, st) >= 30 })
	a.cmd.Process.Kill()
	a.wait()
	settle(t, srv)
	recorded := heldTotal(t, st)
	src.ResetCounts()
	b := startProc(t, s.Env(), workerArgs(db, "--lease", takeoverLease)...)
	if code, _ := b.wait(); code != 0 {
		t.Fatalf("the second worker: exit %d\n%s", code, b.stderr.String())
	}
	n := countResources(src)
	if got := src.ResourceBodies(); int64(got) > int64(n)-recorded {
		t.Errorf("the takeover fetched %d resources; %d of %d were recorded before the kill", got, recorded, n)
	}
	s.BucketIsSource(t, "m", src)
	runCLI(t, auditArgs([]string{"audit", "--dest", "s3://" + s.Bucket + "/m", "--state", db}, srv.URL)...).want(t, 0)
	src.SetFault("/dataset1/res/*", fixtures.Fault{})
	if got, want := heldRecords(t, st), reference(t, s, srv); !slices.Equal(got, want) {
		t.Errorf("the state after the takeover differs from an uninterrupted run's (%d records, %d)", len(got), len(want))
	}
	lateWriteRefused(t, st, "set:"+srv.URL+"dataset1/capabilitylist.xml")
}

// A worker that loses the database (here for three leases, the issue's
// 30 s scaled down) has its job taken over by another worker, which
// finishes it; the first one's writes after its lease are refused, and
// the state records nothing the bucket does not hold.
func TestScaleWorkerLosesTheDatabase(t *testing.T) {
	s := scaletest.NewS3(t)
	db := scaletest.NewPostgres(t)
	useS3(t, s)
	src, srv := takeoverSource(t)
	cfg := workerConfig(t, s, []scaleSource{{src: src, srv: srv, prefix: "m"}})
	st := openPG(t, db)
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	proxy := scaletest.NewProxy(t, u.Host)
	viaProxy := *u
	viaProxy.Host = proxy.Addr
	a := startProc(t, s.Env(), "worker", "--state", viaProxy.String(), "--config", cfg, "--lease", takeoverLease,
		"--until-idle", "--log-level", "warn")
	waitUntil(t, "the first worker recorded some resources", func() bool { return heldTotal(t, st) >= 30 })
	proxy.Cut()
	cutAt := time.Now()
	b := startProc(t, s.Env(), workerArgs(db, "--lease", takeoverLease)...)
	if code, _ := b.wait(); code != 0 {
		t.Fatalf("the second worker: exit %d\n%s", code, b.stderr.String())
	}
	lease, _ := time.ParseDuration(takeoverLease)
	if d := time.Until(cutAt.Add(3 * lease)); d > 0 {
		time.Sleep(d) // the outage lasts three leases at least
	}
	proxy.Restore()
	if code, _ := a.wait(); code != 0 {
		t.Logf("the first worker, back: exit %d\n%s", code, a.stderr.String())
	}
	settle(t, srv)
	s.BucketIsSource(t, "m", src)
	// The state claims nothing the bucket does not hold (audit: no missing
	// or changed object), and is what an uninterrupted run records.
	runCLI(t, auditArgs([]string{"audit", "--dest", "s3://" + s.Bucket + "/m", "--state", db}, srv.URL)...).want(t, 0)
	src.SetFault("/dataset1/res/*", fixtures.Fault{})
	if got, want := heldRecords(t, st), reference(t, s, srv); !slices.Equal(got, want) {
		t.Errorf("the state after the outage differs from an uninterrupted run's (%d records, %d)", len(got), len(want))
	}
	lateWriteRefused(t, st, "set:"+srv.URL+"dataset1/capabilitylist.xml")
}
