package resourcesync

import "time"

// Batch is one transaction's worth of results handed to the state: what a
// run made durable on disk since the previous batch. The state records a
// Batch all or nothing.
type Batch struct {
	Held      []Held         // copies now held (upserted; a recorded failure of the URI is cleared)
	Removed   []string       // URIs no longer held (deleted locally)
	Failed    []Failure      // resources that failed in this batch
	Changes   []ChangeRecord // changes processed (applied or failed; an applied one clears its URI's failure unless Failed has one)
	ListsDone []ListDone     // closed change documents fully processed
	Cursor    *time.Time     // new incremental cursor: the time of the first unprocessed change
	Baseline  *BaselinePoint // a baseline completed
}

// Empty reports whether the batch records nothing.
func (b *Batch) Empty() bool {
	return len(b.Held) == 0 && len(b.Removed) == 0 && len(b.Failed) == 0 &&
		len(b.Changes) == 0 && len(b.ListsDone) == 0 && b.Cursor == nil && b.Baseline == nil
}

// ListDone marks a closed Change List (or Change Dump package) as fully
// processed, so later runs skip it without fetching it again.
type ListDone struct {
	URL   string
	From  time.Time
	Until time.Time
}

// BaselinePoint records a completed baseline: At is the Resource List's (or
// Resource Dump's) at, the point from which changes must be applied.
type BaselinePoint struct {
	At        time.Time
	Completed time.Time
	Via       Via // ViaList or ViaDump
}
