package main

import (
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 22, item 5d: when the Source dies in the middle of a run, the
// circuit breaker ends it - and the exit status says what happened to the
// mirror. Exit 5 promises "nothing was changed"; after files were written
// the run exits 3 (partial), those files kept and recorded, the rest
// retried by the next run, which completes once the Source is back. With
// nothing written the status stays 5 (TestGuaranteeRetryStormsAreBounded).
func TestGuaranteeBreakerAfterChangesExitsPartial(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 100 })
	st := make([]int, 1000)
	for i := range st {
		st[i] = 503
	}
	dead := src.Resources(0)[40:]
	for _, r := range dead {
		src.SetFault(r.Path, fixtures.Fault{Status: st})
	}
	dest := t.TempDir()
	for _, cmd := range []string{"baseline", "sync"} {
		t.Run(cmd, func(t *testing.T) {
			d := dest + "/" + cmd
			r := runCLI(t, args([]string{cmd, "--dest", d}, srv.URL)...).want(t, exitPartial)
			contains(t, r.stdout+r.stderr, "unavailable", "in a row")
			v := readState(t, d, src.CapabilityListURL(0))
			if len(v.held) < 40 || len(v.held) == 100 {
				t.Errorf("%d resources held; want the 40 the Source served before it died", len(v.held))
			}
			assertHeldOnDisk(t, d, v.held)
			assertNoTempFiles(t, d)
		})
	}
	for _, r := range dead {
		src.ClearFault(r.Path)
	}
	for _, cmd := range []string{"baseline", "sync"} {
		runCLI(t, args([]string{cmd, "--dest", dest + "/" + cmd}, srv.URL)...).want(t, 0)
		assertMirrorIsSource(t, src, dest+"/"+cmd)
	}

	// An incremental run: every resource changes, and the Source dies
	// after serving the first 40.
	var muts []fixtures.Mutation
	for _, r := range src.Resources(0) {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Update, Path: r.Path})
	}
	if err := src.Apply(src.At().Add(time.Hour), muts...); err != nil {
		t.Fatal(err)
	}
	for _, r := range dead {
		src.SetFault(r.Path, fixtures.Fault{Status: st})
	}
	d := dest + "/sync"
	r := runCLI(t, args([]string{"sync", "--dest", d}, srv.URL)...).want(t, exitPartial)
	contains(t, r.stdout+r.stderr, "unavailable", "in a row")
	v := readState(t, d, src.CapabilityListURL(0))
	assertHeldOnDisk(t, d, v.held)
	assertNoTempFiles(t, d)
	for _, r := range dead {
		src.ClearFault(r.Path)
	}
	runCLI(t, args([]string{"sync", "--dest", d}, srv.URL)...).want(t, 0)
	assertMirrorIsSource(t, src, d)
}
