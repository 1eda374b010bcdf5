package resourcesync

import (
	"sync/atomic"
	"time"
)

// Counts are the outcome of a run, per resource.
type Counts struct {
	Listed    int64 `json:"listed"`    // entries read from the Source's documents
	Created   int64 `json:"created"`   // new local copies
	Updated   int64 `json:"updated"`   // local copies replaced
	Unchanged int64 `json:"unchanged"` // already in step
	Deleted   int64 `json:"deleted"`   // local copies removed
	Failed    int64 `json:"failed"`    // could not be brought in step (recorded, retried next run)
	Skipped   int64 `json:"skipped"`   // not fetched by policy (out of scope, deletion not asked for)
	Bytes     int64 `json:"bytes"`     // bytes written to the mirror
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Listed += o.Listed
	c.Created += o.Created
	c.Updated += o.Updated
	c.Unchanged += o.Unchanged
	c.Deleted += o.Deleted
	c.Failed += o.Failed
	c.Skipped += o.Skipped
	c.Bytes += o.Bytes
}

// Progress is a run's live counters: workers add to it, a display reads it.
// Safe for concurrent use; the zero value is ready.
type Progress struct {
	listed, created, updated, unchanged, deleted, failed, skipped, bytes atomic.Int64
	listingDone                                                          atomic.Bool
	started                                                              atomic.Int64 // unix nanoseconds
}

// Start records when the run started (for rates).
func (p *Progress) Start(t time.Time) { p.started.Store(t.UnixNano()) }

// Listed counts an entry read; ListingDone marks the end of the lists.
func (p *Progress) Listed()      { p.listed.Add(1) }
func (p *Progress) ListingDone() { p.listingDone.Store(true) }

// Count adds one outcome.
func (p *Progress) Created(bytes int64) { p.created.Add(1); p.bytes.Add(bytes) }
func (p *Progress) Updated(bytes int64) { p.updated.Add(1); p.bytes.Add(bytes) }
func (p *Progress) Unchanged()          { p.unchanged.Add(1) }
func (p *Progress) Deleted()            { p.deleted.Add(1) }
func (p *Progress) Failed()             { p.failed.Add(1) }
func (p *Progress) Skipped()            { p.skipped.Add(1) }

// Snapshot reads the counters. Total is true once every list was read, so
// that Counts.Listed is the total to expect.
func (p *Progress) Snapshot() (c Counts, total bool, started time.Time) {
	c = Counts{
		Listed: p.listed.Load(), Created: p.created.Load(), Updated: p.updated.Load(),
		Unchanged: p.unchanged.Load(), Deleted: p.deleted.Load(), Failed: p.failed.Load(),
		Skipped: p.skipped.Load(), Bytes: p.bytes.Load(),
	}
	if s := p.started.Load(); s != 0 {
		started = time.Unix(0, s)
	}
	return c, p.listingDone.Load(), started
}

// Done is the number of resources dealt with, whatever the outcome.
func (c Counts) Done() int64 {
	return c.Created + c.Updated + c.Unchanged + c.Failed + c.Skipped
}
