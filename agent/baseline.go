package agent

import (
	"context"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// BaselineOptions configure the baseline job.
type BaselineOptions struct {
	Worker         baseline.Options
	CapabilityList string   // only this set ("" = every set)
	AllowHosts     []string // hosts besides the Source's own that resources may come from
	// Via is what a set is copied from: the Resource List, the Resource
	// Dump, or (ViaAuto, the default when empty) the Resource Dump for a
	// set that holds nothing yet when it offers one, else the list.
	Via resourcesync.Via
}

// Baseline makes a verified copy of every selected set from its Resource
// List or its Resource Dump (o.Via). A set that fails does not stop the
// others, except when the failure concerns the whole run (local disk or
// state, interruption); the returned error joins the sets' errors.
func Baseline(ctx context.Context, disc *Discovery, d Deps, o BaselineOptions) (*Report, error) {
	wo := o.Worker
	wo.Scope = scope(disc, o.AllowHosts)
	retired, err := reconcileSets(ctx, disc, o.CapabilityList, d, wo.DryRun)
	if err != nil {
		return nil, err
	}
	return runSets(ctx, disc, o.CapabilityList, wo.DryRun, retired, func(s *SetInfo, sr *SetReport) error {
		return baselineSet(ctx, disc, s, d, wo, o.Via, sr)
	})
}

func baselineSet(ctx context.Context, disc *Discovery, s *SetInfo, d Deps, wo baseline.Options, via resourcesync.Via, sr *SetReport) error {
	st, err := setState(ctx, d.Store, s.CapabilityList, disc.SourceDescription, wo.DryRun)
	if err != nil {
		return err
	}
	set, err := planBaseline(ctx, s, d.Store, st.ID, via)
	if err != nil {
		return err
	}
	log := d.Log.With().Str("capability_list", s.CapabilityList).Logger()
	if set.ResourceDump != "" {
		log.Info().Str("resource_dump", set.ResourceDump).Msg("baseline")
	} else {
		log.Info().Str("resource_list", set.ResourceList).Msg("baseline")
	}
	sum, err := baseline.Run(ctx, set, d.baseline(log), wo)
	sr.Baseline = sum
	return err
}
