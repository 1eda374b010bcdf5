package audit

import (
	"sync"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// collector gathers a set's findings from the merge and the workers. It
// is safe for concurrent use.
type collector struct {
	mu  sync.Mutex
	max int // differences (and problems) kept per kind
	sr  *SetReport

	progress *resourcesync.Progress // told of each finding (Options.Progress)
}

func (c *collector) inSync(unverifiable bool) {
	c.progress.Unchanged()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.InSync++
	c.unverifiable(unverifiable)
}

func (c *collector) missing(d Difference) {
	c.progress.Updated(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.Missing++
	c.sr.missing = c.keep(c.sr.missing, d)
}

func (c *collector) extra(d Difference) {
	c.progress.Expect(1) // a file no list names: done, and expected too
	c.progress.Deleted()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.Extra++
	c.sr.extra = c.keep(c.sr.extra, d)
}

func (c *collector) changed(d Difference, unverifiable bool) {
	c.progress.Updated(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.Changed++
	c.unverifiable(unverifiable)
	c.sr.changed = c.keep(c.sr.changed, d)
}

func (c *collector) problem(p Problem) {
	c.progress.Failed()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.Errors++
	if len(c.sr.problems) >= c.max {
		c.sr.Counts.Unlisted++
		return
	}
	c.sr.problems = append(c.sr.problems, p)
}

func (c *collector) leftOut() {
	c.progress.Skipped()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.LeftOut++
}

func (c *collector) skipped() {
	c.progress.Skipped()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.Skipped++
}

// listed counts a resource of the Source's current state.
func (c *collector) listed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sr.Counts.Listed++
}

// unverifiable counts; c.mu is held.
func (c *collector) unverifiable(yes bool) {
	if yes {
		c.sr.Counts.Unverifiable++
	}
}

// keep appends d unless the list is full; c.mu is held.
func (c *collector) keep(list []Difference, d Difference) []Difference {
	if len(list) >= c.max {
		c.sr.Counts.Unlisted++
		return list
	}
	return append(list, d)
}
