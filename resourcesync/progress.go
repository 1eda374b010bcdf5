package resourcesync

import (
	"math"
	"sync/atomic"
	"time"
)

// Counts are the outcome of a run, per resource.
type Counts struct {
	Listed    int64 `json:"listed"`    // entries read from the Source's documents: resources of a Resource List, changes of a Change List
	Created   int64 `json:"created"`   // new local copies
	Updated   int64 `json:"updated"`   // local copies replaced
	Unchanged int64 `json:"unchanged"` // already in step
	Deleted   int64 `json:"deleted"`   // local copies removed
	Failed    int64 `json:"failed"`    // could not be brought in step (recorded, retried next run)
	Skipped   int64 `json:"skipped"`   // not fetched by policy (out of scope, deletion not asked for)
	Bytes     int64 `json:"bytes"`     // bytes written to the mirror
	// LeftOut counts the entries the user's filters (--include,
	// --exclude) left out: neither fetched nor deleted.
	LeftOut int64 `json:"left_out,omitempty"`
	// MirrorBytes are the part of Bytes fetched from the Source's mirrors
	// (rel="duplicate"); MirrorFailures the mirror fetches that failed
	// (the next mirror or <loc> was tried).
	MirrorBytes    int64 `json:"mirror_bytes"`
	MirrorFailures int64 `json:"mirror_failures"`
	// Patched resources were made by applying a patch (§14.4) to the copy
	// held; PatchSaved is the bytes their patches saved (the versions'
	// lengths less the patches'); PatchFailures the patches that could
	// not be used (the whole resource was fetched instead).
	Patched       int64 `json:"patched"`
	PatchSaved    int64 `json:"patch_bytes_saved"`
	PatchFailures int64 `json:"patch_failures"`
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
	c.LeftOut += o.LeftOut
	c.Bytes += o.Bytes
	c.MirrorBytes += o.MirrorBytes
	c.MirrorFailures += o.MirrorFailures
	c.Patched += o.Patched
	c.PatchSaved += o.PatchSaved
	c.PatchFailures += o.PatchFailures
}

// Progress is a run's live counters: workers add to it, a display reads it.
// Safe for concurrent use; the zero value is ready.
type Progress struct {
	listed, created, updated, unchanged, deleted, failed, skipped, bytes atomic.Int64
	listingDone                                                          atomic.Bool
	started                                                              atomic.Int64 // unix nanoseconds
	set                                                                  atomic.Pointer[string]
	setListed                                                            atomic.Int64  // listed when the set began
	read                                                                 atomic.Uint64 // float64 bits: share of the set's list read
	// unlisted is work no list entry counts: the files a baseline deletes
	// because its list no longer names them, an audit's extra files.
	unlisted atomic.Int64
}

// Start records when the run started (for rates).
func (p *Progress) Start(t time.Time) { p.started.Store(t.UnixNano()) }

// Set says which set the run is now in: the counters go on (they are the
// run's), the listing starts again, and the share read goes back to 0.
func (p *Progress) Set(name string) {
	p.set.Store(&name)
	p.listingDone.Store(false)
	p.setListed.Store(p.listed.Load())
	p.read.Store(0)
}

// Listed counts an entry read; ListingDone marks the end of the lists.
func (p *Progress) Listed()      { p.listed.Add(1) }
func (p *Progress) ListingDone() { p.listingDone.Store(true) }

// Expect adds n to the work expected that no list entry counts (files
// deleted because no list names them), so that a display's total includes
// it.
func (p *Progress) Expect(n int64) { p.unlisted.Add(n) }

// ListRead records the share (0 to 1) of the set's list read so far, so
// that a display can estimate its length before the end (see Walk's Read).
func (p *Progress) ListRead(share float64) { p.read.Store(math.Float64bits(share)) }

// Count adds one outcome.
func (p *Progress) Created(bytes int64) { p.created.Add(1); p.bytes.Add(bytes) }
func (p *Progress) Updated(bytes int64) { p.updated.Add(1); p.bytes.Add(bytes) }
func (p *Progress) Unchanged()          { p.unchanged.Add(1) }
func (p *Progress) Deleted()            { p.deleted.Add(1) }
func (p *Progress) Failed()             { p.failed.Add(1) }
func (p *Progress) Skipped()            { p.skipped.Add(1) }

// Hashed counts bytes read to check a file (an audit's).
func (p *Progress) Hashed(bytes int64) { p.bytes.Add(bytes) }

// Snapshot reads the counters. Total is true once every list of the set in
// progress was read, so that Counts.Listed is the total to expect so far.
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

// Expected is the number of entries the run is expected to list by the end
// of the set in progress: exact once its listing is done, else estimated
// from the share of its list read (0 when there is no estimate yet). set
// names the set in progress ("" before the first).
func (p *Progress) Expected() (expected int64, exact bool, set string) {
	if s := p.set.Load(); s != nil {
		set = *s
	}
	listed, unlisted := p.listed.Load(), p.unlisted.Load()
	if p.listingDone.Load() {
		return listed + unlisted, true, set
	}
	share := math.Float64frombits(p.read.Load())
	base := p.setListed.Load()
	if share <= 0 || listed <= base {
		return 0, false, set
	}
	est := base + int64(math.Round(float64(listed-base)/math.Min(share, 1)))
	return max(est, listed) + unlisted, false, set
}

// Done is the number of resources dealt with, whatever the outcome,
// deletions included.
func (c Counts) Done() int64 {
	return c.Created + c.Updated + c.Unchanged + c.Deleted + c.Failed + c.Skipped
}
