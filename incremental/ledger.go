package incremental

import (
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ledger knows which changes of the history are recorded as applied, and
// from that where the cursor may move and which closed lists are done. The
// writer calls record with each batch just before committing it, so the
// new cursor is committed with the records that justify it. It is used by
// one goroutine at a time (the writer's flushes are serialised, and the
// final commit comes after the writer ends).
type ledger struct {
	h       *history
	applied []bool
	index   map[changeKey]int
	// floor[i] is the earliest time of changes[i:]: a Source that breaks
	// chronological order must not make the cursor pass a change not yet
	// applied.
	floor     []time.Time
	latest    time.Time // the latest time of any change read
	next      int       // changes[:next] are all applied
	listsDone int       // lists[:listsDone] are accounted for
	cursor    time.Time // the cursor as recorded (or to be, with this batch)
}

type changeKey struct {
	list string
	pos  int
}

func newLedger(h *history, cursor time.Time) *ledger {
	n := len(h.changes)
	l := &ledger{h: h, applied: make([]bool, n), index: make(map[changeKey]int, n), floor: make([]time.Time, n), cursor: cursor}
	for i := n - 1; i >= 0; i-- {
		c := &h.changes[i]
		l.applied[i] = c.done
		l.index[changeKey{h.lists[c.list].url, int(c.pos)}] = i
		l.floor[i] = c.at
		if i+1 < n && l.floor[i+1].Before(c.at) {
			l.floor[i] = l.floor[i+1]
		}
		if c.at.After(l.latest) {
			l.latest = c.at
		}
	}
	return l
}

// record notes the batch's change records and adds to it the cursor and
// the closed lists its records complete.
func (l *ledger) record(b *resourcesync.Batch) {
	for _, c := range b.Changes {
		if c.Failed {
			continue
		}
		if i, ok := l.index[changeKey{c.List, c.Position}]; ok {
			l.applied[i] = true
		}
	}
	l.advance(b)
}

// advance moves past the changes applied, marks the closed lists that are
// now fully applied as done, and sets the batch's cursor when it moved.
func (l *ledger) advance(b *resourcesync.Batch) {
	for l.next < len(l.applied) && l.applied[l.next] {
		l.next++
	}
	for l.listsDone < len(l.h.lists) && l.h.lists[l.listsDone].end <= l.next {
		ls := &l.h.lists[l.listsDone]
		if ls.closed() {
			b.ListsDone = append(b.ListsDone, resourcesync.ListDone{URL: ls.url, From: ls.from, Until: ls.until})
		}
		l.listsDone++
	}
	c := l.latest
	if l.next < len(l.applied) {
		c = l.floor[l.next]
	}
	if c.After(l.cursor) {
		l.cursor = c
		b.Cursor = &c
	}
}

// complete reports whether every change read is recorded as applied.
func (l *ledger) complete() bool { return l.next == len(l.applied) }
