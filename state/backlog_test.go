package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// pend is a change "uri kind second" of list l at position pos.
func pend(l, pos int, uri string, kind resourcesync.Change, sec int) resourcesync.Pending {
	p := resourcesync.Pending{URI: uri, Change: kind, Time: t0.Add(time.Duration(sec) * time.Second), List: l, Position: pos}
	if kind != resourcesync.ChangeDeleted {
		p.Version = resourcesync.Version{Length: int64(sec), HasLength: true, LastMod: p.Time,
			Fixity: resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: strings.Repeat("0", 32)}}}
	}
	return p
}

func newTestBacklog(t *testing.T) *Backlog {
	t.Helper()
	b, err := NewBacklog(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// describe renders units as "uri:pending-positions:final-position:flags".
func describe(t *testing.T, b *Backlog, deletions bool) string {
	t.Helper()
	var out []string
	fn := func(u resourcesync.BacklogUnit) error {
		var ps []string
		for _, p := range u.Pending {
			ps = append(ps, fmt.Sprintf("%d.%d", p.List, p.Position))
		}
		final := "-"
		if u.Final != nil {
			final = fmt.Sprintf("%d.%d", u.Final.List, u.Final.Position)
		}
		flags := ""
		if u.Retry {
			flags += "r"
		}
		if u.Settled {
			flags += "s"
		}
		if u.Gone() {
			flags += "g"
		}
		out = append(out, fmt.Sprintf("%s:%s:%s:%s", u.URI, strings.Join(ps, ","), final, flags))
		return nil
	}
	var err error
	if deletions {
		err = b.Deletions(fn)
	} else {
		err = b.Units(fn)
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, " ")
}

func TestBacklogUnits(t *testing.T) {
	b := newTestBacklog(t)
	const (
		cr = resourcesync.ChangeCreated
		up = resourcesync.ChangeUpdated
		de = resourcesync.ChangeDeleted
	)
	// gone's deletion and c's update were applied by an earlier run, so
	// was b's last change: its first is superseded.
	for _, a := range []resourcesync.Pending{pend(0, 3, "gone", de, 2), pend(1, 2, "c", up, 3), pend(1, 3, "b", up, 4)} {
		if err := b.Applied(a.URI, a.Change, a.Time); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"x", "gone", "c"} {
		if err := b.Retry(u); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []resourcesync.Pending{
		pend(0, 1, "a", cr, 1), pend(0, 2, "b", up, 2), pend(0, 3, "gone", de, 2),
		pend(1, 1, "a", up, 3), pend(1, 2, "c", up, 3), pend(1, 3, "b", up, 4), pend(1, 4, "d", de, 5),
	} {
		if err := b.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	if n, done, err := b.Counts(); n != 7 || done != 3 || err != nil {
		t.Errorf("counts %d %d %v, want 7 3", n, done, err)
	}
	// c (its change applied, a failure recorded since) and x are retried
	// alone, first; gone is gone at the Source, not retried; a has two
	// pending changes; b's first is superseded by its last; d is deleted.
	want := "c::1.2:r x::-:r a:0.1,1.1:1.1: b:0.2:1.3:s d:1.4:1.4:g"
	if got := describe(t, b, false); got != want {
		t.Errorf("units\n got %s\nwant %s", got, want)
	}
	if got := describe(t, b, true); got != "d:1.4:1.4:g" {
		t.Errorf("deletions %s", got)
	}
	per, err := b.PendingPerList()
	if err != nil || fmt.Sprint(per) != "map[0:2 1:2]" {
		t.Errorf("pending per list %v %v", per, err)
	}
	if err := b.Add(pend(2, 1, "late", up, 9)); err == nil {
		t.Error("Add after the backlog was read")
	}
}

// A list that breaks chronological order is applied sorted: a resource's
// final change is its latest, equal times in document order.
func TestBacklogSortsAList(t *testing.T) {
	b := newTestBacklog(t)
	for _, p := range []resourcesync.Pending{
		pend(0, 1, "a", resourcesync.ChangeDeleted, 5), pend(0, 2, "a", resourcesync.ChangeCreated, 1),
		pend(0, 3, "b", resourcesync.ChangeUpdated, 3), pend(0, 4, "b", resourcesync.ChangeDeleted, 3),
		pend(1, 1, "a", resourcesync.ChangeUpdated, 0), // a later list wins, whatever its time
	} {
		if err := b.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := describe(t, b, false), "a:0.2,0.1,1.1:1.1: b:0.3,0.4:0.4:g"; got != want {
		t.Errorf("units\n got %s\nwant %s", got, want)
	}
}

// A large backlog comes back whole, in URI order, across pages, each unit
// with all its pending changes: every third resource changed twice.
func TestBacklogPages(t *testing.T) {
	b := newTestBacklog(t)
	const n = 3*backlogPage + 7
	for i := range n {
		if err := b.Add(pend(0, i+1, fmt.Sprintf("u%05d", n-i), resourcesync.ChangeUpdated, i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i += 3 {
		if err := b.Add(pend(1, i+1, fmt.Sprintf("u%05d", n-i), resourcesync.ChangeUpdated, n+i)); err != nil {
			t.Fatal(err)
		}
	}
	// Added latest URI first: the units come back in URI order, the last
	// added first.
	k := 0
	err := b.Units(func(u resourcesync.BacklogUnit) error {
		i := n - 1 - k
		want, pending := fmt.Sprintf("u%05d", n-i), []string{fmt.Sprintf("0.%d", i+1)}
		if i%3 == 0 {
			pending = append(pending, fmt.Sprintf("1.%d", i+1))
		}
		var got []string
		for _, p := range u.Pending {
			got = append(got, fmt.Sprintf("%d.%d", p.List, p.Position))
		}
		if u.URI != want || !slices.Equal(got, pending) || u.Final == nil || got[len(got)-1] != fmt.Sprintf("%d.%d", u.Final.List, u.Final.Position) {
			return fmt.Errorf("unit %d: %s pending %v, want %s pending %v", k, u.URI, got, want, pending)
		}
		k++
		return nil
	})
	if err != nil || k != n {
		t.Fatalf("%d units, %v", k, err)
	}
	stop := errors.New("stop")
	if err := b.Units(func(resourcesync.BacklogUnit) error { return stop }); err != stop {
		t.Errorf("fn's error: %v", err)
	}
}

func TestBacklogCloseRemovesTheFile(t *testing.T) {
	b := newTestBacklog(t)
	if err := b.Add(pend(0, 1, "a", resourcesync.ChangeCreated, 1)); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b.file); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("file left: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	if err := b.Add(pend(0, 2, "b", resourcesync.ChangeCreated, 1)); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("add after close: %v", err)
	}
}

// FuzzBacklog checks the units of arbitrary histories against their
// definition: every resource with a change not yet recorded is in exactly
// one unit, whose final change is its last in the history and whose
// pending changes are exactly its changes not done, in order; a failure
// is retried unless the history shows the resource gone; nothing else is
// a unit; retries alone come first, then units in URI order.
func FuzzBacklog(f *testing.F) {
	f.Add([]byte{1, 2, 3, 1, 2, 3}, []byte{0, 1})
	f.Add([]byte{0, 0, 0}, []byte{9})
	f.Fuzz(func(t *testing.T, spec, failed []byte) {
		if len(spec) > 300 {
			return
		}
		kinds := []resourcesync.Change{resourcesync.ChangeCreated, resourcesync.ChangeUpdated, resourcesync.ChangeDeleted}
		b := newTestBacklog(t)
		var cs []resourcesync.Pending
		for i, x := range spec {
			// Two lists, the second starting halfway; times run backwards
			// now and then, as a non-conforming Source may write them.
			l := 0
			if i >= len(spec)/2 {
				l = 1
			}
			sec := i
			if x%7 == 0 {
				sec = i / 2
			}
			c := pend(l, i+1, fmt.Sprint("u", x%11), kinds[int(x/11)%3], sec)
			c.Done = x%2 == 0
			cs = append(cs, c)
		}
		for _, c := range cs {
			if c.Done {
				if err := b.Applied(c.URI, c.Change, c.Time); err != nil {
					t.Fatal(err)
				}
			}
		}
		fails := map[string]bool{}
		for _, x := range failed {
			fails[fmt.Sprint("u", x%13)] = true
			if err := b.Retry(fmt.Sprint("u", x%13)); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range cs {
			if err := b.Add(c); err != nil {
				t.Fatal(err)
			}
		}
		// The history in application order: by list, then time, then
		// position. A change applied is done wherever it appears.
		order := slices.Clone(cs)
		slices.SortStableFunc(order, func(a, b resourcesync.Pending) int {
			if a.List != b.List {
				return a.List - b.List
			}
			return a.Time.Compare(b.Time)
		})
		applied := map[string]bool{}
		for _, c := range cs {
			if c.Done {
				applied[fmt.Sprint(c.URI, c.Change, c.Time)] = true
			}
		}
		last := map[string]resourcesync.Pending{}
		pending := map[string][]resourcesync.Pending{}
		for _, c := range order {
			c.Done = applied[fmt.Sprint(c.URI, c.Change, c.Time)]
			last[c.URI] = c
			if !c.Done {
				pending[c.URI] = append(pending[c.URI], c)
			}
		}
		seen := map[string]bool{}
		phase, prev := 0, ""
		err := b.Units(func(u resourcesync.BacklogUnit) error {
			if seen[u.URI] {
				t.Fatalf("%s in two units", u.URI)
			}
			seen[u.URI] = true
			p := pending[u.URI]
			fin, named := last[u.URI]
			switch {
			case len(p) == 0 && !fails[u.URI]:
				t.Fatalf("%s: a unit with nothing to do", u.URI)
			case named && (u.Final == nil || u.Final.Position != fin.Position || u.Final.Done != fin.Done):
				t.Fatalf("%s: final %+v, want %+v", u.URI, u.Final, fin)
			case !named && u.Final != nil:
				t.Fatalf("%s: a final change no change names", u.URI)
			case len(u.Pending) != len(p):
				t.Fatalf("%s: %d pending, want %d", u.URI, len(u.Pending), len(p))
			}
			for i := range p {
				if u.Pending[i].Position != p[i].Position {
					t.Fatalf("%s: pending %d is %d, want %d", u.URI, i, u.Pending[i].Position, p[i].Position)
				}
			}
			if wantRetry := fails[u.URI]; u.Retry != wantRetry {
				t.Fatalf("%s: retry %v, want %v", u.URI, u.Retry, wantRetry)
			}
			if named && u.Settled != (fin.Done && !u.Retry) {
				t.Fatalf("%s: settled %v", u.URI, u.Settled)
			}
			if len(p) == 0 {
				if phase != 0 {
					t.Fatalf("%s: a retry alone after units with changes", u.URI)
				}
				return nil
			}
			if phase == 1 && u.URI <= prev {
				t.Fatalf("%s after %s: units out of URI order", u.URI, prev)
			}
			phase, prev = 1, u.URI
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for uri := range pending {
			if !seen[uri] {
				t.Fatalf("%s has pending changes but no unit", uri)
			}
		}
		for uri := range fails {
			gone := last[uri].Change == resourcesync.ChangeDeleted && len(pending[uri]) == 0
			if _, named := last[uri]; !seen[uri] && (!named || !gone) {
				t.Fatalf("failure of %s not retried", uri)
			}
		}
	})
}

// TestBacklogAddUnapplied: a change dated before the cursor is added only
// when no earlier run recorded it as applied; one added out of order is
// placed by its time, and one left out is not counted.
func TestBacklogAddUnapplied(t *testing.T) {
	b := newTestBacklog(t)
	if err := b.Applied("a", resourcesync.ChangeUpdated, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    resourcesync.Pending
		want bool
	}{
		{pend(0, 1, "a", resourcesync.ChangeUpdated, 1), false}, // applied already
		{pend(0, 3, "b", resourcesync.ChangeDeleted, 0), true},  // out of order, never applied
	} {
		if got, err := b.AddUnapplied(c.p); err != nil || got != c.want {
			t.Errorf("AddUnapplied(%s) = %v, %v; want %v", c.p.URI, got, err, c.want)
		}
	}
	if err := b.Add(pend(0, 2, "b", resourcesync.ChangeCreated, 5)); err != nil {
		t.Fatal(err)
	}
	if n, done, err := b.Counts(); err != nil || n != 2 || done != 0 {
		t.Errorf("Counts = %d, %d, %v; want 2 changes, none done", n, done, err)
	}
	// b's deletion, dated first though listed last, comes before its
	// creation: the creation is final.
	if got, want := describe(t, b, false), "b:0.3,0.2:0.2:"; got != want {
		t.Errorf("units %q, want %q", got, want)
	}
}

// The links a change carries (its mirrors and patches), and whether it is
// a companion's, come back with it, as the final change of its unit and
// as a pending one.
func TestBacklogKeepsLinks(t *testing.T) {
	b := newTestBacklog(t)
	links := []resourcesync.Link{
		{Rel: resourcesync.RelDuplicate, Href: "http://m/a", Pri: 1},
		{Rel: resourcesync.RelPatch, Href: "http://s/a.patch", Type: "application/json-patch+json",
			Hash: resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: strings.Repeat("1", 32)}}, Length: 12, HasLength: true},
	}
	withLinks := pend(0, 1, "a", resourcesync.ChangeUpdated, 1)
	withLinks.Links = links
	companion := pend(0, 2, "b", resourcesync.ChangeUpdated, 2)
	companion.Companion = true
	for _, p := range []resourcesync.Pending{withLinks, companion} {
		if err := b.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string][]resourcesync.Link{}
	err := b.Units(func(u resourcesync.BacklogUnit) error {
		if len(u.Pending) != 1 || !slices.EqualFunc(u.Final.Links, u.Pending[0].Links, linkEqual) {
			t.Errorf("%s: final links %v, pending %v", u.URI, u.Final.Links, u.Pending)
		}
		got[u.URI] = u.Final.Links
		if u.Final.Companion != (u.URI == "b") || u.Pending[0].Companion != u.Final.Companion {
			t.Errorf("%s: companion %v", u.URI, u.Final.Companion)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got["a"], links, linkEqual) || len(got["b"]) != 0 {
		t.Errorf("links a %+v, b %+v; want %+v and none", got["a"], got["b"], links)
	}
}

func linkEqual(a, b resourcesync.Link) bool {
	return a.Rel == b.Rel && a.Href == b.Href && a.Pri == b.Pri && a.Type == b.Type &&
		a.Hash.String() == b.Hash.String() && a.Length == b.Length && a.HasLength == b.HasLength
}

// Changes added in batches keep their order and their done, across a
// change added alone (AddUnapplied) while a batch was gathering.
func TestBacklogAddsInBatches(t *testing.T) {
	b := newTestBacklog(t)
	const n = 2*addBatch + 5
	applied := 0
	for i := 0; i < n; i += 5 {
		if err := b.Applied(fmt.Sprintf("u%03d", i), resourcesync.ChangeUpdated, t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
		applied++
	}
	pos := 0
	add := func(p resourcesync.Pending) {
		t.Helper()
		if err := b.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		pos++
		add(pend(0, pos, fmt.Sprintf("u%03d", i), resourcesync.ChangeUpdated, i))
		if i == addBatch+3 { // z twice in one second: its order is its place in the list
			pos++
			add(pend(0, pos, "z", resourcesync.ChangeCreated, i))
			pos++
			if ok, err := b.AddUnapplied(pend(0, pos, "z", resourcesync.ChangeUpdated, i)); err != nil || !ok {
				t.Fatalf("AddUnapplied: %v %v", ok, err)
			}
			pos++
			add(pend(0, pos, "z", resourcesync.ChangeDeleted, i))
		}
	}
	if got, done, err := b.Counts(); err != nil || got != int64(n+3) || done != int64(applied) {
		t.Errorf("Counts = %d, %d, %v; want %d, %d", got, done, err, n+3, applied)
	}
	units := describe(t, b, false)
	z := fmt.Sprintf("z:0.%d,0.%d,0.%d:0.%[3]d:g", addBatch+5, addBatch+6, addBatch+7)
	if !strings.Contains(units, z) || strings.Contains(units, "u000:") || !strings.Contains(units, "u001:0.2:0.2:") {
		t.Errorf("units %s\nwant %s among them, u000 done", units, z)
	}
}
