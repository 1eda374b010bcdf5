package incremental_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestFailedChangeIsRetried(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	rs := h.Src.Resources(0)
	at := h.Src.At()
	t1, t2 := at.Add(time.Second), at.Add(2*time.Second)
	if err := h.Src.Apply(t1, fixtures.Mutation{Kind: fixtures.Update, Path: rs[0].Path}, fixtures.Mutation{Kind: fixtures.Update, Path: rs[1].Path}); err != nil {
		t.Fatal(err)
	}
	if err := h.Src.Apply(t2, fixtures.Mutation{Kind: fixtures.Update, Path: rs[2].Path}); err != nil {
		t.Fatal(err)
	}
	h.Src.SetNotFound(rs[0].Path)
	sum := h.mustRun(withDelete)
	if sum.Failed != 1 || sum.ChangesFailed != 1 || sum.Applied != 2 || len(sum.Failures) != 1 || sum.Failures[0].URI != rs[0].URI {
		t.Fatalf("%+v", sum)
	}
	// The failed change holds the cursor back; its cause is recorded.
	if st := h.state(); !st.Cursor.Equal(t1) {
		t.Errorf("cursor %v, want the failed change's time %v", st.Cursor, t1)
	}
	fails, err := h.DB.Failures(context.Background(), h.SetID)
	if err != nil || len(fails) != 1 || !strings.Contains(fails[0].Cause, "404") {
		t.Errorf("failures %+v %v", fails, err)
	}
	if rec, failed, _ := h.DB.ChangeStatus(context.Background(), h.SetID, rs[0].URI, resourcesync.ChangeUpdated, t1); !rec || !failed {
		t.Errorf("the failed change is not recorded as failed: %v %v", rec, failed)
	}

	h.Src.ClearRaw(rs[0].Path)
	h.Src.ResetCounts()
	sum = h.mustRun(withDelete)
	if sum.Changes != 3 || sum.AlreadyDone != 2 || sum.Applied != 1 || sum.Updated != 1 || h.Src.ResourceBodies() != 1 {
		t.Fatalf("retry: %+v, %d bodies", sum, h.Src.ResourceBodies())
	}
	if st := h.state(); !st.Cursor.Equal(t2) {
		t.Errorf("cursor %v, want %v", st.Cursor, t2)
	}
	if fails, _ := h.DB.Failures(context.Background(), h.SetID); len(fails) != 0 {
		t.Errorf("failures left: %+v", fails)
	}
	h.assertIdentical()
}

func TestStaleHashFailsThenRecovers(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	r := h.Src.Resources(0)[0]
	at := h.Src.At()
	if err := h.Src.Apply(at.Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: r.Path}); err != nil {
		t.Fatal(err)
	}
	v2, _ := h.Src.Resource(r.URI)
	if err := h.Src.Apply(at.Add(2*time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: r.Path}); err != nil {
		t.Fatal(err)
	}
	// A list read before the second update: its hash is stale.
	h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", rawChangeList(resourcesync.FormatDatetime(at),
		rawChange{r.URI, resourcesync.FormatDatetime(at.Add(time.Second)), "updated", md(v2)}))
	old, _ := os.ReadFile(h.PathOf(r.URI))
	sum := h.mustRun(withDelete)
	if sum.Failed != 1 || sum.ChangesFailed != 1 || !strings.Contains(sum.Failures[0].Cause, "does not match") {
		t.Fatalf("%+v", sum)
	}
	if now, _ := os.ReadFile(h.PathOf(r.URI)); !bytes.Equal(now, old) {
		t.Errorf("a copy that failed verification replaced the old one")
	}
	h.Src.ClearRaw("/dataset1/changelist.xml")
	sum = h.mustRun(withDelete)
	if sum.Failed != 0 || sum.Applied != 2 || sum.Updated != 1 {
		t.Fatalf("with the full list: %+v", sum)
	}
	h.assertIdentical()
}

func TestRetriesFailuresOfTheBaseline(t *testing.T) {
	h := newHarness(t, nil)
	r := h.Src.Resources(0)[9]
	h.Src.SetNotFound(r.Path)
	if sum := h.baseline(); sum.Failed != 1 {
		t.Fatalf("baseline: %+v", sum.Counts)
	}
	h.Src.ClearRaw(r.Path)
	h.Src.ResetCounts()
	sum := h.mustRun(withDelete)
	if sum.Retried != 1 || sum.Created != 1 || h.Src.ResourceBodies() != 1 {
		t.Fatalf("%+v, %d bodies", sum, h.Src.ResourceBodies())
	}
	if fails, _ := h.DB.Failures(context.Background(), h.SetID); len(fails) != 0 {
		t.Errorf("failures left: %+v", fails)
	}
	h.assertIdentical()
}

func TestInterruptedRunResumesExactly(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	h.advance(60)
	changes := h.Src.Changes(0)
	h.Src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 5 * time.Millisecond})
	h.Src.ResetCounts()
	// The stop comes from inside the run, at the 10th file staged, so
	// where it lands does not hang on how the test goroutine is scheduled.
	drain, stop := context.WithCancel(context.Background())
	o := incremental.DefaultOptions()
	withDelete(&o)
	o.Scope, o.Drain, o.BatchSize, o.Workers = h.Scope(), drain, 4, 2
	set := incremental.Set{ID: h.SetID, CapabilityList: h.Src.CapabilityListURL(0), ChangeList: h.Src.ChangeListURL(0), Cursor: h.state().Cursor}
	d := h.IncrementalDeps()
	d.Mirror = &desttest.DrainingMirror{Mirror: h.Mirror, After: 10, Stop: stop}
	_, err := incremental.Run(context.Background(), set, d, o)
	stop()
	if !errors.Is(err, resourcesync.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	// Every resource whose last change is not recorded is fetched again;
	// none whose change is.
	last := map[string]fixtures.ChangeInfo{}
	for _, c := range changes {
		last[c.URI] = c
	}
	cursor := h.state().Cursor
	want := 0
	for _, c := range last {
		if c.Change != resourcesync.ChangeDeleted && !c.At.Before(cursor) && !h.changeDone(c) {
			want++
		}
	}
	if want == 0 || want == finalFetches(changes) {
		t.Fatalf("the interruption came too early or too late to test a resume (%d to fetch)", want)
	}
	h.Src.ClearFaults()
	h.Src.ResetCounts()
	sum := h.mustRun(withDelete)
	if got := h.Src.ResourceBodies(); got != want {
		t.Errorf("resume fetched %d bodies, want %d: one per resource whose change was not recorded", got, want)
	}
	if sum.Failed != 0 {
		t.Errorf("%+v", sum)
	}
	h.assertIdentical()
}
