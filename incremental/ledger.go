package incremental

import (
	"sync"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ledger knows, without holding the history, where the cursor may move and
// which closed lists are done. The cursor is the earliest time of a change
// not recorded as applied; the changes not applied are those of units not
// yet recorded, and those that failed. Units are emitted in URI order (the
// backlog's: the mirror's directories one after another), not by time, so
// until the last unit is emitted any unit still to come may hold the
// earliest change: the cursor holds where the run found it. Exact resume
// does not need it to move: each change is recorded applied with its
// effect, and a run after a kill skips what was recorded. Once every unit
// is emitted, the cursor moves to the earliest change of a unit in flight
// (a window bounded by the engine), else to the latest change read.
//
// The planner registers each unit before emitting it; the writer calls
// record with each batch just before committing it, so the new cursor is
// committed with the records that justify it. A mutex serialises the two.
type ledger struct {
	mu     sync.Mutex
	lists  []ledgerList
	byURL  map[string]int
	latest time.Time // the latest time of any change read
	cursor time.Time // the cursor as recorded (or to be, with this batch)

	inflight map[string]time.Time // by URI: the earliest pending change of a unit emitted, not yet recorded
	all      bool                 // every unit was emitted
	failed   bool                 // some change failed: floor holds the cursor back
	floor    time.Time            // the earliest time of a failed change

	listsDone int // lists[:listsDone] are accounted for
}

type ledgerList struct {
	url         string
	from, until time.Time
	pending     int64 // changes not recorded as applied
}

// newLedger starts from the cursor, with the lists read and, per list
// index, how many of their changes are not done.
func newLedger(lists []list, pending map[int]int64, latest, cursor time.Time) *ledger {
	l := &ledger{byURL: make(map[string]int, len(lists)), latest: latest, cursor: cursor,
		inflight: map[string]time.Time{}}
	for i, ls := range lists {
		l.lists = append(l.lists, ledgerList{url: ls.url, from: ls.from, until: ls.until, pending: pending[i]})
		l.byURL[ls.url] = i
	}
	return l
}

// register notes a unit about to be emitted whose pending changes begin at
// key.
func (l *ledger) register(uri string, key time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight[uri] = key
}

// allEmitted notes that no unit is left to emit.
func (l *ledger) allEmitted() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = true
}

// record notes the batch's change records (all of a unit's come in one
// batch) and adds to it the cursor and the closed lists they complete.
func (l *ledger) record(b *resourcesync.Batch) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range b.Changes {
		delete(l.inflight, c.URI)
		if c.Failed {
			if !l.failed || c.Time.Before(l.floor) {
				l.failed, l.floor = true, c.Time
			}
			continue
		}
		if i, ok := l.byURL[c.List]; ok {
			l.lists[i].pending--
		}
	}
	l.advance(b)
}

// advance marks the closed lists whose changes are now all applied (in
// order: a list is done only after every list before it) as done, and sets
// the batch's cursor when it moved. l.mu is held.
func (l *ledger) advance(b *resourcesync.Batch) {
	for l.listsDone < len(l.lists) && l.lists[l.listsDone].pending <= 0 {
		ls := &l.lists[l.listsDone]
		if !ls.until.IsZero() {
			b.ListsDone = append(b.ListsDone, resourcesync.ListDone{URL: ls.url, From: ls.from, Until: ls.until})
		}
		l.listsDone++
	}
	if !l.all {
		return // a unit still to come may hold the earliest change
	}
	c := l.latest
	for _, key := range l.inflight {
		c = earlier(c, key)
	}
	if l.failed {
		c = earlier(c, l.floor)
	}
	if c.After(l.cursor) {
		l.cursor = c
		b.Cursor = &c
	}
}

// finish adds to b what no batch of this run recorded: a cursor moved by
// changes an earlier run recorded, or the closed lists they complete. It
// returns the cursor.
func (l *ledger) finish(b *resourcesync.Batch) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.advance(b)
	return l.cursor
}

// firstNotDone is the index of the first list read that the next run
// reads again: not done, or open (the number of lists when none is).
func (l *ledger) firstNotDone() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.lists[:l.listsDone] {
		if l.lists[i].until.IsZero() {
			return i
		}
	}
	return l.listsDone
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
