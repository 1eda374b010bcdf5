package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// auditDeps opens the mirror at dest and its state, read-only or not, as
// the command line does for audit and baseline; close releases them (also
// done at cleanup).
func auditDeps(t *testing.T, client agent.Client, dest string, readOnly bool) (d agent.Deps, close func()) {
	t.Helper()
	l := desttest.Open(t, dest, readOnly)
	tmp := t.TempDir()
	return agent.Deps{
		Client: client, Mirror: l.Mirror, Store: l.DB, TempDir: tmp, Log: zerolog.Nop(),
		NewListing:      func() (baseline.Listing, error) { return state.NewListing(tmp) },
		NewAuditListing: func() (audit.Listing, error) { return state.NewListing(tmp) },
		NewBacklog:      func() (incremental.Backlog, error) { return state.NewBacklog(tmp) },
	}, l.Close
}

func TestAuditEverySet(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
	client := testClient(t)
	ctx := context.Background()
	disc, err := agent.Discover(ctx, client, srv.URL, agent.DefaultDiscoverOptions())
	if err != nil {
		t.Fatal(err)
	}
	dest := t.TempDir()
	w, closeW := auditDeps(t, client, dest, false)
	if _, err := agent.Baseline(ctx, disc, w, agent.BaselineOptions{Worker: baseline.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	closeW()
	d, _ := auditDeps(t, client, dest, true)
	o := agent.AuditOptions{Worker: audit.DefaultOptions()}

	rep, err := agent.Audit(ctx, disc, d, o)
	if err != nil || !rep.InSync || len(rep.Sets) != 2 || rep.Counts.InSync != 20 || rep.Source != src.SourceDescriptionURL() {
		t.Fatalf("%v %+v", err, rep)
	}

	// One set's list is gone, the other has lost a file: the second is
	// still audited, and the error names the first.
	m, _ := mirror.NewMapper(nil)
	rel, _ := m.Path(src.Resources(1)[0].URI)
	os.Remove(filepath.Join(dest, rel))
	src.SetNotFound("/dataset1/resourcelist.xml")
	rep, err = agent.Audit(ctx, disc, d, o)
	if !errors.Is(err, resourcesync.ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if rep.InSync || rep.Counts.Missing != 1 || rep.Counts.Errors != 1 || rep.Sets[0].Error == "" || rep.Sets[1].Error != "" ||
		len(rep.Errors) != 1 || rep.Errors[0].CapabilityList != src.CapabilityListURL(0) {
		t.Errorf("%+v %+v", rep.Counts, rep.Errors)
	}

	// --capability-list selects one set.
	o.CapabilityList = src.CapabilityListURL(1)
	rep, err = agent.Audit(ctx, disc, d, o)
	if err != nil || len(rep.Sets) != 1 || rep.Counts.Listed != 10 || rep.Counts.Missing != 1 {
		t.Errorf("%v %+v", err, rep.Counts)
	}
	o.CapabilityList = srv.URL + "nope.xml"
	if _, err := agent.Audit(ctx, disc, d, o); err == nil {
		t.Error("an unknown --capability-list was accepted")
	}
}

// A set the state does not know holds nothing: every resource is missing.
// A local fault stops the job at the first set.
func TestAuditUnknownSetAndLocalFault(t *testing.T) {
	_, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
	client := testClient(t)
	ctx := context.Background()
	disc, err := agent.Discover(ctx, client, srv.URL, agent.DefaultDiscoverOptions())
	if err != nil {
		t.Fatal(err)
	}
	d, _ := auditDeps(t, client, filepath.Join(t.TempDir(), "never-synced"), true)
	rep, err := agent.Audit(ctx, disc, d, agent.AuditOptions{Worker: audit.DefaultOptions()})
	if err != nil || rep.Counts.Missing != 20 || rep.Counts.Listed != 20 {
		t.Fatalf("%v %+v", err, rep.Counts)
	}
	d.NewAuditListing = func() (audit.Listing, error) { return nil, errors.New("disk full") }
	rep, err = agent.Audit(ctx, disc, d, agent.AuditOptions{Worker: audit.DefaultOptions()})
	if !errors.Is(err, resourcesync.ErrLocal) || len(rep.Sets) != 1 {
		t.Errorf("err %v, %d sets", err, len(rep.Sets))
	}
}
