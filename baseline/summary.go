package baseline

import (
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Summary is the outcome of a baseline run of one set.
type Summary struct {
	Set          Set              `json:"-"`
	ResourceList string           `json:"resource_list,omitempty"`
	ResourceDump string           `json:"resource_dump,omitempty"`
	Via          resourcesync.Via `json:"via"` // ViaList or ViaDump
	// The Resource List's (or Dump's) at and completed: the Source's
	// times, named list_ in JSON so that "completed" keeps one meaning
	// there (the wall-clock end of a run, as status says).
	At        time.Time `json:"list_at,omitzero"`
	Completed time.Time `json:"list_completed,omitzero"`
	resourcesync.Counts
	// WouldDelete counts local files the list no longer names that were
	// not deleted (no --delete, or a dry run).
	WouldDelete int64 `json:"would_delete"`
	// BadLastMod counts the entries whose lastmod is not a W3C datetime
	// (read as none).
	BadLastMod int64 `json:"bad_lastmod,omitempty"`
	// Plan is a dry run's: what the real run would do (nil otherwise).
	Plan *resourcesync.Plan `json:"plan,omitempty"`
	// ListComplete is true when every part of the list was read (for a
	// dump: every package's manifest).
	ListComplete bool `json:"list_complete"`
	// Packages counts the dump's packages downloaded; PackagesSkipped
	// those not downloaded because their manifest copy showed every entry
	// already held.
	Packages        int64                  `json:"packages,omitempty"`
	PackagesSkipped int64                  `json:"packages_skipped,omitempty"`
	Started         time.Time              `json:"started"`
	Ended           time.Time              `json:"ended"`
	Failures        []resourcesync.Failure `json:"failures,omitempty"` // the first ones; the state has all
}

// Set is one set of resources to copy.
type Set struct {
	ID             int64  // state's set ID
	CapabilityList string // the set's Capability List
	ResourceList   string // the Resource List (or Resource List Index) it names
	// ResourceDump, when set, is the Resource Dump (or Resource Dump
	// Index) to copy from instead of the Resource List.
	ResourceDump string
}

// viaDump reports whether the copy comes from the Resource Dump.
func (s Set) viaDump() bool { return s.ResourceDump != "" }

// doc is the document the copy comes from.
func (s Set) doc() string {
	if s.viaDump() {
		return s.ResourceDump
	}
	return s.ResourceList
}
