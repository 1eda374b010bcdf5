package agent

import (
	"context"
	"fmt"
	"slices"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// The sets the state knows against the sets the Source names now: a set
// whose Capability List moved (http to https is the common case) is the
// same set under its new name, and a set the Source no longer names at
// all is retired.

// RetiredSet is a recorded set that the Source Description no longer
// names, with no successor: the state forgets it, and its files stay in
// the mirror (retiring never deletes a file; see reconcileSets).
type RetiredSet struct {
	CapabilityList string `json:"capability_list"`
	Source         string `json:"source"` // the Source Description that named it
	// Files is the number of files it held, kept in the mirror; Tree the
	// directories (mirror-relative) that hold them.
	Files int64    `json:"files"`
	Tree  []string `json:"tree,omitempty"`
}

// findMoves pairs each set of sets that the state does not know with the
// recorded set it moved from: one the Source no longer names whose
// Capability List maps to the same file of the mirror. It returns the
// pairs (new -> old) and the recorded sets the Source no longer names that
// are the old name of none. It reads the state only.
func findMoves(ctx context.Context, disc *Discovery, sets []*SetInfo, d Deps) (map[string]string, []resourcesync.SetState, error) {
	known, err := d.Store.Sets(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("read the sets: %w: %w", resourcesync.ErrLocal, err)
	}
	named := map[string]bool{}
	for _, s := range disc.Sets {
		named[s.CapabilityList] = true
	}
	recorded := map[string]bool{}
	var orphans []resourcesync.SetState
	byPath := map[string]string{} // mapped path -> Capability List of a set no longer named
	for _, k := range known {
		recorded[k.CapabilityList] = true
		if named[k.CapabilityList] {
			continue
		}
		orphans = append(orphans, k)
		if p, err := d.Mirror.Path(k.CapabilityList); err == nil {
			byPath[p] = k.CapabilityList
		}
	}
	moves := map[string]string{}
	for _, s := range sets {
		if s.Err != nil || recorded[s.CapabilityList] {
			continue
		}
		p, err := d.Mirror.Path(s.CapabilityList)
		if from, ok := byPath[p]; err == nil && ok {
			moves[s.CapabilityList] = from
			delete(byPath, p)
		}
	}
	orphans = slices.DeleteFunc(orphans, func(k resourcesync.SetState) bool {
		for _, from := range moves {
			if from == k.CapabilityList {
				return true
			}
		}
		return false
	})
	return moves, orphans, nil
}

// reconcileSets brings the state's sets in line with the sets discovered,
// before a job that writes runs over them (baseline, incremental, sync).
//
// A set whose Capability List the Source moved keeps its records, baseline
// point and cursor under its new name (state MoveSet): so the old set does
// not go on holding every path (deletions blocked, audit skipping its
// files) while the new one downloads everything again; the resources' own
// URIs move with them (a URI that is a twin of a record takes its file
// over, judged by the record). Only the sets the job covers move.
//
// A recorded set that the Source Description no longer names, and that
// moved nowhere, is retired: the state forgets it, so that it holds no
// path any more. Only after a discovery that read the Source Description
// whole and every set it names (a failed or partial one proves nothing),
// for a job over every set, and only a set that this Source Description
// (or its http/https twin) named: a state may hold the sets of other
// Sources. Its files are kept - the absence of a document is weaker
// evidence than a Resource List that names what is left, and a Source
// Description published by mistake must not empty a mirror - and
// reported (logged, in the report): a baseline --delete of a set whose
// tree holds them removes them, or the user does.
//
// A dry run changes nothing, and reports the sets it would retire.
func reconcileSets(ctx context.Context, disc *Discovery, only string, d Deps, dryRun bool) ([]RetiredSet, error) {
	sets, err := selectSets(disc, only)
	if err != nil {
		return nil, err
	}
	moves, orphans, err := findMoves(ctx, disc, sets, d)
	if err != nil {
		return nil, err
	}
	if !dryRun {
		for to, from := range moves {
			moved, err := d.Store.MoveSet(ctx, from, to)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
			}
			if moved {
				d.Log.Info().Str("from", from).Str("capability_list", to).Msg("the Source moved this set's Capability List: the set keeps its records")
			}
		}
	}
	if only != "" || disc.Selected != "" || !wholeDiscovery(disc) {
		return nil, nil // not a job over every set (one set's URL, --capability-list)
	}
	var retired []RetiredSet
	for _, k := range orphans {
		if k.Source == "" || !sameDocument(d, k.Source, disc.SourceDescription) {
			continue
		}
		r, err := retire(ctx, k, d, dryRun)
		if err != nil {
			return retired, err
		}
		retired = append(retired, r)
	}
	return retired, nil
}

// wholeDiscovery reports whether the discovery found every set the
// Source names: it read a Source Description whole, and every Capability
// List it names.
func wholeDiscovery(disc *Discovery) bool {
	if !disc.Whole || len(disc.Sets) == 0 {
		return false
	}
	for _, s := range disc.Sets {
		if s.Err != nil {
			return false
		}
	}
	return true
}

// sameDocument reports whether two URLs name one document: equal, or
// mapping to the same file of the mirror (http and https of one host).
func sameDocument(d Deps, a, b string) bool {
	if a == b {
		return true
	}
	pa, erra := d.Mirror.Path(a)
	pb, errb := d.Mirror.Path(b)
	return erra == nil && errb == nil && pa == pb
}

// retire forgets a set the Source no longer names and says where its
// files are, which stay.
func retire(ctx context.Context, k resourcesync.SetState, d Deps, dryRun bool) (RetiredSet, error) {
	r := RetiredSet{CapabilityList: k.CapabilityList, Source: k.Source}
	var tree resourcesync.Tree
	err := d.Store.EachHeld(ctx, k.ID, func(h resourcesync.Held) error {
		r.Files++
		tree.Add(h.Path)
		return nil
	})
	if err != nil {
		return r, fmt.Errorf("read what set %s holds: %w: %w", k.CapabilityList, resourcesync.ErrLocal, err)
	}
	r.Tree = tree.Roots()
	log := d.Log.Warn().Str("capability_list", k.CapabilityList).Str("source", k.Source).Int64("files", r.Files).Strs("tree", r.Tree)
	if dryRun {
		log.Msg("the Source Description no longer names this set: it would be retired (its files kept)")
		return r, nil
	}
	if _, err := d.Store.ForgetSet(ctx, k.CapabilityList); err != nil {
		return r, fmt.Errorf("retire set %s: %w: %w", k.CapabilityList, resourcesync.ErrLocal, err)
	}
	log.Msg("the Source Description no longer names this set: retired, the state forgot it; its files are kept (nothing was deleted: remove them yourself, or a baseline --delete of a set whose tree holds them does)")
	return r, nil
}
