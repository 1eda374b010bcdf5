package audit

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Set is one set of resources to audit.
type Set struct {
	// ID is the state's ID of the set; 0 when the state does not know the
	// set (then nothing is held, and every local file is compared as one
	// resync-dest never wrote).
	ID             int64
	CapabilityList string
	ResourceList   string // the Resource List (or Resource List Index)
	ChangeList     string // the Change List (or Change List Index); "" when the set has none
}

// Run audits one set: it builds the Source's current state of the set
// (the Resource List brought forward with the changes after its at) and
// compares the mirror with it. It writes nothing, neither to the mirror
// nor to the state.
//
// Differences and per-resource problems are findings, not errors. Run
// returns an error when the set could not be audited: a document could not
// be read (wrapping resourcesync.ErrUnavailable when the Source could not
// be reached), a local fault (resourcesync.ErrLocal: the listing, the
// state or the walk of the mirror failed), or ctx was cancelled. The
// SetReport is returned in every case; after an error it holds no
// findings, since they could be wrong. Sets may be audited concurrently
// (each Run has its own listing and report) as far as the adapters allow.
func Run(ctx context.Context, set Set, d Deps, opts Options) (*SetReport, error) {
	opts = opts.withDefaults()
	sr := &SetReport{CapabilityList: set.CapabilityList, ResourceList: set.ResourceList, ChangeList: set.ChangeList, Method: "hash"}
	if opts.Fast {
		sr.Method = "fast"
	}
	a := &auditor{set: set, d: d, opts: opts, sr: sr, col: &collector{max: opts.MaxListed, sr: sr, progress: opts.Progress},
		unlisted: map[string]error{}}
	if err := a.run(ctx); err != nil {
		sr.Counts, sr.missing, sr.extra, sr.changed, sr.problems = Counts{}, nil, nil, nil, nil
		return sr, err
	}
	sr.sortFindings()
	c := sr.Counts
	d.Log.Info().Int64("listed", c.Listed).Int64("in_sync", c.InSync).
		Int64("missing", c.Missing).Int64("extra", c.Extra).Int64("changed", c.Changed).Int64("errors", c.Errors).
		Msg("audited")
	return sr, nil
}

// auditor is one set's audit.
type auditor struct {
	set  Set
	d    Deps
	opts Options
	sr   *SetReport
	col  *collector

	listing Listing
	// tree is the set's mapped tree, grown as paths are listed; removed
	// counts the paths unlisted since, which may have narrowed it.
	tree    resourcesync.Tree
	removed int
	// unlisted are URIs of the Source's current state that are not in the
	// listing: out of scope, or mapping to no path. Only such URIs are
	// kept in memory; a Source has few of them.
	unlisted map[string]error
}

func (a *auditor) run(ctx context.Context) error {
	if a.d.NewListing == nil {
		return fmt.Errorf("audit %s: %w: no listing", a.set.CapabilityList, resourcesync.ErrLocal)
	}
	l, err := a.d.NewListing()
	if err != nil {
		return fmt.Errorf("audit %s: %w: %w", a.set.CapabilityList, resourcesync.ErrLocal, err)
	}
	a.listing = l
	defer l.Close()
	a.opts.Progress.Set(a.set.CapabilityList)
	a.d.Log.Info().Str("resource_list", a.set.ResourceList).
		Str("change_list", a.set.ChangeList).Str("method", a.sr.Method).Msg("audit")
	if err := a.current(ctx); err != nil {
		return err
	}
	a.opts.Progress.ListingDone()
	a.countUnlisted()
	return a.compare(ctx)
}
