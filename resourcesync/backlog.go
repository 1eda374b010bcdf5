package resourcesync

import "time"

// Pending is one change of a set's backlog - the changes read since the
// cursor, kept by the state for one run so that memory does not grow with
// them.
type Pending struct {
	URI    string
	Change Change    // created, updated or deleted
	Time   time.Time // the time of the change: datetime, else lastmod
	// List is the index, in the run's history, of the Change List (or
	// Change Dump package) that names it; Position its 1-based position
	// there.
	List     int
	Position int
	// Version is what the resource is after a created or updated change
	// (its LastMod the entry's lastmod, else the change's time); zero for
	// a deletion.
	Version Version
	// Links are the change entry's links a Destination may act on: its
	// mirrors and patches (Mirrors, Patches), for a created or updated
	// change.
	Links []Link
	// Companion: the change is that of a resource fetched along with the
	// one its entry names (an alternate, a metadata record: Companions),
	// not of the entry's own resource; its bytes never come from the
	// entry's dump member.
	Companion bool
	// Done: an earlier run recorded the change as applied.
	Done bool
}

// BacklogUnit is one resource of a backlog with what must be done about
// it: its changes not yet recorded, to be settled by bringing it to the
// state of its Final change.
type BacklogUnit struct {
	URI string
	// Final is the resource's last change in the history (whether done or
	// not); nil for a failure retried that no change names.
	Final *Pending
	// Pending are its changes not recorded as applied, in the order they
	// apply.
	Pending []Pending
	// Retry: an earlier run recorded a failure of the resource.
	Retry bool
	// Settled: Final was applied by an earlier run and no failure is
	// recorded since, so the pending (earlier) changes are superseded and
	// need no work beyond being recorded.
	Settled bool
}

// Gone reports whether the unit ends in a deletion to apply.
func (u *BacklogUnit) Gone() bool {
	return u.Final != nil && u.Final.Change == ChangeDeleted && !u.Settled
}
