package audit_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// The adapters satisfy the audit's interfaces.
var (
	_ audit.Mirror  = (*mirror.Mirror)(nil)
	_ audit.Store   = (*state.DB)(nil)
	_ audit.Listing = (*state.Listing)(nil)
)

// harness is the shared one (desttest.Harness): baselines write the
// mirror; audits open it read-only.
type harness struct {
	*desttest.Harness
}

func newHarness(t testing.TB, mod func(*fixtures.Spec)) *harness {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 40
	if mod != nil {
		mod(&spec)
	}
	return &harness{desttest.NewHarness(t, spec)}
}

func (h *harness) statePath() string { return desttest.StatePath(h.Dest) }

// open opens the mirror (locked) and the state; close with the returned
// function.
func (h *harness) open(readOnly bool) (*mirror.Mirror, *state.DB, func()) {
	h.T.Helper()
	h.Open(readOnly)
	return h.Mirror, h.DB, h.Close
}

// baseline brings set k of the mirror in step with the Source.
func (h *harness) baseline(k int, mod func(*baseline.Options)) *baseline.Summary {
	t := h.T
	t.Helper()
	_, _, closeAll := h.open(false)
	defer closeAll()
	o := func(o *baseline.Options) {
		o.Workers = 4
		if mod != nil {
			mod(o)
		}
	}
	sum, err := h.Baseline(k, o)
	if err != nil {
		t.Fatalf("baseline: %v", err)
	}
	return sum
}

// audit audits set k read-only and returns the set's report, the whole
// report (the set's findings are in it) and the error.
func (h *harness) audit(k int, mod func(*audit.Set, *audit.Options)) (*audit.SetReport, *audit.Report, error) {
	t := h.T
	t.Helper()
	m, db, closeAll := h.open(true)
	defer closeAll()
	st, _, err := db.Set(context.Background(), h.Src.CapabilityListURL(k))
	if err != nil {
		t.Fatal(err)
	}
	set := audit.Set{ID: st.ID, CapabilityList: h.Src.CapabilityListURL(k), ResourceList: h.Src.ResourceListURL(k)}
	if !h.Src.Spec().NoChangeList {
		set.ChangeList = h.Src.ChangeListURL(k)
	}
	o := audit.DefaultOptions()
	o.Workers = 3
	o.Scope = resourcesync.NewScope([]string{h.Src.URL()}, nil)
	if mod != nil {
		mod(&set, &o)
	}
	d := audit.Deps{Open: h.Opener(), Mirror: m, Store: db, Log: zerolog.Nop(),
		NewListing: func() (audit.Listing, error) { return state.NewListing(t.TempDir()) }}
	sr, err := audit.Run(context.Background(), set, d, o)
	rep := audit.NewReport(h.Src.SourceDescriptionURL())
	rep.Add(sr, err)
	return sr, rep, err
}

// mustAudit audits set 0 and fails the test on an error.
func (h *harness) mustAudit(mod func(*audit.Set, *audit.Options)) *audit.Report {
	h.T.Helper()
	_, rep, err := h.audit(0, mod)
	if err != nil {
		h.T.Fatalf("audit: %v", err)
	}
	return rep
}

// rel is the mirror path of a URI.
func (h *harness) rel(uri string) string {
	h.T.Helper()
	mp, err := mirror.NewMapper(nil)
	if err != nil {
		h.T.Fatal(err)
	}
	p, err := mp.Path(uri)
	if err != nil {
		h.T.Fatal(err)
	}
	return p
}

// file is the absolute local path of a mirror path.
func (h *harness) file(rel string) string { return filepath.Join(h.Dest, filepath.FromSlash(rel)) }

// hostPort is the Source's authority, which appears in URIs and paths.
func (h *harness) hostPort() string {
	return strings.TrimSuffix(strings.TrimPrefix(h.Src.URL(), "http://"), "/")
}
