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
	// A set whose Capability List moved is audited against the records of
	// its old name, which the next sync takes over (reconcileSets): its
	// files are its own, not another set's.
	moves, _, err := findMoves(ctx, disc, sets, d)
	if err != nil {
		return nil, err
	}
	rep := audit.NewReport(source)
	wo := o.Worker
	wo.Scope = scope(disc, o.AllowHosts)
	err = eachSet(ctx, sets, func(s *SetInfo) error {
		sr, err := auditSet(ctx, s, moves[s.CapabilityList], d, wo)
		rep.Add(sr, err)
		return err
	})
	return rep, err
}

// auditSet audits one set; movedFrom is the Capability List the state
// knows it by, when the Source moved it.
func auditSet(ctx context.Context, s *SetInfo, movedFrom string, d Deps, wo audit.Options) (*audit.SetReport, error) {
	none := &audit.SetReport{CapabilityList: s.CapabilityList}
	if s.Err != nil {
		return none, s.Err
	}
	rl, ok := s.Doc(resourcesync.CapResourceList)
	if !ok {
		return none, fmt.Errorf("set %s offers no Resource List to audit against", s.CapabilityList)
	}
	cl, _ := s.Doc(resourcesync.CapChangeList)
	known := s.CapabilityList
	if movedFrom != "" {
		known = movedFrom
	}
	st, _, err := d.Store.Set(ctx, known)
	if err != nil {
		return none, fmt.Errorf("read the state of set %s: %w: %w", known, resourcesync.ErrLocal, err)
	}
	log := d.Log.With().Str("capability_list", s.CapabilityList).Logger()
	ad := audit.Deps{Open: d.open, Mirror: d.Mirror, Store: d.Store, NewListing: d.NewAuditListing, Log: log}
	sr, err := audit.Run(ctx, audit.Set{ID: st.ID, CapabilityList: s.CapabilityList, ResourceList: rl, ChangeList: cl}, ad, wo)
	if movedFrom != "" && sr != nil {
		msg := fmt.Sprintf("the Source moved this set's Capability List from %s: audited against the records of that set (the next baseline or sync moves them)", movedFrom)
		log.Info().Str("from", movedFrom).Msg("the Source moved this set's Capability List: audited against its records")
		sr.Warnings = append(sr.Warnings, msg)
	}
	return sr, err
}
