package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/scaletest"
	"github.com/resync-dest/resync-dest/s3mirror"
)

// useS3 points the in-process command line at the test bucket's server
// through the usual AWS variables.
func useS3(t *testing.T, s scaletest.S3) {
	for _, kv := range s.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// A mirror in a bucket: sync makes it equal to the Source, audit finds it
// clean, changes (deletions included) are applied, status reads it, and a
// second writer is refused while one holds the bucket's lock.
func TestScaleS3SyncAuditStatus(t *testing.T) {
	s := scaletest.NewS3(t)
	useS3(t, s)
	src, srv := served(t, func(sp *fixtures.Spec) { sp.Resources = 60; sp.ListMax = 25 })
	dest := "s3://" + s.Bucket + "/mirrors/one"
	st := filepath.Join(t.TempDir(), "state.db")
	runCLI(t, args([]string{"sync", "--dest", dest, "--state", st}, srv.URL)...).want(t, 0)
	s.BucketIsSource(t, "mirrors/one", src)
	runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--state", st}, srv.URL)...).want(t, 0)

	if err := src.AdvanceRandom(15, time.Second); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()
	runCLI(t, args([]string{"sync", "--dest", dest, "--state", st, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	s.BucketIsSource(t, "mirrors/one", src)
	if n := src.ResourceBodies(); n > 15 {
		t.Errorf("the incremental run fetched %d bodies for 15 changes", n)
	}
	r := runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--state", st, "--json"}, srv.URL)...).want(t, 0)
	var rep struct {
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.ExitCode != 0 {
		t.Fatalf("audit --json: %v\n%s", err, r.stdout)
	}
	r = runCLI(t, "status", "--dest", dest, "--state", st, "--json").want(t, 0)
	contains(t, r.stdout, `"held": `)

	// An object changed behind the mirror's back is found by audit (4).
	rel := relPath(t, src.Resources(0)[0].URI)
	if _, err := s.Client.PutObject(context.Background(), s.Bucket, "mirrors/one/"+rel, strings.NewReader("tampered"), 8, putOptions()); err != nil {
		t.Fatal(err)
	}
	runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--state", st}, srv.URL)...).want(t, 4)

	// One writer per bucket mirror.
	o := s3mirror.DefaultOptions()
	o.FromEnv(func(k string) string { return envOf(s, k) })
	m, err := s3mirror.Open(context.Background(), s3mirror.Location{Bucket: s.Bucket, Prefix: "mirrors/one"}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--state", st}, srv.URL)...).want(t, exitLocked)
	contains(t, r.stderr, "lock")
}

func TestScaleS3UsageErrors(t *testing.T) {
	s := scaletest.NewS3(t)
	useS3(t, s)
	_, srv := served(t, nil)
	r := runCLI(t, args([]string{"sync", "--dest", "s3://" + s.Bucket + "/m"}, srv.URL)...).want(t, exitUsage)
	contains(t, r.stderr, "--state")
	r = runCLI(t, args([]string{"sync", "--dest", "s3://" + s.Bucket + "/../m", "--state", filepath.Join(t.TempDir(), "s.db")}, srv.URL)...).want(t, exitUsage)
	contains(t, r.stderr, "..")
	r = runCLI(t, args([]string{"sync", "--dest", "s3://no-such-bucket-" + scaletest.Name(), "--state", filepath.Join(t.TempDir(), "s.db")}, srv.URL)...)
	if r.code == 0 {
		t.Fatal("a missing bucket was accepted")
	}
	contains(t, r.stderr, "does not exist")
}

func envOf(s scaletest.S3, k string) string {
	for _, kv := range s.Env() {
		if name, v, _ := strings.Cut(kv, "="); name == k {
			return v
		}
	}
	return ""
}

func putOptions() minio.PutObjectOptions { return minio.PutObjectOptions{} }
