package incremental

import (
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Set is one set of resources to keep in step.
type Set struct {
	ID             int64  // state's set ID
	CapabilityList string // the set's Capability List
	ChangeList     string // the Change List (or Change List Index) it names
	// ChangeDump, when set, is the Change Dump (or Change Dump Index) to
	// read the changes from instead of the Change List.
	ChangeDump string
	// ChangeListArchive is the set's Change List Archive, if it has one:
	// where a run catches up when the Change List no longer reaches back
	// to the cursor. ChangeDumpArchive is the Change Dump Archive, used
	// instead with ChangeDump.
	ChangeListArchive string
	ChangeDumpArchive string
	// Cursor is where to start: the time of the first unprocessed change
	// (the state's cursor, or the user's --from). It must not be zero.
	Cursor time.Time
}

// viaDump reports whether the changes come from the Change Dump.
func (s Set) viaDump() bool { return s.ChangeDump != "" }

// doc is the document the changes come from.
func (s Set) doc() string {
	if s.viaDump() {
		return s.ChangeDump
	}
	return s.ChangeList
}

// Summary is the outcome of an incremental run of one set. Counts are per
// resource (Listed: the resources the changes named), the change figures
// per change.
type Summary struct {
	Set        Set              `json:"-"`
	ChangeList string           `json:"change_list,omitempty"`
	ChangeDump string           `json:"change_dump,omitempty"`
	Via        resourcesync.Via `json:"via"` // ViaList or ViaDump
	// From is the cursor the run started at; Cursor the one it recorded.
	From   time.Time `json:"from"`
	Cursor time.Time `json:"cursor"`
	// Earliest is the earliest time the Source's history covers (its
	// from); zero when the Source does not say.
	Earliest time.Time `json:"earliest,omitzero"`
	// HistoryUnknown: the Source does not say where its history starts
	// (its first list gives no from, which is mandatory); its entries
	// had to reach back to the cursor.
	HistoryUnknown bool `json:"history_unknown,omitempty"`
	// ListsRead counts the Change Lists read (Change Dump packages, via
	// the dump), ListsSkipped the closed ones recorded as done and not
	// fetched again.
	ListsRead int `json:"lists_read"`
	// Archive is the Change List (or Change Dump) Archive the run caught
	// up from (its lists cover the gap between the cursor and the current
	// history), and ArchiveLists the lists (packages) of it read (counted
	// in ListsRead too).
	Archive       string `json:"archive,omitempty"`
	ArchiveLists  int    `json:"archive_lists,omitempty"`
	ListsSkipped  int    `json:"lists_skipped"`
	Packages      int64  `json:"packages,omitempty"` // Change Dump packages downloaded
	Changes       int64  `json:"changes"`            // changes at or after From read
	AlreadyDone   int64  `json:"already_done"`       // of those, recorded as applied by an earlier run
	Applied       int64  `json:"applied"`            // recorded as applied by this run
	ChangesFailed int64  `json:"changes_failed"`     // recorded as failed by this run (retried next run)
	Retried       int64  `json:"retried"`            // resources retried because an earlier run failed them
	// Misdated counts the changes dated outside their list's interval
	// (after a closed list's until, before its from) or after the run's
	// time: applied, each warned about, and never moving the cursor past
	// its list's bound.
	Misdated int64 `json:"misdated,omitempty"`
	// UnknownChanges counts the changes whose change attribute is none of
	// created, updated, deleted: applied as updated.
	UnknownChanges int64 `json:"unknown_changes,omitempty"`
	// OutOfOrder counts the changes dated before the cursor, listed out
	// of order, that this run applied; Ignored those it did not apply
	// because a later change to the resource was applied already or the
	// copy held is newer (recorded as processed, each warned about).
	OutOfOrder int64 `json:"out_of_order,omitempty"`
	Ignored    int64 `json:"ignored,omitempty"`
	resourcesync.Counts
	// WouldDelete counts resources deleted at the Source whose local copy
	// was kept (no Delete, or a dry run).
	WouldDelete int64 `json:"would_delete"`
	// Plan is a dry run's: what the real run would do (nil otherwise).
	Plan     *resourcesync.Plan     `json:"plan,omitempty"`
	Started  time.Time              `json:"started"`
	Ended    time.Time              `json:"ended"`
	Failures []resourcesync.Failure `json:"failures,omitempty"` // the first ones; the state has all
}

// GapError is a safety stop: the Source's change history no longer reaches
// back to the cursor, so changes made in between may be lost. Only a new
// baseline can bring the mirror in step again. It matches
// resourcesync.ErrSafetyStop.
type GapError struct {
	ChangeList string
	Cursor     time.Time // where this mirror stopped
	Earliest   time.Time // where the Source's history starts
	// Hole, when set, is a hole between two of the Source's lists after
	// the cursor, instead of a history that starts after it.
	Hole *resourcesync.HoleError
	// NoFrom: the history's first list gives no from, and Earliest is its
	// earliest change instead.
	NoFrom bool
}

func (e *GapError) Error() string {
	if e.Hole != nil {
		return fmt.Sprintf("%v; this mirror stopped at %s, so a new baseline is needed (run baseline, or sync --rebaseline-on-gap); nothing was changed",
			e.Hole, resourcesync.FormatDatetime(e.Cursor))
	}
	if e.NoFrom {
		return fmt.Sprintf("%v: the change history of %s does not say where it starts (its first list gives no from, which is mandatory), and its earliest change is at %s, after %s where this mirror stopped: changes made in between may be lost, so a new baseline is needed (run baseline, or sync --rebaseline-on-gap); nothing was changed",
			resourcesync.ErrSafetyStop, e.ChangeList, resourcesync.FormatDatetime(e.Earliest), resourcesync.FormatDatetime(e.Cursor))
	}
	return fmt.Sprintf("%v: the change history of %s starts at %s, after %s where this mirror stopped: changes made in between may be lost, so a new baseline is needed (run baseline, or sync --rebaseline-on-gap); nothing was changed",
		resourcesync.ErrSafetyStop, e.ChangeList, resourcesync.FormatDatetime(e.Earliest), resourcesync.FormatDatetime(e.Cursor))
}

// Unwrap makes a GapError match resourcesync.ErrSafetyStop.
func (e *GapError) Unwrap() error { return resourcesync.ErrSafetyStop }
