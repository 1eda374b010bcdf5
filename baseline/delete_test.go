package baseline_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// deleteSome deletes n of the Source's resources.
func deleteSome(t *testing.T, h *harness, n int) []fixtures.ResourceInfo {
	t.Helper()
	rs := h.Src.Resources(0)[:n]
	var muts []fixtures.Mutation
	for _, r := range rs {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
	}
	if err := h.Src.Apply(h.Src.At().Add(time.Hour), muts...); err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestDeleteGuard(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	gone := deleteSome(t, h, 12) // 20% of the set
	_, err := h.run(func(o *baseline.Options) { o.Delete = true })
	if !errors.Is(err, resourcesync.ErrSafetyStop) {
		t.Fatalf("err = %v, want the deletion guard", err)
	}
	for _, r := range gone {
		if _, err := os.Stat(h.PathOf(r.URI)); err != nil {
			t.Fatalf("the guard tripped but %s was deleted", r.URI)
		}
	}
	sum := h.mustRun(func(o *baseline.Options) {
		o.Delete = true
		o.MaxDelete, _ = transfer.ParseDeleteLimit("12")
	})
	if sum.Deleted != 12 {
		t.Fatalf("%+v", sum.Counts)
	}
	h.AssertIdentical()
}

func TestEmptyListDeletesNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	h.Src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2030-01-01T00:00:00Z"/></urlset>`))
	_, err := h.run(func(o *baseline.Options) { o.Delete = true })
	if !errors.Is(err, resourcesync.ErrSafetyStop) {
		t.Fatalf("err = %v, want the deletion guard", err)
	}
	if n := len(h.Files()); n != 60 {
		t.Errorf("%d files left of 60", n)
	}
}

func TestFailingIndexPartDeletesNothing(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.ListMax = 10 })
	h.mustRun(nil)
	deleteSome(t, h, 1)
	stray := filepath.Join(filepath.Dir(h.PathOf(h.Src.Resources(0)[0].URI)), "stray.txt")
	os.WriteFile(stray, []byte("not from the Source"), 0o644)
	h.Src.SetNotFound("/dataset1/resourcelist-3.xml")
	before, _, _ := h.DB.Set(context.Background(), h.set.CapabilityList)
	sum, err := h.run(func(o *baseline.Options) {
		o.Delete = true
		o.MaxDelete, _ = transfer.ParseDeleteLimit("100%")
	})
	if !errors.Is(err, resourcesync.ErrNotFound) {
		t.Fatalf("err = %v, want the part's 404", err)
	}
	if sum.Deleted != 0 || sum.ListComplete {
		t.Fatalf("%+v complete=%v", sum.Counts, sum.ListComplete)
	}
	if n := len(h.Files()); n != 61 {
		t.Errorf("%d files, want the 60 held and the stray one", n)
	}
	after, _, _ := h.DB.Set(context.Background(), h.set.CapabilityList)
	if !after.BaselineAt.Equal(before.BaselineAt) {
		t.Errorf("an incomplete baseline moved the baseline point from %v to %v", before.BaselineAt, after.BaselineAt)
	}
}

func TestDeleteRemovesFilesItNeverWrote(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	dir := filepath.Dir(h.PathOf(h.Src.Resources(0)[0].URI))
	stray := filepath.Join(dir, "stray.txt")
	os.WriteFile(stray, []byte("x"), 0o644)
	other := filepath.Join(h.Dest, "elsewhere", "keep.txt") // outside the set's tree
	os.MkdirAll(filepath.Dir(other), 0o755)
	os.WriteFile(other, []byte("y"), 0o644)
	sum := h.mustRun(nil)
	if sum.WouldDelete != 1 {
		t.Fatalf("would delete %d, want 1", sum.WouldDelete)
	}
	sum = h.mustRun(func(o *baseline.Options) {
		o.Delete = true
		o.MaxDelete, _ = transfer.ParseDeleteLimit("5%")
	})
	if sum.Deleted != 1 {
		t.Fatalf("%+v", sum.Counts)
	}
	if _, err := os.Stat(stray); !os.IsNotExist(err) {
		t.Errorf("the stray file is still there")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file outside the set's tree was touched: %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.Dest, ".resync-dest", "state.db")); err != nil {
		t.Errorf("the state was touched: %v", err)
	}
}

// The deletion pass is skipped only when the run starts from nothing: a
// file already in the mirror, or a record in the state, makes it run.
func TestFirstBaselineFindsWhatWasThere(t *testing.T) {
	t.Run("a file in the mirror", func(t *testing.T) {
		h := newHarness(t, nil)
		stray := filepath.Join(filepath.Dir(h.PathOf(h.Src.Resources(0)[0].URI)), "stray.txt")
		if err := os.MkdirAll(filepath.Dir(stray), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(stray, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if sum := h.mustRun(nil); sum.WouldDelete != 1 || sum.Created != 60 {
			t.Fatalf("first run into a mirror with a stray file: %+v, would delete %d, want 1", sum.Counts, sum.WouldDelete)
		}
	})
	t.Run("records of files gone", func(t *testing.T) {
		h := newHarness(t, nil)
		h.mustRun(nil)
		gone := deleteSome(t, h, 1)[0]
		entries, err := os.ReadDir(h.Dest)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries { // empty the mirror but for its state
			if e.Name() != ".resync-dest" {
				if err := os.RemoveAll(filepath.Join(h.Dest, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		h.reopen(false) // a new run, as after a restart
		if sum := h.mustRun(nil); sum.Created != 59 {
			t.Fatalf("rerun into an emptied mirror: %+v", sum.Counts)
		}
		if _, ok, _ := h.DB.Held(context.Background(), h.set.ID, gone.URI); ok {
			t.Errorf("the state still holds %s, which is neither listed nor on disk", gone.URI)
		}
		h.AssertIdentical()
	})
}

// A part of a split baseline (one Resource List of an index) copies and
// records its list's resources, but deletes nothing - even with --delete,
// a stray file is kept - and records no baseline point: the set's own job
// does both once every part is in.
func TestPartNeitherDeletesNorRecordsThePoint(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.ListMax = 20 })
	stray := filepath.Join(h.Dest, "stray.txt")
	if err := os.WriteFile(stray, []byte("not from the Source"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := h.BaselineOptions()
	o.Part, o.Delete = true, true
	o.MaxDelete, _ = transfer.ParseDeleteLimit("100%")
	part := baseline.Set{ID: h.EnsureSet(0), CapabilityList: h.Src.CapabilityListURL(0), ResourceList: h.Src.URI("/dataset1/resourcelist-2.xml")}
	sum, err := baseline.Run(context.Background(), part, h.BaselineDeps(), o)
	if err != nil || sum.Created != 20 || sum.Deleted != 0 {
		t.Fatalf("the part: %+v, %v", sum.Counts, err)
	}
	if _, err := os.Stat(stray); err != nil {
		t.Errorf("a part deleted a file: %v", err)
	}
	if n, _ := h.DB.HeldCount(context.Background(), part.ID); n != 20 {
		t.Errorf("%d resources recorded, want the part's 20", n)
	}
	if st, _, err := h.DB.Set(context.Background(), part.CapabilityList); err != nil || st.Baselined() {
		t.Fatalf("a part recorded a baseline point (%v)", err)
	}
}
