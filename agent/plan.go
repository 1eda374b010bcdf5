package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Planning: which sets a job covers, what each set is copied or kept in
// step from (which capability serves it), and where its incremental sync
// starts. Every verb runs over the sets with eachSet.

// ErrUnknownSet: the Capability List a job was told to cover (the
// CapabilityList option of Audit, Baseline, Incremental and Sync) is not one
// of the sets discovered. The job fails with it before doing anything; it
// is the user's mistake, not the Source's.
var ErrUnknownSet = errors.New("not a set of this Source")

// ErrNoStartingPoint: an incremental sync was asked for a set that was
// never synced, without a time to start from. Nothing was done.
var ErrNoStartingPoint = errors.New("no starting point for incremental sync")

// selectSets returns the sets a job covers: the one named by
// onlyCapabilityList, else the one the URL given stands for
// (Discovery.Selected), else every set discovered. A name that is not a
// set fails with ErrUnknownSet.
func selectSets(disc *Discovery, onlyCapabilityList string) ([]*SetInfo, error) {
	if onlyCapabilityList == "" {
		onlyCapabilityList = disc.Selected
	}
	if onlyCapabilityList != "" {
		s, ok := disc.Set(onlyCapabilityList)
		if !ok {
			var known []string
			for _, s := range disc.Sets {
				known = append(known, s.CapabilityList)
			}
			return nil, fmt.Errorf("--capability-list %s is %w (it has: %v)", onlyCapabilityList, ErrUnknownSet, known)
		}
		return []*SetInfo{s}, nil
	}
	if len(disc.Sets) == 0 {
		return nil, fmt.Errorf("the Source %s offers no set of resources", disc.Start)
	}
	return slices.Clone(disc.Sets), nil
}

// eachSet runs fn for each set in turn, the one loop over sets of every
// job. A set whose discovery failed is not run: its error is passed to fn
// as it is (report), and counts as the set's. A set that fails does not
// stop the others, except when the failure concerns the whole job (local
// disk or state, interruption). It returns the sets' errors joined.
func eachSet(ctx context.Context, sets []*SetInfo, fn func(s *SetInfo) error) error {
	var errs []error
	for _, s := range sets {
		if err := fn(s); err != nil {
			errs = append(errs, err)
			if stopsEverything(ctx, err) {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// runSets is eachSet for the jobs that report a SetReport per set
// (Baseline, Incremental, Sync): it selects the sets, gathers their
// reports and totals them. retired are the sets reconcileSets retired.
func runSets(ctx context.Context, disc *Discovery, only string, dryRun bool, retired []RetiredSet, fn func(s *SetInfo, sr *SetReport) error) (*Report, error) {
	sets, err := selectSets(disc, only)
	if err != nil {
		return nil, err
	}
	rep := newReport(disc, dryRun)
	rep.Retired = retired
	err = eachSet(ctx, sets, func(s *SetInfo) error {
		sr := &SetReport{CapabilityList: s.CapabilityList}
		rep.Sets = append(rep.Sets, sr)
		if sr.Err = s.Err; sr.Err == nil {
			sr.Err = fn(s, sr)
		}
		if sr.Err != nil {
			sr.Error = sr.Err.Error()
		}
		return sr.Err
	})
	rep.total()
	return rep, err
}

// stopsEverything reports whether an error ends the whole job rather than
// one set: an interruption or cancellation, or a local fault (disk, state).
// Anything about one set's documents lets the other sets go on.
func stopsEverything(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, resourcesync.ErrInterrupted) || errors.Is(err, resourcesync.ErrLocal)
}

// scope is what a job may fetch: the Source's hosts and the hosts allowed.
func scope(disc *Discovery, allowHosts []string) resourcesync.Scope {
	return disc.Scope(allowHosts)
}

// planBaseline decides what the set's baseline copies from, per via. A
// Resource Dump is the efficient way to make a first copy (a few large
// downloads instead of one request per resource), but it carries every
// byte again; the Resource List skips what is held without downloading it.
// So auto takes the dump only for a set that holds nothing yet.
func planBaseline(ctx context.Context, s *SetInfo, st Store, setID int64, via resourcesync.Via) (baseline.Set, error) {
	set := baseline.Set{ID: setID, CapabilityList: s.CapabilityList}
	rl, hasList := s.Doc(resourcesync.CapResourceList)
	rd, hasDump := s.Doc(resourcesync.CapResourceDump)
	switch via {
	case resourcesync.ViaList:
	case resourcesync.ViaDump:
		if !hasDump {
			return set, fmt.Errorf("set %s offers no Resource Dump (use --via list or auto)", s.CapabilityList)
		}
		set.ResourceDump = rd
		return set, nil
	case resourcesync.ViaAuto, "":
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

// planChanges decides what a set's changes are read from, per via: the
// Change List, else (auto) the Change Dump. A Change List costs a request
// per changed resource but reads only what is needed; a package carries
// every version of every change in its period.
func planChanges(s *SetInfo, via resourcesync.Via) (incremental.Set, error) {
	set := incremental.Set{CapabilityList: s.CapabilityList}
	cl, hasList := s.Doc(resourcesync.CapChangeList)
	cd, hasDump := s.Doc(resourcesync.CapChangeDump)
	switch via {
	case resourcesync.ViaList:
		if !hasList {
			return set, fmt.Errorf("set %s offers no Change List to sync from (use --via dump or auto; baseline keeps it in step from its Resource List)", s.CapabilityList)
		}
	case resourcesync.ViaDump:
		if !hasDump {
			return set, fmt.Errorf("set %s offers no Change Dump to sync from (use --via list or auto)", s.CapabilityList)
		}
		set.ChangeDump = cd
		set.ChangeDumpArchive, _ = s.Doc(resourcesync.CapChangeDumpArchive)
		return set, nil
	case resourcesync.ViaAuto, "":
		if !hasList && hasDump {
			set.ChangeDump = cd
			set.ChangeDumpArchive, _ = s.Doc(resourcesync.CapChangeDumpArchive)
			return set, nil
		}
		if !hasList {
			return set, fmt.Errorf("set %s offers no Change List or Change Dump to sync from (baseline keeps it in step from its Resource List)", s.CapabilityList)
		}
	default:
		return set, fmt.Errorf("via %q: want list, dump or auto", via)
	}
	set.ChangeList = cl
	set.ChangeListArchive, _ = s.Doc(resourcesync.CapChangeListArchive)
	return set, nil
}

// hasChanges reports whether the set publishes its changes in a form via
// allows.
func hasChanges(s *SetInfo, via resourcesync.Via) bool {
	_, err := planChanges(s, via)
	return err == nil
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

// synced reports whether a set has a point to continue from: a baseline,
// or a cursor an incremental sync from a given time recorded.
func synced(st resourcesync.SetState) bool { return st.Baselined() || !st.Cursor.IsZero() }

// startingPoint is where a set's incremental sync starts: from when it is
// given, else the state's cursor.
func startingPoint(capabilityList string, st resourcesync.SetState, from time.Time) (time.Time, error) {
	cursor := st.Cursor
	if !from.IsZero() {
		cursor = from
	}
	if cursor.IsZero() {
		return cursor, fmt.Errorf("%w: set %s never synced to this mirror", ErrNoStartingPoint, capabilityList)
	}
	return cursor, nil
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
