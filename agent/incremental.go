package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// IncrementalOptions configure the incremental job.
type IncrementalOptions struct {
	Worker incremental.Options
	// Baseline configures the baseline that replaces the incremental sync
	// of a set whose change history has a gap, with RebaselineOnGap.
	Baseline       baseline.Options
	CapabilityList string   // only this set ("" = every set)
	AllowHosts     []string // hosts besides the Source's own that resources may come from
	// From, when set, is where to start instead of the set's cursor: the
	// time of the first change to apply. A set never synced needs it.
	From time.Time
	// RebaselineOnGap makes a new baseline of a set whose Source's history
	// no longer reaches back to its cursor, instead of a safety stop.
	RebaselineOnGap bool
	// Via is what the changes are read from: the Change List, the Change
	// Dump, or (ViaAuto, the default when empty) the Change List when the
	// set offers one, else the Change Dump. A new baseline
	// (RebaselineOnGap) uses it as BaselineOptions.Via does.
	Via resourcesync.Via
}

// Incremental applies every selected set's changes since its cursor (or
// o.From). It refuses at once, with ErrNoStartingPoint and nothing done,
// when a set was never synced and o.From is zero. A set that fails does
// not stop the others, except when the failure concerns the whole run
// (local disk or state, interruption); the returned error joins the sets'
// errors.
func Incremental(ctx context.Context, disc *Discovery, d Deps, o IncrementalOptions) (*Report, error) {
	retired, err := reconcileSets(ctx, disc, o.CapabilityList, d, o.Worker.DryRun)
	if err != nil {
		return nil, err
	}
	if o.From.IsZero() {
		sets, err := selectSets(disc, o.CapabilityList)
		if err != nil {
			return nil, err
		}
		if err := checkStartingPoints(ctx, d.Store, sets); err != nil {
			return nil, err
		}
	}
	j := o.job(disc)
	return runSets(ctx, disc, o.CapabilityList, o.Worker.DryRun, retired, func(s *SetInfo, sr *SetReport) error {
		return j.incrementalSet(ctx, disc, s, d, o.From, sr)
	})
}

// syncJob is what the incremental and sync jobs share: the workers'
// options with the Source's scope.
type syncJob struct {
	inc             incremental.Options
	base            baseline.Options
	rebaselineOnGap bool
	via             resourcesync.Via
}

func (o IncrementalOptions) job(disc *Discovery) syncJob {
	sc := scope(disc, o.AllowHosts)
	j := syncJob{inc: o.Worker, base: o.Baseline, rebaselineOnGap: o.RebaselineOnGap, via: o.Via}
	j.inc.Scope, j.base.Scope = sc, sc
	return j
}

// incrementalSet applies one set's changes from its cursor, or from from
// when it is set; on a gap in the history it makes a new baseline when
// asked to.
func (j syncJob) incrementalSet(ctx context.Context, disc *Discovery, s *SetInfo, d Deps, from time.Time, sr *SetReport) error {
	set, err := planChanges(s, j.via)
	if err != nil {
		return err
	}
	st, err := setState(ctx, d.Store, s.CapabilityList, disc.SourceDescription, j.inc.DryRun)
	if err != nil {
		return fmt.Errorf("read the state of set %s: %w: %w", s.CapabilityList, resourcesync.ErrLocal, err)
	}
	cursor, err := startingPoint(s.CapabilityList, st, from)
	if err != nil {
		return err
	}
	log := d.Log.With().Str("capability_list", s.CapabilityList).Logger()
	if set.ChangeDump != "" {
		log.Info().Str("change_dump", set.ChangeDump).Str("from", resourcesync.FormatDatetime(cursor)).Msg("incremental")
	} else {
		log.Info().Str("change_list", set.ChangeList).Str("from", resourcesync.FormatDatetime(cursor)).Msg("incremental")
	}
	set.ID, set.Cursor = st.ID, cursor
	sum, err := incremental.Run(ctx, set, d.incremental(log), j.inc)
	sr.Incremental = sum
	var gap *incremental.GapError
	if errors.As(err, &gap) && j.rebaselineOnGap {
		log.Warn().Err(err).Msg("making a new baseline (--rebaseline-on-gap)")
		if err := baselineSet(ctx, disc, s, d, j.base, j.via, sr); err != nil {
			return err
		}
		return newCursor(ctx, d.Store, s.CapabilityList, sum)
	}
	return err
}

// newCursor puts the cursor the new baseline recorded into the summary of
// the incremental run that found the gap, so that the summary says where
// the next run starts, as status does - not the cursor the gap left behind.
func newCursor(ctx context.Context, st Store, capabilityList string, sum *incremental.Summary) error {
	if sum == nil {
		return nil
	}
	state, _, err := st.Set(ctx, capabilityList)
	if err != nil {
		return fmt.Errorf("read the state of set %s: %w: %w", capabilityList, resourcesync.ErrLocal, err)
	}
	if !state.Cursor.IsZero() {
		sum.Cursor = state.Cursor
	}
	return nil
}
