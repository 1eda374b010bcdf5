package incremental

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// change is one change of a test history.
type change struct {
	uri  string
	at   time.Time
	list int
	pos  int
	done bool // recorded as applied by an earlier run
}

func ch(uri string, sec int) change {
	return change{uri: uri, at: t0.Add(time.Duration(sec) * time.Second)}
}

// testHistory is a history of lists (closed unless last) and its changes
// in application order.
type testHistory struct {
	lists   []list
	changes []change
}

func historyOf(lists ...[]change) *testHistory {
	h := &testHistory{}
	for i, cs := range lists {
		l := list{url: fmt.Sprintf("http://e/cl-%d.xml", i)}
		if i < len(lists)-1 {
			l.until = t0.Add(time.Duration(i+1) * time.Hour)
		}
		for j, c := range cs {
			c.list, c.pos = i, j+1
			h.changes = append(h.changes, c)
		}
		h.lists = append(h.lists, l)
	}
	return h
}

// pending counts, per list, the changes not done.
func (h *testHistory) pending() map[int]int64 {
	out := map[int]int64{}
	for _, c := range h.changes {
		if !c.done {
			out[c.list]++
		}
	}
	return out
}

func (h *testHistory) latest() time.Time {
	var l time.Time
	for _, c := range h.changes {
		if c.at.After(l) {
			l = c.at
		}
	}
	return l
}

func (h *testHistory) ledger(cursor time.Time) *ledger {
	return newLedger(h.lists, h.pending(), h.latest(), cursor)
}

// testUnit is a resource's pending changes, as the backlog groups them.
type testUnit struct {
	uri     string
	key     time.Time
	first   int
	pending []int // indexes in changes
}

// units groups the pending changes by URI, in the order the backlog emits
// them: by URI.
func (h *testHistory) units() []*testUnit {
	by := map[string]*testUnit{}
	var out []*testUnit
	for i, c := range h.changes {
		if c.done {
			continue
		}
		u := by[c.uri]
		if u == nil {
			u = &testUnit{uri: c.uri, key: c.at, first: i}
			by[c.uri] = u
			out = append(out, u)
		}
		if c.at.Before(u.key) {
			u.key = c.at
		}
		u.pending = append(u.pending, i)
	}
	slices.SortFunc(out, func(a, b *testUnit) int { return strings.Compare(a.uri, b.uri) })
	return out
}

// records are a unit's change records, as the writer passes them on.
func (h *testHistory) records(u *testUnit, failed bool) []resourcesync.ChangeRecord {
	var out []resourcesync.ChangeRecord
	for _, i := range u.pending {
		c := h.changes[i]
		out = append(out, resourcesync.ChangeRecord{URI: c.uri, Change: resourcesync.ChangeUpdated, Time: c.at,
			List: h.lists[c.list].url, Position: c.pos, Failed: failed})
	}
	return out
}

func TestLedger(t *testing.T) {
	h := historyOf(
		[]change{ch("a", 1), ch("b", 2)},
		[]change{ch("a", 3), ch("c", 3), ch("d", 4)},
	)
	units := h.units() // a (1, 3), b (2), c (3), d (4)
	l := h.ledger(t0)
	for _, u := range units {
		l.register(u.uri, u.key)
	}
	l.allEmitted()
	steps := []struct {
		applied, failed []int // units
		cursor          int   // seconds after t0
		listsDone       int
	}{
		{applied: []int{1}, cursor: 1},                   // a@1 still open: the cursor stays at it
		{applied: []int{0}, cursor: 3, listsDone: 1},     // list 0 complete; the next open change is at 3
		{failed: []int{2}, applied: []int{3}, cursor: 3}, // c@3 failed: held back
		{cursor: 3}, // and stays so
	}
	for i, st := range steps {
		var b resourcesync.Batch
		for _, k := range st.applied {
			b.Changes = append(b.Changes, h.records(units[k], false)...)
		}
		for _, k := range st.failed {
			b.Changes = append(b.Changes, h.records(units[k], true)...)
		}
		before := l.cursor
		l.record(&b)
		want := t0.Add(time.Duration(st.cursor) * time.Second)
		if !l.cursor.Equal(want) {
			t.Errorf("step %d: cursor %v, want %v", i, l.cursor, want)
		}
		if moved := !l.cursor.Equal(before); moved != (b.Cursor != nil) {
			t.Errorf("step %d: cursor moved %v but batch cursor %v", i, moved, b.Cursor)
		}
		if len(b.ListsDone) != st.listsDone {
			t.Errorf("step %d: %d lists done, want %d", i, len(b.ListsDone), st.listsDone)
		}
	}

	// The next run retries c: applied, the history ends at its latest
	// change; the open list is never done.
	for i := range h.changes {
		h.changes[i].done = h.changes[i].uri != "c"
	}
	l = h.ledger(l.cursor)
	u := h.units()
	if len(u) != 1 || u[0].uri != "c" {
		t.Fatalf("units %v", u)
	}
	l.register("c", u[0].key)
	l.allEmitted()
	b := resourcesync.Batch{Changes: h.records(u[0], false)}
	l.record(&b)
	if want := t0.Add(4 * time.Second); !l.cursor.Equal(want) || slices.ContainsFunc(b.ListsDone, func(d resourcesync.ListDone) bool { return d.URL == h.lists[1].url }) {
		t.Errorf("retry: cursor %v (want %v), lists done %v", l.cursor, want, b.ListsDone)
	}
}

// Until the last unit is emitted the cursor holds where the run found it:
// one still to come may hold the earliest change. Then an emitted one not
// yet recorded holds it at its own earliest change.
func TestLedgerHoldsUntilAllEmitted(t *testing.T) {
	h := historyOf([]change{ch("a", 1), ch("b", 2), ch("c", 3)})
	units := h.units()
	l := h.ledger(t0)
	l.register("a", units[0].key)
	l.register("b", units[1].key)
	for _, u := range units[:2] {
		b := resourcesync.Batch{Changes: h.records(u, false)}
		l.record(&b)
		if !l.cursor.Equal(t0) || b.Cursor != nil {
			t.Errorf("%s recorded, c not emitted: cursor %v, want %v", u.uri, l.cursor, t0)
		}
	}
	var end resourcesync.Batch
	if got := l.finish(&end); !got.Equal(t0) {
		t.Errorf("a run that stopped before c: cursor %v", got)
	}
	l.register("c", units[2].key)
	l.allEmitted()
	if got := l.finish(&end); !got.Equal(t0.Add(3 * time.Second)) {
		t.Errorf("c in flight: cursor %v, want its change's time", got)
	}
	b := resourcesync.Batch{Changes: h.records(units[2], false)}
	l.record(&b)
	if !l.cursor.Equal(t0.Add(3*time.Second)) || len(b.ListsDone) != 0 {
		t.Errorf("all recorded: cursor %v, lists done %v", l.cursor, b.ListsDone)
	}
}

// FuzzLedger drives the ledger with arbitrary histories (times in any
// order, as a non-conforming Source may write them, some changes done by
// an earlier run), the units emitted in any order and recorded
// in arbitrary orders and batches, applied or failed: the cursor never
// passes a change not applied, never moves back, lists are done only when
// all their changes are applied, and a history applied in full ends at
// its latest change.
func FuzzLedger(f *testing.F) {
	f.Add([]byte{3, 1, 2, 9, 4, 4, 0, 7}, uint64(1))
	f.Add([]byte{0}, uint64(2))
	f.Add([]byte{5, 5, 5, 5, 1, 1, 1}, uint64(3))
	f.Fuzz(func(t *testing.T, times []byte, seed uint64) {
		if len(times) > 200 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, seed))
		var lists [][]change
		var cur []change
		for i, b := range times {
			cur = append(cur, ch(fmt.Sprint("u", b%7), int(b)))
			if b%5 == 0 || i == len(times)-1 {
				lists = append(lists, cur)
				cur = nil
			}
		}
		h := historyOf(lists...)
		for i := range h.changes {
			h.changes[i].done = rng.IntN(4) == 0
		}
		start := t0
		l := h.ledger(start)
		applied := map[int]bool{}
		for i, c := range h.changes {
			applied[i] = c.done
		}
		doneLists := map[string]bool{}
		units := h.units()
		rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
		emitted, failures := 0, false
		var inflight []*testUnit
		for emitted < len(units) || len(inflight) > 0 {
			for n := rng.IntN(4); n > 0 && emitted < len(units); n-- {
				l.register(units[emitted].uri, units[emitted].key)
				inflight = append(inflight, units[emitted])
				emitted++
			}
			if emitted == len(units) {
				l.allEmitted()
			}
			var b resourcesync.Batch
			rng.Shuffle(len(inflight), func(i, j int) { inflight[i], inflight[j] = inflight[j], inflight[i] })
			n := rng.IntN(len(inflight) + 1)
			for _, u := range inflight[:n] {
				failed := rng.IntN(5) == 0
				failures = failures || failed
				b.Changes = append(b.Changes, h.records(u, failed)...)
				for _, i := range u.pending {
					applied[i] = applied[i] || !failed
				}
			}
			inflight = inflight[n:]
			before := l.cursor
			l.record(&b)
			if l.cursor.Before(before) {
				t.Fatalf("the cursor moved back from %v to %v", before, l.cursor)
			}
			for i, c := range h.changes {
				if !applied[i] && c.at.Before(l.cursor) {
					t.Fatalf("cursor %v passed change %d at %v, not applied", l.cursor, i, c.at)
				}
			}
			for _, ld := range b.ListsDone {
				doneLists[ld.URL] = true
			}
			for k, ls := range h.lists {
				if !doneLists[ls.url] {
					continue
				}
				for i, c := range h.changes {
					if c.list == k && !applied[i] {
						t.Fatalf("list %s done with change %d not applied", ls.url, i)
					}
				}
				if ls.until.IsZero() {
					t.Fatalf("open list %s marked done", ls.url)
				}
			}
		}
		l.allEmitted() // as the planner does once the backlog is through, units or not
		var end resourcesync.Batch
		got := l.finish(&end)
		if !failures && !got.Equal(max(h.latest(), start)) && len(h.changes) > 0 {
			t.Fatalf("all applied: cursor %v, want the latest change %v", got, h.latest())
		}
	})
}

func max(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
