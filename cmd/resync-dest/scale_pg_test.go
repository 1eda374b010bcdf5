package main

import (
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/scaletest"
)

// The state in PostgreSQL, the mirror in a bucket or on disk: sync, an
// incremental sync, audit and status, as with SQLite.
func TestScalePostgresState(t *testing.T) {
	s := scaletest.NewS3(t)
	useS3(t, s)
	src, srv := served(t, func(sp *fixtures.Spec) { sp.Resources = 50 })
	for _, c := range []struct{ name, dest string }{
		{"bucket", "s3://" + s.Bucket + "/pg"},
		{"disk", t.TempDir()},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := scaletest.NewPostgres(t)
			runCLI(t, args([]string{"sync", "--dest", c.dest, "--state", db}, srv.URL)...).want(t, 0)
			if c.name == "bucket" {
				s.BucketIsSource(t, "pg", src)
			} else {
				incAssertIsSource(t, src, c.dest)
			}
			runCLI(t, auditArgs([]string{"audit", "--dest", c.dest, "--state", db}, srv.URL)...).want(t, 0)
			r := runCLI(t, "status", "--dest", c.dest, "--state", db).want(t, 0)
			contains(t, r.stdout, "postgres://", "held")
			if strings.Contains(r.stdout, "no set") {
				t.Fatalf("status found no set:\n%s", r.stdout)
			}
		})
	}
	if err := src.AdvanceRandom(10, time.Second); err != nil {
		t.Fatal(err)
	}
	db := scaletest.NewPostgres(t)
	dest := "s3://" + s.Bucket + "/pg2"
	runCLI(t, args([]string{"sync", "--dest", dest, "--state", db}, srv.URL)...).want(t, 0)
	if err := src.AdvanceRandom(10, time.Second); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()
	runCLI(t, args([]string{"sync", "--dest", dest, "--state", db, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	s.BucketIsSource(t, "pg2", src)
	if n := src.ResourceBodies(); n > 10 {
		t.Errorf("the incremental run fetched %d bodies for 10 changes", n)
	}
	runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--state", db}, srv.URL)...).want(t, 0)
}
