package agent

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// recogniseMoves keeps a set whose Capability List the Source moved (http
// to https is the common case) as the same set: a set the discovery found
// that the state does not know takes over the recorded set whose
// Capability List maps to the same file of the mirror, when the Source no
// longer names that one - its records, baseline point and cursor. So the
// old set does not go on holding every path (deletions blocked, audit
// skipping its files) while the new one downloads everything again; the
// resources' own URIs move with them (a URI that is a twin of a record
// takes its file over, judged by the record). A dry run moves nothing.
//
// Only the sets the job covers (selectSets with only) move; a name that is
// not a set fails with ErrUnknownSet before anything is read.
func recogniseMoves(ctx context.Context, disc *Discovery, only string, d Deps, dryRun bool) error {
	sets, err := selectSets(disc, only)
	if err != nil || dryRun {
		return err
	}
	known, err := d.Store.Sets(ctx)
	if err != nil {
		return fmt.Errorf("read the sets: %w: %w", resourcesync.ErrLocal, err)
	}
	named := map[string]bool{}
	for _, s := range disc.Sets {
		named[s.CapabilityList] = true
	}
	orphans := map[string]string{} // mapped path -> Capability List of a set no longer named
	for _, k := range known {
		if named[k.CapabilityList] {
			continue
		}
		if p, err := d.Mirror.Path(k.CapabilityList); err == nil {
			orphans[p] = k.CapabilityList
		}
	}
	if len(orphans) == 0 {
		return nil
	}
	for _, s := range sets {
		if s.Err != nil {
			continue
		}
		p, err := d.Mirror.Path(s.CapabilityList)
		from, ok := orphans[p]
		if err != nil || !ok {
			continue
		}
		moved, err := d.Store.MoveSet(ctx, from, s.CapabilityList)
		if err != nil {
			return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
		}
		if moved {
			delete(orphans, p)
			d.Log.Info().Str("from", from).Str("capability_list", s.CapabilityList).Msg("the Source moved this set's Capability List: the set keeps its records")
		}
	}
	return nil
}
