package baseline_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// countListings runs a baseline of the set and returns how many listings
// it made.
func (h *harness) countListings() int {
	h.T.Helper()
	d := h.deps()
	n := 0
	d.NewListing = func() (baseline.Listing, error) {
		n++
		return state.NewListing(h.T.TempDir())
	}
	if _, err := baseline.Run(context.Background(), h.set, d, h.BaselineOptions()); err != nil {
		h.T.Fatalf("baseline: %v", err)
	}
	return n
}

// A first baseline into an empty mirror keeps no listing of what it
// listed: nothing will ask it (no deletion pass, no partial to sweep). A
// baseline over what is held does.
func TestFreshStartKeepsNoListing(t *testing.T) {
	h := newHarness(t, nil)
	if n := h.countListings(); n != 0 {
		t.Errorf("the first baseline made %d listings, want none", n)
	}
	h.AssertIdentical()
	if n := h.countListings(); n != 1 {
		t.Errorf("the second baseline made %d listings, want one", n)
	}
}

// A partial download kept is not a fresh start, even in a mirror with no
// file: the partial of a path the list no longer names is swept.
func TestPartialKeptIsNoFreshStart(t *testing.T) {
	h := newHarness(t, nil)
	uri := h.Src.URL() + "dataset1/res/000/unlisted.txt"
	rel, err := h.Mirror.Path(uri)
	if err != nil {
		t.Fatal(err)
	}
	cut := errors.New("cut off")
	_, err = h.Mirror.Put(rel, h.Src.At(), func(s resourcesync.Sink) (bool, error) {
		k, ok := s.(interface {
			Keep(url, validator string) error
		})
		if !ok {
			t.Fatal("the mirror's sink cannot keep a partial download")
		}
		if err := k.Keep(uri, `"v1"`); err != nil {
			return false, err
		}
		_, err := io.WriteString(s, "the first bytes")
		return false, errors.Join(err, cut)
	})
	if !errors.Is(err, cut) {
		t.Fatalf("Put: %v, want the fill's error", err)
	}
	if kept, err := h.Mirror.HasPartials(); err != nil || !kept {
		t.Fatalf("HasPartials = %v, %v after a download was cut off", kept, err)
	}
	if n := h.countListings(); n != 1 {
		t.Errorf("the baseline made %d listings, want one", n)
	}
	if kept, err := h.Mirror.HasPartials(); err != nil || kept {
		t.Errorf("HasPartials = %v, %v: the partial of an unlisted path was not swept", kept, err)
	}
	h.AssertIdentical()
}
