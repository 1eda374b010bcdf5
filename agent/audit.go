package agent

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// AuditOptions configure the audit job.
type AuditOptions struct {
	Worker         audit.Options
	CapabilityList string   // only this set ("" = every set)
	AllowHosts     []string // hosts besides the Source's own that resources may come from
}

// Audit compares the mirror with the Source's current state, set by set,
// and gathers the findings in one report. It writes nothing: the state is
// only read (a set it does not know holds nothing). A set that cannot be
// audited does not stop the others, except when the failure concerns the
// whole job (local disk or state, cancellation); the returned error joins
// the sets' errors, which are also in the report. The report is nil only
// when no set could be selected.
func Audit(ctx context.Context, disc *Discovery, d Deps, o AuditOptions) (*audit.Report, error) {
	sets, err := selectSets(disc, o.CapabilityList)
	if err != nil {
		return nil, err
	}
	source := disc.SourceDescription
	if source == "" {
		source = disc.Start
	}
	rep := audit.NewReport(source)
	wo := o.Worker
	wo.Scope = scope(disc, o.AllowHosts)
	err = eachSet(ctx, sets, func(s *SetInfo) error {
		sr, err := auditSet(ctx, s, d, wo)
		rep.Add(sr, err)
		return err
	})
	return rep, err
}

func auditSet(ctx context.Context, s *SetInfo, d Deps, wo audit.Options) (*audit.SetReport, error) {
	none := &audit.SetReport{CapabilityList: s.CapabilityList}
	if s.Err != nil {
		return none, s.Err
	}
	rl, ok := s.Doc(resourcesync.CapResourceList)
	if !ok {
		return none, fmt.Errorf("set %s offers no Resource List to audit against", s.CapabilityList)
	}
	cl, _ := s.Doc(resourcesync.CapChangeList)
	st, _, err := d.Store.Set(ctx, s.CapabilityList)
	if err != nil {
		return none, fmt.Errorf("read the state of set %s: %w: %w", s.CapabilityList, resourcesync.ErrLocal, err)
	}
	ad := audit.Deps{Open: d.open, Mirror: d.Mirror, Store: d.Store, NewListing: d.NewAuditListing,
		Log: d.Log.With().Str("capability_list", s.CapabilityList).Logger()}
	return audit.Run(ctx, audit.Set{ID: st.ID, CapabilityList: s.CapabilityList, ResourceList: rl, ChangeList: cl}, ad, wo)
}
