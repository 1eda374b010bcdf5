package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/scaletest"
)

// scaleSource is one Source of a worker test, mirrored under prefix.
type scaleSource struct {
	src    *fixtures.Source
	srv    *fixtures.Server
	prefix string
}

// workerConfig writes the --config file of the Sources, each into its own
// prefix of the bucket.
func workerConfig(t *testing.T, s scaletest.S3, srcs []scaleSource) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("defaults:\n  max-retry-wait: 5ms\n  progress: never\n  delete: true\n  max-delete: 100%\n  workers: 4\nsources:\n")
	for _, x := range srcs {
		fmt.Fprintf(&b, "  - url: %s\n    dest: s3://%s/%s\n", x.srv.URL, s.Bucket, x.prefix)
	}
	return writeConfig(t, b.String())
}

// runWorkers runs n workers on db with the config cfg until they are idle,
// and fails the test unless each exits 0. Their lease is long: no worker
// stalls that long, even on a loaded machine, so no job changes hands and
// each resource is fetched once.
func runWorkers(t *testing.T, s scaletest.S3, db, cfg string, n int) {
	t.Helper()
	var procs []*proc
	for range n {
		procs = append(procs, startProc(t, s.Env(), workerArgs(db, "--config", cfg, "--lease", "20s")...))
	}
	for i, p := range procs {
		if code, sig := p.wait(); code != 0 {
			t.Fatalf("worker %d: exit %d (signal %v)\nstderr:\n%s", i+1, code, sig, p.stderr.String())
		}
	}
}

// workerArgs are the arguments of a worker on db.
func workerArgs(db string, more ...string) []string {
	return append([]string{"worker", "--state", db, "--until-idle", "--poll-interval", "1h", "--log-level", "warn"}, more...)
}

// Three workers on one database mirror four Sources into one bucket: each
// resource is fetched once, each Source's objects are its files, and the
// audit is clean. One Source publishes a Resource List Index, whose
// baseline is split into one job per Resource List.
func TestScaleThreeWorkersFourSources(t *testing.T) {
	s := scaletest.NewS3(t)
	db := scaletest.NewPostgres(t)
	var srcs []scaleSource
	for i, mod := range []func(*fixtures.Spec){
		func(sp *fixtures.Spec) { sp.Resources = 120; sp.ListMax = 30 }, // an index of 4 lists
		func(sp *fixtures.Spec) { sp.Resources = 40; sp.Sets = 2 },
		func(sp *fixtures.Spec) { sp.Resources = 30 },
		func(sp *fixtures.Spec) { sp.Resources = 25 },
	} {
		src, srv := served(t, func(sp *fixtures.Spec) { sp.Seed = int64(100 + i); mod(sp) })
		srcs = append(srcs, scaleSource{src: src, srv: srv, prefix: fmt.Sprintf("src%d", i+1)})
	}
	cfg := workerConfig(t, s, srcs)
	runWorkers(t, s, db, cfg, 3)
	useS3(t, s)
	for _, x := range srcs {
		settle(t, x.srv)
		s.BucketIsSource(t, x.prefix, x.src)
		if n, want := x.src.ResourceBodies(), countResources(x.src); n != want {
			t.Errorf("%s: %d resource bodies fetched for %d resources", x.srv.URL, n, want)
		}
		runCLI(t, auditArgs([]string{"audit", "--dest", "s3://" + s.Bucket + "/" + x.prefix, "--state", db}, x.srv.URL)...).want(t, 0)
	}
	r := runCLI(t, "status", "--dest", "s3://"+s.Bucket+"/src1", "--state", db).want(t, 0)
	if strings.Count(r.stdout, "\nset ") != 5 {
		t.Errorf("status shows %d sets, want 5:\n%s", strings.Count(r.stdout, "\nset "), r.stdout)
	}
}

func countResources(src *fixtures.Source) int {
	n := 0
	for set := range src.Sets() {
		n += len(src.Resources(set))
	}
	return n
}

// A baseline by a Resource Dump (here behind a Resource Dump Index) is
// split into one job per package: three workers share them, each package
// is downloaded once and no resource is fetched one by one, and the set's
// job then finishes the baseline - its point recorded - downloading no
// package again.
func TestScaleDumpBaselineSplitPerPackage(t *testing.T) {
	s := scaletest.NewS3(t)
	db := scaletest.NewPostgres(t)
	src, srv := served(t, func(sp *fixtures.Spec) { sp.Resources, sp.DumpPackages, sp.DumpMax = 60, 4, 3 })
	cfg := workerConfig(t, s, []scaleSource{{src: src, srv: srv, prefix: "d"}})
	runWorkers(t, s, db, cfg, 3)
	useS3(t, s)
	settle(t, srv)
	s.BucketIsSource(t, "d", src)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("%d resources fetched one by one; the packages hold them all", n)
	}
	for i := range 4 {
		p := fmt.Sprintf("/dataset1/resourcedump-%d.zip", i+1)
		if n := src.Count(p).Bodies; n != 1 {
			t.Errorf("%s downloaded %d times, want once", p, n)
		}
	}
	st := openPG(t, db)
	ctx := context.Background()
	var parts int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'resync_part' AND state = 'completed'
		AND args->>'dump' = $1`, src.ResourceDumpURL(0)).Scan(&parts); err != nil {
		t.Fatal(err)
	}
	if parts != 4 {
		t.Errorf("%d package jobs completed, want 4", parts)
	}
	if sets, err := st.Sets(ctx); err != nil || len(sets) != 1 || !sets[0].Baselined() {
		t.Fatalf("the set was not baselined: %+v %v", sets, err)
	}
	runCLI(t, auditArgs([]string{"audit", "--dest", "s3://" + s.Bucket + "/d", "--state", db}, srv.URL)...).want(t, 0)
}
