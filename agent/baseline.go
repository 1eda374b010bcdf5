package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// BaselineOptions configure the baseline job.
type BaselineOptions struct {
	Worker         baseline.Options
	CapabilityList string   // only this set ("" = every set)
	AllowHosts     []string // hosts besides the Source's own that resources may come from
	// Via is what a set is copied from: ViaList, ViaDump, or ViaAuto (the
	// default when empty).
	Via string
}

// Values of BaselineOptions.Via (--via).
const (
	ViaList = "list" // the Resource List
	ViaDump = "dump" // the Resource Dump
	// ViaAuto: the Resource Dump for a set that holds nothing yet, when
	// the set offers one; the Resource List otherwise.
	ViaAuto = "auto"
)

// SetReport is the outcome of a job for one set.
type SetReport struct {
	CapabilityList string            `json:"capability_list"`
	Baseline       *baseline.Summary `json:"baseline,omitempty"`
	// Incremental is the set's incremental sync (with Baseline too when a
	// gap in the history made a new baseline).
	Incremental *incremental.Summary `json:"incremental,omitempty"`
	Err         error                `json:"-"`
	Error       string               `json:"error,omitempty"`
}

// Report is the outcome of a job over every set.
type Report struct {
	Source string              `json:"source"`
	Sets   []*SetReport        `json:"sets"`
	Counts resourcesync.Counts `json:"counts"`
	DryRun bool                `json:"dry_run,omitempty"`
}

// Baseline makes a verified copy of every selected set from its Resource
// List or its Resource Dump (o.Via). A set that fails does not stop the others, except when the failure
// concerns the whole run (local disk or state, interruption); the returned
// error joins the sets' errors.
func Baseline(ctx context.Context, disc *Discovery, d Deps, o BaselineOptions) (*Report, error) {
	sets, err := selectSets(disc, o.CapabilityList)
	if err != nil {
		return nil, err
	}
	rep := &Report{Source: disc.SourceDescription, DryRun: o.Worker.DryRun}
	if rep.Source == "" {
		rep.Source = disc.Start
	}
	wo := o.Worker
	wo.Scope = scope(disc, o.AllowHosts)
	var errs []error
	for _, s := range sets {
		sr := &SetReport{CapabilityList: s.CapabilityList}
		rep.Sets = append(rep.Sets, sr)
		sr.Err = baselineSet(ctx, disc, s, d, wo, o.Via, sr)
		if sr.Err != nil {
			sr.Error = sr.Err.Error()
			errs = append(errs, sr.Err)
			if stopsEverything(ctx, sr.Err) {
				break
			}
		}
	}
	rep.total()
	return rep, errors.Join(errs...)
}

func baselineSet(ctx context.Context, disc *Discovery, s *SetInfo, d Deps, wo baseline.Options, via string, sr *SetReport) error {
	if s.Err != nil {
		return s.Err
	}
	st, err := setState(ctx, d.Store, s.CapabilityList, disc.SourceDescription, wo.DryRun)
	if err != nil {
		return err
	}
	set, err := baselineSource(ctx, s, d.Store, st.ID, via)
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

// baselineSource decides what the set's baseline copies from, per via. A
// Resource Dump is the efficient way to make a first copy (a few large
// downloads instead of one request per resource), but it carries every
// byte again; the Resource List skips what is held without downloading it.
// So auto takes the dump only for a set that holds nothing yet.
func baselineSource(ctx context.Context, s *SetInfo, st Store, setID int64, via string) (baseline.Set, error) {
	set := baseline.Set{ID: setID, CapabilityList: s.CapabilityList}
	rl, hasList := s.Doc(resourcesync.CapResourceList)
	rd, hasDump := s.Doc(resourcesync.CapResourceDump)
	switch via {
	case ViaList:
	case ViaDump:
		if !hasDump {
			return set, fmt.Errorf("set %s offers no Resource Dump (use --via list or auto)", s.CapabilityList)
		}
		set.ResourceDump = rd
		return set, nil
	case ViaAuto, "":
		if hasDump {
			n, err := st.HeldCount(ctx, setID)
			if err != nil {
				return set, fmt.Errorf("count what set %s holds: %w: %w", s.CapabilityList, resourcesync.ErrLocal, err)
			}
			if n == 0 || !hasList {
				set.ResourceDump = rd
				return set, nil
			}
		}
	default:
		return set, fmt.Errorf("via %q: want list, dump or auto", via)
	}
	if !hasList {
		return set, fmt.Errorf("set %s offers no Resource List to make a baseline from", s.CapabilityList)
	}
	set.ResourceList = rl
	return set, nil
}

// setState returns the state's record of a set, creating it unless this is
// a dry run (which writes nothing: an unknown set then has ID 0, which
// holds nothing).
func setState(ctx context.Context, st Store, capabilityList, source string, dryRun bool) (resourcesync.SetState, error) {
	if dryRun {
		s, _, err := st.Set(ctx, capabilityList)
		return s, err
	}
	return st.EnsureSet(ctx, capabilityList, source)
}

// stopsEverything reports whether an error ends the whole job rather than
// one set: an interruption or cancellation, or a local fault (disk, state).
// Anything about one set's documents lets the other sets go on.
func stopsEverything(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, resourcesync.ErrInterrupted) || errors.Is(err, resourcesync.ErrLocal)
}

// total adds up the sets' counts.
func (r *Report) total() {
	r.Counts = resourcesync.Counts{}
	for _, s := range r.Sets {
		if s.Baseline != nil {
			r.Counts.Add(s.Baseline.Counts)
		}
		if s.Incremental != nil {
			r.Counts.Add(s.Incremental.Counts)
		}
	}
}
