package incremental

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// historyOf builds a history from lists of "uri kind second" changes;
// a list is closed unless it is the last.
func historyOf(lists ...[]change) *history {
	h := &history{}
	for i, cs := range lists {
		l := list{url: fmt.Sprintf("http://e/cl-%d.xml", i), start: len(h.changes)}
		if i < len(lists)-1 {
			l.until = t0.Add(time.Duration(i+1) * time.Hour)
		}
		for j, c := range cs {
			c.list, c.pos = int32(i), int32(j+1)
			h.changes = append(h.changes, c)
		}
		l.end = len(h.changes)
		h.lists = append(h.lists, l)
	}
	return h
}

func ch(uri string, kind resourcesync.Change, sec int) change {
	return change{uri: uri, kind: kind, at: t0.Add(time.Duration(sec) * time.Second)}
}

// records are the change records of the given changes, as the writer
// passes them to the ledger.
func records(h *history, failed bool, idx ...int) []resourcesync.ChangeRecord {
	var out []resourcesync.ChangeRecord
	for _, i := range idx {
		c := h.changes[i]
		out = append(out, resourcesync.ChangeRecord{URI: c.uri, Change: c.kind, Time: c.at, List: h.lists[c.list].url, Position: int(c.pos), Failed: failed})
	}
	return out
}

func TestLedger(t *testing.T) {
	h := historyOf(
		[]change{ch("a", resourcesync.ChangeCreated, 1), ch("b", resourcesync.ChangeUpdated, 2)},
		[]change{ch("a", resourcesync.ChangeUpdated, 3), ch("c", resourcesync.ChangeDeleted, 3), ch("d", resourcesync.ChangeCreated, 4)},
	)
	l := newLedger(h, t0)
	steps := []struct {
		applied, failed []int
		cursor          int // seconds after t0
		listsDone       int
	}{
		{applied: []int{1}, cursor: 1},                   // a@1 still open: the cursor stays at it
		{applied: []int{0}, cursor: 3, listsDone: 1},     // list 0 complete; next open change is at 3
		{failed: []int{2}, applied: []int{3}, cursor: 3}, // a@3 failed: held back
		{applied: []int{4}, cursor: 3},                   // still held back by a@3
		{applied: []int{2}, cursor: 4},                   // all applied: the latest change
	}
	for i, st := range steps {
		var b resourcesync.Batch
		b.Changes = append(records(h, false, st.applied...), records(h, true, st.failed...)...)
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
	if !l.complete() {
		t.Error("not complete")
	}
}

func TestGroup(t *testing.T) {
	h := historyOf(
		[]change{ch("a", resourcesync.ChangeCreated, 1), ch("b", resourcesync.ChangeUpdated, 2), ch("gone", resourcesync.ChangeDeleted, 2)},
		[]change{ch("a", resourcesync.ChangeUpdated, 3), ch("c", resourcesync.ChangeUpdated, 3), ch("b", resourcesync.ChangeUpdated, 4)},
	)
	h.changes[2].done = true // the deletion of gone was applied by an earlier run
	h.changes[4].done = true // c's update too
	h.changes[5].done = true // b's last change too: its first is superseded
	units := group(h, []resourcesync.Failure{{URI: "x"}, {URI: "gone"}, {URI: "c"}})
	var got []string
	for _, u := range units {
		got = append(got, fmt.Sprintf("%s:%d:%v:%v", u.uri, len(u.pending), u.settled, u.retry))
	}
	// x and c (its change applied, a failure recorded since) are retried
	// first; gone is gone at the Source, not retried; a has two pending
	// changes; b's first is superseded by its last, already applied.
	want := "[x:0:false:true c:0:false:true a:2:false:false b:1:true:false]"
	if fmt.Sprint(got) != want {
		t.Errorf("units %v\nwant  %s", got, want)
	}
}

// FuzzLedger drives the ledger with arbitrary histories (times in any
// order, as a non-conforming Source may write them) and arbitrary orders of
// records, applied and failed: the cursor never passes a change not
// applied, never moves back, lists are done only when all their changes
// are applied, and a history applied in full ends at its latest change.
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
			cur = append(cur, ch(fmt.Sprint("u", b%7), resourcesync.ChangeUpdated, int(b)))
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
		l := newLedger(h, start)
		applied := map[int]bool{}
		for i, c := range h.changes {
			applied[i] = c.done
		}
		doneLists := map[string]bool{}
		order := rng.Perm(len(h.changes))
		for len(order) > 0 {
			n := 1 + rng.IntN(len(order))
			var b resourcesync.Batch
			for _, i := range order[:n] {
				failed := rng.IntN(5) == 0
				b.Changes = append(b.Changes, records(h, failed, i)...)
				if !failed {
					applied[i] = true
				}
			}
			order = order[n:]
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
			for _, ls := range h.lists {
				if !doneLists[ls.url] {
					continue
				}
				for i := ls.start; i < ls.end; i++ {
					if !applied[i] {
						t.Fatalf("list %s done with change %d not applied", ls.url, i)
					}
				}
				if !ls.closed() {
					t.Fatalf("open list %s marked done", ls.url)
				}
			}
		}
		all := true
		latest := start
		for i, c := range h.changes {
			all = all && applied[i]
			if c.at.After(latest) {
				latest = c.at
			}
		}
		if all && !l.cursor.Equal(latest) {
			t.Fatalf("all applied: cursor %v, want the latest change %v", l.cursor, latest)
		}
	})
}

// FuzzGroup checks the grouping of arbitrary histories: every resource
// with a change not yet recorded is in exactly one unit, whose final
// change is its last in the history and whose pending changes are exactly
// its changes not done, in order.
func FuzzGroup(f *testing.F) {
	f.Add([]byte{1, 2, 3, 1, 2, 3}, []byte{0, 1})
	f.Add([]byte{0, 0, 0}, []byte{9})
	f.Fuzz(func(t *testing.T, spec, failed []byte) {
		if len(spec) > 300 {
			return
		}
		kinds := []resourcesync.Change{resourcesync.ChangeCreated, resourcesync.ChangeUpdated, resourcesync.ChangeDeleted}
		var cs []change
		for i, b := range spec {
			c := ch(fmt.Sprint("u", b%11), kinds[int(b/11)%3], i)
			c.done = b%2 == 0
			cs = append(cs, c)
		}
		h := historyOf(cs)
		var fails []resourcesync.Failure
		for _, b := range failed {
			fails = append(fails, resourcesync.Failure{URI: fmt.Sprint("u", b%13)})
		}
		if len(fails) > 0 {
			// The state never records one URI twice.
			seen := map[string]bool{}
			uniq := fails[:0]
			for _, f := range fails {
				if !seen[f.URI] {
					seen[f.URI] = true
					uniq = append(uniq, f)
				}
			}
			fails = uniq
		}
		units := group(h, fails)
		byURI := map[string]*unit{}
		for _, u := range units {
			if byURI[u.uri] != nil {
				t.Fatalf("%s in two units", u.uri)
			}
			byURI[u.uri] = u
		}
		last := map[string]int{}
		pending := map[string][]int{}
		for i, c := range h.changes {
			last[c.uri] = i
			if !c.done {
				pending[c.uri] = append(pending[c.uri], i)
			}
		}
		for uri, p := range pending {
			u := byURI[uri]
			if u == nil {
				t.Fatalf("%s has pending changes but no unit", uri)
			}
			if u.final != &h.changes[last[uri]] {
				t.Fatalf("%s: final is not its last change", uri)
			}
			if fmt.Sprint(u.pending) != fmt.Sprint(p) {
				t.Fatalf("%s: pending %v, want %v", uri, u.pending, p)
			}
			if u.settled != (u.final.done && !u.retry) {
				t.Fatalf("%s: settled %v", uri, u.settled)
			}
		}
		for _, u := range units {
			if len(u.pending) == 0 && !u.retry {
				t.Fatalf("%s: a unit with nothing to do", u.uri)
			}
		}
	})
}
