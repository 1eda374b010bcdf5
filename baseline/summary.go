package baseline

import (
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// maxReportedFailures bounds the failures a Summary carries for display;
// all of them are in the state.
const maxReportedFailures = 100

// Summary is the outcome of a baseline run of one set.
type Summary struct {
	Set          Set       `json:"-"`
	ResourceList string    `json:"resource_list"`
	At           time.Time `json:"at,omitzero"`        // the Resource List's at
	Completed    time.Time `json:"completed,omitzero"` // the Resource List's completed
	resourcesync.Counts
	// WouldDelete counts local files the list no longer names that were
	// not deleted (no --delete, or a dry run).
	WouldDelete int64 `json:"would_delete"`
	// ListComplete is true when every part of the list was read.
	ListComplete bool                   `json:"list_complete"`
	Started      time.Time              `json:"started"`
	Ended        time.Time              `json:"ended"`
	Failures     []resourcesync.Failure `json:"failures,omitempty"` // the first ones; the state has all
}

// Set is one set of resources to copy.
type Set struct {
	ID             int64  // state's set ID
	CapabilityList string // the set's Capability List
	ResourceList   string // the Resource List (or Resource List Index) it names
}
