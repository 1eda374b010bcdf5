package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

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

// pgWorkers sets up a test of workers on PostgreSQL and a bucket: the
// bucket s (its credentials in the environment of the commands run), the
// database db, opened as st, and the worker config cfg mirroring src at
// m/.
func pgWorkers(t *testing.T, src *fixtures.Source, srv *fixtures.Server) (s scaletest.S3, db string, st *pgstate.DB, cfg string) {
	t.Helper()
	s = scaletest.NewS3(t)
	db = scaletest.NewPostgres(t)
	useS3(t, s)
	return s, db, openPG(t, db), workerConfig(t, s, []scaleSource{{src: src, srv: srv, prefix: "m"}})
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

// assertTakenOver checks what a job taken over from a worker leaves: the
// bucket's m/ is the Source and its audit clean, and, the Source's delay
// lifted, the state is what an uninterrupted run records (after names
// what came before, in the message) and a write with the replaced
// worker's epoch is refused.
func assertTakenOver(t *testing.T, after string, s scaletest.S3, db string, st *pgstate.DB, src *fixtures.Source, srv *fixtures.Server) {
	t.Helper()
	s.BucketIsSource(t, "m", src)
	runCLI(t, auditArgs([]string{"audit", "--dest", "s3://" + s.Bucket + "/m", "--state", db}, srv.URL)...).want(t, 0)
	src.SetFault("/dataset1/res/*", fixtures.Fault{})
	if got, want := heldRecords(t, st), reference(t, s, srv); !slices.Equal(got, want) {
		t.Errorf("the state after the %s differs from an uninterrupted run's (%d records, %d)", after, len(got), len(want))
	}
	lateWriteRefused(t, st, "set:"+srv.URL+"dataset1/capabilitylist.xml")
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
	src, srv := takeoverSource(t)
	s, db, st, cfg := pgWorkers(t, src, srv)
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
	assertTakenOver(t, "takeover", s, db, st, src, srv)
}

// dbOutage is how long TestScaleWorkerLosesTheDatabase keeps a worker
// from its database: the 30 s, ten leases of takeoverLease.
const dbOutage = 30 * time.Second

// A worker that loses the database for 30 s in the middle of a job (a TCP
// proxy between it and PostgreSQL drops its connections and refuses new
// ones, then lets them through again by itself) has the job finished by
// another worker, which takes it over once the lease ran out; back on the
// database the first worker finds nothing left to do and exits 0. The
// bucket holds every object the state records, byte for byte, audit is
// clean, the state is an uninterrupted run's, and a write with the first
// worker's epoch is refused.
func TestScaleWorkerLosesTheDatabase(t *testing.T) {
	src, srv := takeoverSource(t)
	s, db, st, cfg := pgWorkers(t, src, srv)
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
	restored := proxy.CutFor(dbOutage)
	b := startProc(t, s.Env(), workerArgs(db, "--lease", takeoverLease)...)
	if code, _ := b.wait(); code != 0 {
		t.Fatalf("the second worker: exit %d\n%s", code, b.stderr.String())
	}
	select {
	case <-restored:
	case <-time.After(dbOutage + 2*time.Minute):
		t.Fatal("the proxy never ended the outage")
	}
	out := proxy.Outage()
	t.Logf("the first worker was without its database for %s (the proxy's measure): %d connections dropped, %d refused",
		out.Length().Round(time.Millisecond), out.Dropped, out.Refused)
	if out.Dropped == 0 || out.Refused == 0 {
		t.Fatalf("the first worker did not lose the database (%d connections dropped, %d refused)", out.Dropped, out.Refused)
	}
	select {
	case <-a.waited:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the first worker, its database back, never ended\n%s", a.stderr.String())
	}
	if code, _ := a.wait(); code != 0 {
		t.Errorf("the first worker, its database back: exit %d\n%s", code, a.stderr.String())
	}
	settle(t, srv)
	bucketHoldsTheState(t, st, s, "m")
	assertTakenOver(t, "outage", s, db, st, src, srv)
}

// bucketHoldsTheState checks, record by record, that the bucket holds
// under prefix every resource the state records as held, with the
// recorded length and digests.
func bucketHoldsTheState(t *testing.T, st *pgstate.DB, s scaletest.S3, prefix string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	sets, err := st.Sets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, set := range sets {
		err := st.EachHeld(ctx, set.ID, func(h resourcesync.Held) error {
			n++
			key := prefix + "/" + h.Path
			obj, err := s.Client.GetObject(ctx, s.Bucket, key, minio.GetObjectOptions{})
			if err != nil {
				return fmt.Errorf("get %s: %w", key, err)
			}
			defer obj.Close()
			v := resourcesync.NewVerifier(h.Fixity, h.Length, true)
			if _, err := io.Copy(v, obj); err != nil {
				t.Errorf("%s is recorded as held at %s, which the bucket does not hold: %v", h.URI, key, err)
				return nil
			}
			if err := v.Verify(); err != nil {
				t.Errorf("%s is recorded as held at %s, whose object differs: %v", h.URI, key, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatal("the state records nothing held")
	}
}
