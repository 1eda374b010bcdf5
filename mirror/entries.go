package mirror

import (
	"sync"
	"sync/atomic"
)

// dirEntries keeps, for directories a removal looked into, a lower bound
// of the entries each still holds, so that a removal need not read its
// directory to learn whether it left it empty: in a directory seen
// holding 1,000 entries, the next 999 removals know without a look. Reading
// a large directory on ext4 hashes a block of its entries whatever is
// asked for - the look cost a fifth of a removal's CPU time.
//
// A bound only shrinks by the removals counted (took); whatever else makes
// an entry go (a temp file removed, moved to the partial downloads, a file
// renamed by the mapping's migration) drops the directory's bound
// (forget), and a look that began before such a drop is not kept (saw
// checks the epoch): a bound above the truth would leave an empty
// directory unpruned. Entries added only make the truth larger.
type dirEntries struct {
	mu    sync.Mutex
	bound map[string]int
	epoch atomic.Uint64 // counts forgets
}

// maxDirBounds bounds the directories remembered: past it, removals look.
const maxDirBounds = 4096

// took counts the removal of one of dir's entries and reports whether
// dir is known to hold another.
func (d *dirEntries) took(dir string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, ok := d.bound[dir]
	switch {
	case !ok:
		return false
	case n > 1:
		d.bound[dir] = n - 1
		return true
	}
	delete(d.bound, dir)
	return false
}

// saw records that a look at dir, begun at epoch (look), found at least n
// entries.
func (d *dirEntries) saw(dir string, n int, epoch uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n <= 0 || d.epoch.Load() != epoch {
		return
	}
	if d.bound == nil {
		d.bound = map[string]int{}
	}
	if old, ok := d.bound[dir]; ok {
		d.bound[dir] = min(old, n) // removals counted since this look began
	} else if len(d.bound) < maxDirBounds {
		d.bound[dir] = n
	}
}

// look returns the epoch a look at a directory begins in.
func (d *dirEntries) look() uint64 { return d.epoch.Load() }

// reset drops every bound: a new session's crash sweep removes files the
// bounds may count.
func (d *dirEntries) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.epoch.Add(1)
	clear(d.bound)
}

// forget drops dir's bound: one of its entries went without took.
func (d *dirEntries) forget(dir string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.epoch.Add(1)
	delete(d.bound, dir)
}
