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
	"github.com/resync-dest/resync-dest/source"
	"github.com/resync-dest/resync-dest/state"
)

// The adapters satisfy the audit's interfaces.
var (
	_ audit.Fetcher = (*source.Client)(nil)
	_ audit.Mirror  = (*mirror.Mirror)(nil)
	_ audit.Store   = (*state.DB)(nil)
	_ audit.Listing = (*state.Listing)(nil)
)

// harness is a fixture Source on loopback and a Destination made of the
// real adapters: the HTTP client, a mirror in a temp directory and a
// SQLite state file. Baselines write the mirror; audits open it read-only.
type harness struct {
	t      testing.TB
	src    *fixtures.Source
	srv    *fixtures.Server
	client *source.Client
	dest   string
}

func newHarness(t testing.TB, mod func(*fixtures.Spec)) *harness {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 40
	if mod != nil {
		mod(&spec)
	}
	src, srv := fixtures.NewServed(t, spec)
	return &harness{t: t, src: src, srv: srv, client: desttest.Client(t), dest: filepath.Join(t.TempDir(), "mirror")}
}

func (h *harness) statePath() string { return desttest.StatePath(h.dest) }

// open opens the mirror (locked) and the state; close with the returned
// function.
func (h *harness) open(readOnly bool) (*mirror.Mirror, *state.DB, func()) {
	h.t.Helper()
	l := desttest.Open(h.t, h.dest, readOnly)
	return l.Mirror, l.DB, l.Close
}

// baseline brings set k of the mirror in step with the Source.
func (h *harness) baseline(k int, mod func(*baseline.Options)) *baseline.Summary {
	t := h.t
	t.Helper()
	m, db, closeAll := h.open(false)
	defer closeAll()
	st, err := db.EnsureSet(context.Background(), h.src.CapabilityListURL(k), h.src.SourceDescriptionURL())
	if err != nil {
		t.Fatal(err)
	}
	o := baseline.DefaultOptions()
	o.Workers = 4
	o.Scope = resourcesync.NewScope([]string{h.src.URL()}, nil)
	if mod != nil {
		mod(&o)
	}
	d := baseline.Deps{Fetcher: h.client, Mirror: m, Store: db, Log: zerolog.Nop(),
		NewListing: func() (baseline.Listing, error) { return state.NewListing(t.TempDir()) }}
	sum, err := baseline.Run(context.Background(), baseline.Set{ID: st.ID, CapabilityList: h.src.CapabilityListURL(k),
		ResourceList: h.src.ResourceListURL(k)}, d, o)
	if err != nil {
		t.Fatalf("baseline: %v", err)
	}
	return sum
}

// audit audits set k read-only and returns the set's report, the whole
// report (the set's findings are in it) and the error.
func (h *harness) audit(k int, mod func(*audit.Set, *audit.Options)) (*audit.SetReport, *audit.Report, error) {
	t := h.t
	t.Helper()
	m, db, closeAll := h.open(true)
	defer closeAll()
	st, _, err := db.Set(context.Background(), h.src.CapabilityListURL(k))
	if err != nil {
		t.Fatal(err)
	}
	set := audit.Set{ID: st.ID, CapabilityList: h.src.CapabilityListURL(k), ResourceList: h.src.ResourceListURL(k)}
	if !h.src.Spec().NoChangeList {
		set.ChangeList = h.src.ChangeListURL(k)
	}
	o := audit.DefaultOptions()
	o.Workers = 3
	o.Scope = resourcesync.NewScope([]string{h.src.URL()}, nil)
	if mod != nil {
		mod(&set, &o)
	}
	d := audit.Deps{Fetcher: h.client, Mirror: m, Store: db, Log: zerolog.Nop(),
		NewListing: func() (audit.Listing, error) { return state.NewListing(t.TempDir()) }}
	sr, err := audit.Run(context.Background(), set, d, o)
	rep := audit.NewReport(h.src.SourceDescriptionURL())
	rep.Add(sr, err)
	return sr, rep, err
}

// mustAudit audits set 0 and fails the test on an error.
func (h *harness) mustAudit(mod func(*audit.Set, *audit.Options)) *audit.Report {
	h.t.Helper()
	_, rep, err := h.audit(0, mod)
	if err != nil {
		h.t.Fatalf("audit: %v", err)
	}
	return rep
}

// rel is the mirror path of a URI.
func (h *harness) rel(uri string) string {
	h.t.Helper()
	mp, err := mirror.NewMapper(nil)
	if err != nil {
		h.t.Fatal(err)
	}
	p, err := mp.Path(uri)
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

// file is the absolute local path of a mirror path.
func (h *harness) file(rel string) string { return filepath.Join(h.dest, filepath.FromSlash(rel)) }

// hostPort is the Source's authority, which appears in URIs and paths.
func (h *harness) hostPort() string {
	return strings.TrimSuffix(strings.TrimPrefix(h.src.URL(), "http://"), "/")
}
