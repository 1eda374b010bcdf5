package agent_test

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/fixtures"
)

// TestDiscoverWhole: a discovery is whole only when it read the Source
// Description that names every set.
func TestDiscoverWhole(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
	d, err := discover(t, srv.URL)
	if err != nil || !d.Whole {
		t.Fatalf("discovery through the well-known URI: whole %v, %v", d != nil && d.Whole, err)
	}
	u, err := url.Parse(src.SourceDescriptionURL())
	if err != nil {
		t.Fatal(err)
	}
	src.SetNotFound(u.Path)
	d, err = discover(t, src.CapabilityListURL(1))
	if err != nil {
		t.Fatal(err)
	}
	if d.Whole || len(d.Sets) != 1 {
		t.Errorf("a Capability List whose Source Description cannot be read: whole %v, %d sets", d.Whole, len(d.Sets))
	}
}

// TestSyncRetiresASetNoLongerNamed: a recorded set missing from a whole
// discovery is retired by a job over every set - its files kept - and by
// nothing else.
func TestSyncRetiresASetNoLongerNamed(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		change func(disc *agent.Discovery, o *agent.SyncOptions)
		retire bool
	}{
		{"whole discovery", func(*agent.Discovery, *agent.SyncOptions) {}, true},
		{"partial discovery", func(d *agent.Discovery, _ *agent.SyncOptions) { d.Whole = false }, false},
		{"a set unreadable", func(d *agent.Discovery, _ *agent.SyncOptions) { d.Sets[0].Err = errors.New("503") }, false},
		{"one set only", func(d *agent.Discovery, o *agent.SyncOptions) { o.CapabilityList = d.Sets[0].CapabilityList }, false},
		{"another Source Description", func(d *agent.Discovery, _ *agent.SyncOptions) {
			d.SourceDescription = "http://elsewhere.example/.well-known/resourcesync"
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDestination(t, func(s *fixtures.Spec) { s.Sets = 2; s.Resources = 8 })
			if _, err := agent.Sync(ctx, d.disc, d.deps, d.syncOptions()); err != nil {
				t.Fatal(err)
			}
			gone := d.disc.Sets[1]
			st, _, err := d.db.Set(ctx, gone.CapabilityList)
			if err != nil {
				t.Fatal(err)
			}
			disc := *d.disc
			kept := *d.disc.Sets[0]
			disc.Sets = []*agent.SetInfo{&kept}
			o := d.syncOptions()
			tc.change(&disc, &o)
			for _, dry := range []bool{true, false} {
				o.Incremental.DryRun, o.Baseline.DryRun = dry, dry
				rep, err := agent.Sync(ctx, &disc, d.deps, o)
				if err != nil && kept.Err == nil {
					t.Fatal(err)
				}
				if got := rep != nil && len(rep.Retired) == 1; got != tc.retire {
					t.Fatalf("dry run %v: retired %+v, want retired %v", dry, rep, tc.retire)
				}
				if tc.retire && (rep.Retired[0].CapabilityList != gone.CapabilityList || rep.Retired[0].Files != 4) {
					t.Errorf("retired %+v, want %s with 4 files", rep.Retired[0], gone.CapabilityList)
				}
				_, known, err := d.db.Set(ctx, gone.CapabilityList)
				if err != nil || known != (dry || !tc.retire) {
					t.Errorf("dry run %v: set still recorded %v (%v)", dry, known, err)
				}
			}
			n, err := d.db.HeldCount(ctx, st.ID)
			if err != nil || (tc.retire && n != 0) || (!tc.retire && n != 4) {
				t.Errorf("records of the set after the runs: %d, %v", n, err)
			}
			for _, r := range d.src.Resources(1) {
				if _, err := d.deps.Mirror.Stat(relOf(t, d, r.URI)); err != nil {
					t.Errorf("a file of the set was not kept: %v", err)
				}
			}
		})
	}
}

func relOf(t *testing.T, d *destination, uri string) string {
	t.Helper()
	p, err := d.deps.Mirror.Path(uri)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
