package transfer

import (
	"context"
	"fmt"
	"slices"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// MayRemove is the one rule by which a deletion - baseline --delete's pass
// over the files its list no longer names, or a change saying a resource
// was deleted - may remove the local file at path for set setID: never a
// file another set holds (holders are the sets holding path); a file this
// set holds (held: its record, or a twin's, is at path); a file
// resync-dest never wrote for this set only inside the set's mapped tree,
// so that a user's file elsewhere in the mirror survives a change naming
// a URI that maps onto it.
func MayRemove(setID int64, holders []int64, held bool, tree resourcesync.Tree, path string) bool {
	if slices.ContainsFunc(holders, func(id int64) bool { return id != setID }) {
		return false
	}
	return held || tree.Contains(path)
}

// othersHold is Store.OtherSetsHold for the run's set, asked the first
// time a deletion needs it: in a mirror of one set - the usual - no
// deletion then asks which sets hold its path, a query that cost a tenth
// of applying a backlog of 60,000 deletions.
func (e *engine) othersHold(ctx context.Context) (bool, error) {
	e.treeMu.Lock()
	defer e.treeMu.Unlock()
	if e.others == nil {
		o, err := e.d.Store.OtherSetsHold(ctx, e.job.SetID)
		if err != nil {
			return true, fmt.Errorf("look up the other sets: %w: %w", resourcesync.ErrLocal, err)
		}
		e.others = &o
	}
	return *e.others, nil
}

// setTree is the mapped tree of what the set holds, read from the state
// the first time a deletion needs it (only a change deleting a file the
// set never held does).
func (e *engine) setTree(ctx context.Context) (resourcesync.Tree, error) {
	e.treeMu.Lock()
	defer e.treeMu.Unlock()
	if e.tree != nil {
		return *e.tree, nil
	}
	var t resourcesync.Tree
	err := e.d.Store.EachHeld(ctx, e.job.SetID, func(h resourcesync.Held) error {
		t.Add(h.Path)
		return nil
	})
	if err != nil {
		return t, fmt.Errorf("read the set's tree: %w: %w", resourcesync.ErrLocal, err)
	}
	e.tree = &t
	return t, nil
}
