package baseline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestCopyThenSkip(t *testing.T) {
	h := newHarness(t, nil)
	sum := h.mustRun(nil)
	if sum.Created != 60 || sum.Listed != 60 || sum.Failed != 0 || !sum.ListComplete {
		t.Fatalf("first run: %+v", sum.Counts)
	}
	h.AssertIdentical()
	st, _, err := h.DB.Set(context.Background(), h.set.CapabilityList)
	if err != nil || !st.BaselineAt.Equal(h.Src.At()) || !st.Cursor.Equal(h.Src.At()) {
		t.Fatalf("baseline point %v cursor %v (err %v), want the list's at %v", st.BaselineAt, st.Cursor, err, h.Src.At())
	}
	if n, _ := h.DB.HeldCount(context.Background(), h.set.ID); n != 60 {
		t.Fatalf("state holds %d, want 60", n)
	}

	h.Src.ResetCounts()
	sum = h.mustRun(nil)
	if sum.Unchanged != 60 || sum.Created+sum.Updated != 0 {
		t.Fatalf("second run: %+v", sum.Counts)
	}
	if n := h.Src.ResourceBodies(); n != 0 {
		t.Errorf("an unchanged Source had %d resource bodies fetched again", n)
	}
}

func TestResourceListIndex(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 50; s.ListMax = 7 })
	sum := h.mustRun(nil)
	if sum.Created != 50 {
		t.Fatalf("%+v", sum.Counts)
	}
	h.AssertIdentical()
}

func TestFollowsSourceChanges(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	at := h.Src.At().Add(time.Hour)
	rs := h.Src.Resources(0)
	if err := h.Src.Apply(at,
		fixtures.Mutation{Kind: fixtures.Update, Path: rs[0].Path},
		fixtures.Mutation{Kind: fixtures.Update, Path: rs[1].Path, Size: 10},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[2].Path},
		fixtures.Mutation{Kind: fixtures.Create, Path: "/dataset1/res/new/a.txt"},
	); err != nil {
		t.Fatal(err)
	}
	sum := h.mustRun(nil)
	if sum.Updated != 2 || sum.Created != 1 || sum.Unchanged != 57 || sum.WouldDelete != 1 || sum.Deleted != 0 {
		t.Fatalf("without --delete: %+v would delete %d", sum.Counts, sum.WouldDelete)
	}
	if _, err := os.Stat(h.PathOf(rs[2].URI)); err != nil {
		t.Fatalf("a deletion was applied without --delete: %v", err)
	}
	sum = h.mustRun(func(o *baseline.Options) { o.Delete = true })
	if sum.Deleted != 1 || sum.Unchanged != 60 {
		t.Fatalf("with --delete: %+v", sum.Counts)
	}
	h.AssertIdentical()
	if _, ok, _ := h.DB.Held(context.Background(), h.set.ID, rs[2].URI); ok {
		t.Errorf("the state still holds the deleted %s", rs[2].URI)
	}
}

func TestMtimeIsLastmod(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	r := h.Src.Resources(0)[3]
	info, err := os.Stat(h.PathOf(r.URI))
	if err != nil {
		t.Fatal(err)
	}
	if !info.ModTime().Equal(r.LastMod) {
		t.Errorf("mtime %v, want the Source's lastmod %v", info.ModTime(), r.LastMod)
	}
}

func TestChecksumRepairsLocalDamage(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	r := h.Src.Resources(0)[5]
	p := h.PathOf(r.URI)
	b, _ := os.ReadFile(p)
	b[len(b)/2] ^= 0x01 // a bit flip: same size, same mtime
	info, _ := os.Stat(p)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, info.ModTime(), info.ModTime())

	if sum := h.mustRun(nil); sum.Updated != 0 {
		t.Fatalf("trusting the state, %d were re-fetched", sum.Updated)
	}
	sum := h.mustRun(func(o *baseline.Options) { o.Checksum = true })
	if sum.Updated != 1 || sum.Unchanged != 59 {
		t.Fatalf("--checksum: %+v", sum.Counts)
	}
	h.AssertIdentical()
}

func TestMissingLocalFileIsFetchedAgain(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	r := h.Src.Resources(0)[7]
	if err := os.Remove(h.PathOf(r.URI)); err != nil {
		t.Fatal(err)
	}
	sum := h.mustRun(nil)
	if sum.Created+sum.Updated != 1 {
		t.Fatalf("%+v", sum.Counts)
	}
	h.AssertIdentical()
}

func TestDryRunWritesNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	rs := h.Src.Resources(0)
	h.Src.Apply(h.Src.At().Add(time.Hour),
		fixtures.Mutation{Kind: fixtures.Update, Path: rs[0].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[1].Path},
		fixtures.Mutation{Kind: fixtures.Create, Path: "/dataset1/res/new/b.txt"})
	h.reopen(true)
	before := fixtures.TreeSnapshot(t, h.Dest, false)
	h.Src.ResetCounts()
	var plan bytes.Buffer
	sum := h.mustRun(func(o *baseline.Options) { o.DryRun, o.Delete, o.Plan = true, true, &plan })
	if after := fixtures.TreeSnapshot(t, h.Dest, false); after != before {
		t.Fatalf("a dry run changed the mirror or the state:\nbefore\n%s\nafter\n%s", before, after)
	}
	if n := h.Src.ResourceBodies(); n != 0 {
		t.Errorf("a dry run fetched %d resources", n)
	}
	if sum.Created != 1 || sum.Updated != 1 || sum.WouldDelete != 1 {
		t.Errorf("dry run counts %+v would delete %d", sum.Counts, sum.WouldDelete)
	}
	for _, want := range []string{"create ", "update ", "delete "} {
		if !strings.Contains(plan.String(), want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.String())
		}
	}
}

func TestDryRunOfAnEmptyMirror(t *testing.T) {
	h := newHarness(t, nil)
	h.Close()
	os.RemoveAll(h.Dest)
	h.open(true)
	sum := h.mustRun(func(o *baseline.Options) { o.DryRun = true })
	if sum.Created != 60 {
		t.Fatalf("%+v", sum.Counts)
	}
	if _, err := os.Stat(h.Dest); !os.IsNotExist(err) {
		t.Fatalf("a dry run created the mirror directory: %v", err)
	}
}

func TestOutOfScopeResourcesAreSkipped(t *testing.T) {
	h := newHarness(t, nil)
	canary := fixtures.NewCanary(t) // a listener on 127.0.0.2 counting requests
	rl := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>
<url><loc>` + h.Src.Resources(0)[0].URI + `</loc></url>
<url><loc>` + canary.URL + `/stolen</loc></url>
<url><loc>file:///etc/passwd</loc></url>
</urlset>`
	h.Src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(rl))
	sum := h.mustRun(nil)
	if sum.Created != 1 || sum.Skipped != 2 {
		t.Fatalf("%+v", sum.Counts)
	}
	if n := canary.Requests(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
	// --allow-host lets the other host in.
	h.set.ResourceList = h.Src.ResourceListURL(0)
	sum = h.mustRun(func(o *baseline.Options) {
		o.Scope = resourcesync.NewScope([]string{h.Src.URL()}, []string{"127.0.0.2"})
	})
	if canary.Requests() == 0 || sum.Skipped != 1 {
		t.Errorf("with --allow-host: %+v, canary saw %d", sum.Counts, canary.Requests())
	}
}

func TestUnmappableAndConflictingPathsFailAlone(t *testing.T) {
	h := newHarness(t, nil)
	base := strings.TrimSuffix(h.Src.URL(), "/")
	h.Src.SetRaw("/x/a", "text/plain", []byte("a file"))
	h.Src.SetRaw("/x/a/b", "text/plain", []byte("a file below it"))
	rl := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>
<url><loc>` + base + `/x/a</loc></url>
<url><loc>` + base + `/x/a/b</loc></url>
<url><loc>` + h.Src.Resources(0)[0].URI + `</loc></url>
</urlset>`
	h.Src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(rl))
	sum := h.mustRun(func(o *baseline.Options) { o.Workers = 1 })
	if sum.Created != 2 || sum.Failed != 1 {
		t.Fatalf("%+v", sum.Counts)
	}
	if !strings.Contains(sum.Failures[0].Cause, "conflict") {
		t.Errorf("failure cause %q does not say conflict", sum.Failures[0].Cause)
	}
	fails, _ := h.DB.Failures(context.Background(), h.set.ID)
	if len(fails) != 1 {
		t.Errorf("state records %d failures, want 1", len(fails))
	}
}

func TestInterruptedRunResumes(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 200 })
	h.Src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 3 * time.Millisecond})
	// The stop comes from inside the run, at the 50th file staged (as a
	// first SIGINT would), so where it lands does not hang on how a test
	// goroutine is scheduled.
	drain, stop := context.WithCancel(context.Background())
	defer stop()
	o := baseline.DefaultOptions()
	o.Scope = resourcesync.NewScope([]string{h.Src.URL()}, nil)
	o.Drain, o.Workers, o.BatchSize = drain, 2, 10
	d := h.deps()
	d.Mirror = &desttest.DrainingMirror{Mirror: h.Mirror, After: 50, Stop: stop}
	sum, err := baseline.Run(context.Background(), h.set, d, o)
	if !errors.Is(err, resourcesync.ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	// What was staged before the stop is drained and recorded.
	done := sum.Created
	if done < 50 || done >= 200 {
		t.Fatalf("interrupted after %d", done)
	}
	st, _, _ := h.DB.Set(context.Background(), h.set.CapabilityList)
	if st.Baselined() {
		t.Errorf("an interrupted baseline recorded a baseline point")
	}
	h.Src.ClearFaults()
	h.Src.ResetCounts()
	sum = h.mustRun(nil)
	if sum.Created != 200-done || sum.Unchanged != done {
		t.Fatalf("resumed: %+v after %d done", sum.Counts, done)
	}
	if n := h.Src.ResourceBodies(); n != int(200-done) {
		t.Errorf("resume fetched %d bodies, want %d", n, 200-done)
	}
	h.AssertIdentical()
}

// The producer looks entries up in the state in batches of 100: a rerun
// must find every record, whatever the list's length is modulo the batch,
// and see a change wherever it falls.
func TestRerunAcrossLookupBatches(t *testing.T) {
	for _, n := range []int{1, 99, 100, 101, 250} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			h := newHarness(t, func(s *fixtures.Spec) { s.Resources = n })
			h.mustRun(nil)
			rs := h.Src.Resources(0)
			changed := rs[len(rs)-1]
			if err := h.Src.Apply(h.Src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Update, Path: changed.Path}); err != nil {
				t.Fatal(err)
			}
			h.Src.ResetCounts()
			sum := h.mustRun(nil)
			if sum.Updated != 1 || sum.Unchanged != int64(n-1) || sum.Created != 0 {
				t.Fatalf("rerun: %+v", sum.Counts)
			}
			if got := h.Src.ResourceBodies(); got != 1 {
				t.Errorf("rerun fetched %d resource bodies, want 1 (%s)", got, changed.URI)
			}
			h.AssertIdentical()
		})
	}
}
