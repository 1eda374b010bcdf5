package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// SyncOptions configure the sync job.
type SyncOptions struct {
	Baseline       baseline.Options    // for sets never synced (and gaps, with RebaselineOnGap)
	Incremental    incremental.Options // for sets synced before
	CapabilityList string              // only this set ("" = every set)
	AllowHosts     []string            // hosts besides the Source's own that resources may come from
	// RebaselineOnGap makes a new baseline of a set whose Source's history
	// no longer reaches back to its cursor, instead of a safety stop.
	RebaselineOnGap bool
	// Via is what sets are copied and kept in step from, as
	// BaselineOptions.Via and IncrementalOptions.Via say.
	Via resourcesync.Via
	// Checksum makes every set's sync a baseline with Baseline.Checksum:
	// re-hashing the local files is what repairs local damage, which the
	// changes of the Source cannot reveal.
	Checksum bool
}

// Sync keeps every selected set in step, the way a cron job needs: a set
// never synced gets a baseline, a set synced before an incremental sync
// from its cursor. A set that fails does not stop the others, except when
// the failure concerns the whole run (local disk or state, interruption);
// the returned error joins the sets' errors.
func Sync(ctx context.Context, disc *Discovery, d Deps, o SyncOptions) (*Report, error) {
	retired, err := reconcileSets(ctx, disc, o.CapabilityList, d, o.Incremental.DryRun)
	if err != nil {
		return nil, err
	}
	j := IncrementalOptions{Worker: o.Incremental, Baseline: o.Baseline, AllowHosts: o.AllowHosts, RebaselineOnGap: o.RebaselineOnGap, Via: o.Via}.job(disc)
	return runSets(ctx, disc, o.CapabilityList, o.Incremental.DryRun, retired, func(s *SetInfo, sr *SetReport) error {
		return j.syncSet(ctx, disc, s, d, o.Checksum, sr)
	})
}

// syncSet makes a baseline of a set never synced (or with checksum), else
// applies its changes.
func (j syncJob) syncSet(ctx context.Context, disc *Discovery, s *SetInfo, d Deps, checksum bool, sr *SetReport) error {
	st, _, err := d.Store.Set(ctx, s.CapabilityList)
	if err != nil {
		return fmt.Errorf("read the state of set %s: %w: %w", s.CapabilityList, resourcesync.ErrLocal, err)
	}
	switch {
	case checksum || !hasChanges(s, j.via):
		// Without a Change List (or Dump), the Resource List is the only
		// way to follow the Source.
		return baselineSet(ctx, disc, s, d, j.base, j.via, sr)
	case !synced(st):
		return j.firstSync(ctx, disc, s, d, sr)
	default:
		return j.incrementalSet(ctx, disc, s, d, time.Time{}, sr)
	}
}

// firstSync is a set's baseline, then the changes since its list's at, in
// one run: a Resource List is older than the Source it describes, and a
// resource that changed since fails the baseline's check (its length or
// hash is the list's) until its change is applied. So the run ends in step
// and only what still fails when the changes are applied counts as failed
// (the baseline's Failed and Failures say so).
func (j syncJob) firstSync(ctx context.Context, disc *Discovery, s *SetInfo, d Deps, sr *SetReport) error {
	if err := baselineSet(ctx, disc, s, d, j.base, j.via, sr); err != nil || j.inc.DryRun {
		return err
	}
	base := sr.Baseline
	err := j.incrementalSet(ctx, disc, s, d, time.Time{}, sr)
	if err != nil || sr.Baseline != base || sr.Incremental == nil || base.Failed == 0 {
		return err
	}
	fails, err := d.Store.Failures(ctx, sr.Incremental.Set.ID)
	if err != nil {
		return fmt.Errorf("read the failures of set %s: %w: %w", s.CapabilityList, resourcesync.ErrLocal, err)
	}
	still := make(map[string]bool, len(fails))
	for _, f := range fails {
		still[f.URI] = true
	}
	kept := base.Failures[:0]
	for _, f := range base.Failures {
		if still[f.URI] {
			kept = append(kept, f)
		}
	}
	base.Failures = kept
	// The incremental run retried the baseline's failures: those failing
	// still are its own failures, and are counted there.
	base.Failed = max(0, int64(len(fails))-sr.Incremental.Failed)
	return nil
}
