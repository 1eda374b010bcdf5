package baseline_test

import (
	"testing"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
)

// harness is the shared one (desttest.Harness), open read-write, and
// set 0 as baseline copies it.
type harness struct {
	*desttest.Harness
	set baseline.Set
}

func newHarness(t *testing.T, mod func(*fixtures.Spec)) *harness {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 60
	if mod != nil {
		mod(&spec)
	}
	h := &harness{Harness: desttest.NewHarness(t, spec)}
	h.open(false)
	return h
}

// open opens the mirror and the state, read-only for a dry run.
func (h *harness) open(readOnly bool) {
	h.Open(readOnly)
	h.set = baseline.Set{ID: h.SetID, CapabilityList: h.Src.CapabilityListURL(0), ResourceList: h.Src.ResourceListURL(0)}
}

func (h *harness) reopen(readOnly bool) {
	h.Close()
	h.open(readOnly)
}

func (h *harness) deps() baseline.Deps { return h.BaselineDeps() }

// run runs a baseline of the set with default options changed by mod.
func (h *harness) run(mod func(*baseline.Options)) (*baseline.Summary, error) {
	h.T.Helper()
	return h.Baseline(0, mod)
}

// mustRun runs a baseline that must succeed.
func (h *harness) mustRun(mod func(*baseline.Options)) *baseline.Summary {
	h.T.Helper()
	sum, err := h.run(mod)
	if err != nil {
		h.T.Fatalf("baseline: %v", err)
	}
	return sum
}
