package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// ErrNoStartingPoint: an incremental sync was asked for a set that was
// never synced, without a time to start from. Nothing was done.
var ErrNoStartingPoint = errors.New("no starting point for incremental sync")

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
	// Via is what the changes are read from: ViaList (the Change List),
	// ViaDump (the Change Dump), or ViaAuto (the default when empty): the
	// Change List when the set offers one, else the Change Dump. A new
	// baseline (RebaselineOnGap) uses it as BaselineOptions.Via does.
	Via string
}

// Incremental applies every selected set's changes since its cursor (or
// o.From). It refuses at once, with ErrNoStartingPoint and nothing done,
// when a set was never synced and o.From is zero. A set that fails does
// not stop the others, except when the failure concerns the whole run
// (local disk or state, interruption); the returned error joins the sets'
// errors.
func Incremental(ctx context.Context, disc *Discovery, d Deps, o IncrementalOptions) (*Report, error) {
	sets, err := selectSets(disc, o.CapabilityList)
	if err != nil {
		return nil, err
	}
	if o.From.IsZero() {
		if err := checkStartingPoints(ctx, d.Store, sets); err != nil {
			return nil, err
		}
	}
	rep := newReport(disc, o.Worker.DryRun)
	j := o.job(disc)
	var errs []error
	for _, s := range sets {
		sr := &SetReport{CapabilityList: s.CapabilityList}
		rep.Sets = append(rep.Sets, sr)
		sr.Err = j.incrementalSet(ctx, disc, s, d, o.From, sr)
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

// checkStartingPoints fails when a readable set was never synced.
func checkStartingPoints(ctx context.Context, st Store, sets []*SetInfo) error {
	var never []string
	for _, s := range sets {
		if s.Err != nil {
			continue
		}
		state, _, err := st.Set(ctx, s.CapabilityList)
		if err != nil {
			return fmt.Errorf("read the state of set %s: %w: %w", s.CapabilityList, resourcesync.ErrLocal, err)
		}
		if !synced(state) {
			never = append(never, s.CapabilityList)
		}
	}
	if len(never) > 0 {
		return fmt.Errorf("%w: %s never synced to this mirror; make a baseline first (baseline, or sync, which makes one when needed), or give --from DATETIME, the time of the first change to apply",
			ErrNoStartingPoint, strings.Join(never, ", "))
	}
	return nil
}

// synced reports whether a set has a point to continue from: a baseline,
// or a cursor an incremental sync from a given time recorded.
func synced(st resourcesync.SetState) bool { return st.Baselined() || !st.Cursor.IsZero() }

// syncJob is what the incremental and sync jobs share: the workers'
// options with the Source's scope.
type syncJob struct {
	inc             incremental.Options
	base            baseline.Options
	rebaselineOnGap bool
	via             string
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
	if s.Err != nil {
		return s.Err
	}
	set, err := changeSource(s, j.via)
	if err != nil {
		return err
	}
	st, err := setState(ctx, d.Store, s.CapabilityList, disc.SourceDescription, j.inc.DryRun)
	if err != nil {
		return fmt.Errorf("read the state of set %s: %w: %w", s.CapabilityList, resourcesync.ErrLocal, err)
	}
	cursor := st.Cursor
	if !from.IsZero() {
		cursor = from
	}
	if cursor.IsZero() {
		return fmt.Errorf("%w: set %s never synced to this mirror", ErrNoStartingPoint, s.CapabilityList)
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
		return baselineSet(ctx, disc, s, d, j.base, j.via, sr)
	}
	return err
}

// changeSource decides what a set's changes are read from, per via: the
// Change List, else (auto) the Change Dump. A Change List costs a request
// per changed resource but reads only what is needed; a package carries
// every version of every change in its period.
func changeSource(s *SetInfo, via string) (incremental.Set, error) {
	set := incremental.Set{CapabilityList: s.CapabilityList}
	cl, hasList := s.Doc(resourcesync.CapChangeList)
	cd, hasDump := s.Doc(resourcesync.CapChangeDump)
	switch via {
	case ViaList:
		if !hasList {
			return set, fmt.Errorf("set %s offers no Change List to sync from (use --via dump or auto; baseline keeps it in step from its Resource List)", s.CapabilityList)
		}
	case ViaDump:
		if !hasDump {
			return set, fmt.Errorf("set %s offers no Change Dump to sync from (use --via list or auto)", s.CapabilityList)
		}
		set.ChangeDump = cd
		return set, nil
	case ViaAuto, "":
		if !hasList && hasDump {
			set.ChangeDump = cd
			return set, nil
		}
		if !hasList {
			return set, fmt.Errorf("set %s offers no Change List or Change Dump to sync from (baseline keeps it in step from its Resource List)", s.CapabilityList)
		}
	default:
		return set, fmt.Errorf("via %q: want list, dump or auto", via)
	}
	set.ChangeList = cl
	return set, nil
}

// hasChanges reports whether the set publishes its changes in a form via
// allows.
func hasChanges(s *SetInfo, via string) bool {
	_, err := changeSource(s, via)
	return err == nil
}

// newReport starts the report of a job.
func newReport(disc *Discovery, dryRun bool) *Report {
	rep := &Report{Source: disc.SourceDescription, DryRun: dryRun}
	if rep.Source == "" {
		rep.Source = disc.Start
	}
	return rep
}
