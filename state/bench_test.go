package state

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures/cputime"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func benchHeld(i int) resourcesync.Held {
	return resourcesync.Held{
		URI:    fmt.Sprintf("http://example.org/data/%07d.xml", i),
		Path:   fmt.Sprintf("example.org/data/%07d.xml", i),
		Length: 4096,
		Fixity: resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: "1e0d5cb8ef6ba40c99b14c0237be735e"}},
		ETag:   `"5e8a-4096"`,
	}
}

// runContext is a cancellable context, as every real caller passes: the
// figures include what cancellability costs.
func runContext(b *testing.B) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	return ctx
}

// benchURIs are the URIs of benchDB(n) in a scattered order.
func benchURIs(n int) []string {
	uris := make([]string, n)
	for i := range uris {
		uris[i] = benchHeld((i * 7919) % n).URI
	}
	return uris
}

// benchDB is a state holding n resources in one set.
func benchDB(b *testing.B, n int) (*DB, Set) {
	b.Helper()
	db := openTest(b)
	s := ensureSet(b, db, capList)
	for start := 0; start < n; start += 1000 {
		var batch Batch
		for i := start; i < min(n, start+1000); i++ {
			batch.Held = append(batch.Held, benchHeld(i))
		}
		commit(b, db, s.ID, &batch)
	}
	return db, s
}

// BenchmarkHeld is one point lookup among 100,000 held resources.
func BenchmarkHeld(b *testing.B) {
	const n = 100_000
	db, s := benchDB(b, n)
	ctx := runContext(b)
	cpu := startCPU()
	for i := 0; b.Loop(); i++ { // b.Loop times only the loop
		if _, ok, err := db.Held(ctx, s.ID, benchHeld((i*7919)%n).URI); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
	cpu.report(b)
}

// BenchmarkHeld10000 is 10,000 lookups (one op), the figure the brief asks
// about: a sync of 10,000 resources asks Held once per resource.
func BenchmarkHeld10000(b *testing.B) {
	const n = 10_000
	db, s := benchDB(b, n)
	ctx := runContext(b)
	uris := benchURIs(n)
	cpu := startCPU()
	for b.Loop() {
		for _, u := range uris {
			if _, ok, err := db.Held(ctx, s.ID, u); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
	}
	cpu.report(b)
}

// BenchmarkHeldParallel is lookups from GOMAXPROCS goroutines at once.
func BenchmarkHeldParallel(b *testing.B) {
	const n = 100_000
	db, s := benchDB(b, n)
	ctx := runContext(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, ok, err := db.Held(ctx, s.ID, benchHeld((i*7919)%n).URI); err != nil || !ok {
				b.Error(ok, err)
				return
			}
			i++
		}
	})
}

// BenchmarkCommitHeld10000 records 10,000 Held records in batches of 256
// (one op), into a fresh set each time.
func BenchmarkCommitHeld10000(b *testing.B) {
	const n, size = 10_000, 256
	db := openTest(b)
	ctx := runContext(b)
	recs := make([]resourcesync.Held, n)
	for i := range recs {
		recs[i] = benchHeld(i)
	}
	round := 0
	cpu := startCPU()
	for b.Loop() {
		b.StopTimer()
		s := ensureSet(b, db, fmt.Sprintf("http://example.org/%d/capabilitylist.xml", round))
		round++
		b.StartTimer()
		for start := 0; start < n; start += size {
			if err := db.Commit(ctx, s.ID, &Batch{Held: recs[start:min(n, start+size)]}); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu.report(b)
}

// BenchmarkListingAdd is adding one path to a Listing (batched writes
// included).
func BenchmarkListingAdd(b *testing.B) {
	l := newListing(b)
	for i := 0; b.Loop(); i++ {
		if err := l.Add(ListingEntry{Path: fmt.Sprintf("example.org/data/%09d.xml", (i*7919)%1_000_000_007), URI: "u"}); err != nil {
			b.Fatal(err)
		}
	}
	l.Len() // flush inside the timing
}

// cpuClock measures the CPU time (user + system) the process spends, which
// on a shared machine says more about a change than wall time: other
// processes' load inflates the one and not the other.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{cputime.Self()} }

// report adds the metric cpu-ns/op; call it after the b.Loop loop.
func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(cputime.Self()-c.start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkHeldMany10000 is the 10,000 lookups of BenchmarkHeld10000 made
// 250 at a time through HeldMany (one op).
func BenchmarkHeldMany10000(b *testing.B) {
	const n = 10_000
	db, s := benchDB(b, n)
	ctx := runContext(b)
	uris := benchURIs(n)
	cpu := startCPU()
	for b.Loop() {
		for start := 0; start < n; start += 250 {
			got, err := db.HeldMany(ctx, s.ID, uris[start:start+250])
			if err != nil || len(got) != 250 {
				b.Fatal(len(got), err)
			}
		}
	}
	cpu.report(b)
}

// BenchmarkPathOwners10000 is the feed's question for 10,000 resources
// a set does not hold, 250 at a time (one op): who holds their paths. Half
// the paths are held by other URIs of the set (twins), half by none.
func BenchmarkPathOwners10000(b *testing.B) {
	const n = 10_000
	db, s := benchDB(b, n/2)
	ctx := runContext(b)
	paths := make([]string, n)
	for i := range paths {
		paths[i] = benchHeld((i * 7919) % n).Path
	}
	cpu := startCPU()
	for b.Loop() {
		owned := 0
		for start := 0; start < n; start += 250 {
			got, err := db.PathOwners(ctx, s.ID, paths[start:start+250])
			if err != nil {
				b.Fatal(err)
			}
			owned += len(got)
		}
		if owned != n/2 {
			b.Fatal(owned)
		}
	}
	cpu.report(b)
}

// BenchmarkPathHolders is the check made before each file a deletion
// removes, among 100,000 held resources.
func BenchmarkPathHolders(b *testing.B) {
	const n = 100_000
	db, _ := benchDB(b, n)
	ctx := runContext(b)
	cpu := startCPU()
	for i := 0; b.Loop(); i++ {
		if ids, err := db.PathHolders(ctx, benchHeld((i*7919)%n).Path); err != nil || len(ids) != 1 {
			b.Fatal(ids, err)
		}
	}
	cpu.report(b)
}

// BenchmarkBaseline50000 is what a baseline of 50,000 resources asks of
// the state (one op): their records committed in the writer's batches of
// 256 into a fresh set, then a second run's lookups of all of them (250
// at a time) and its re-recording of each (a run that refreshes every
// record: new lastmods), then the audit's walk.
func BenchmarkBaseline50000(b *testing.B) { benchBaseline(b, false) }

// BenchmarkBaseline50000Linked is BenchmarkBaseline50000 with every entry
// carrying a collection and a via link (§14), recorded with it.
func BenchmarkBaseline50000Linked(b *testing.B) { benchBaseline(b, true) }

func benchBaseline(b *testing.B, linked bool) {
	const n, size = 50_000, 256
	db := openTest(b)
	ctx := runContext(b)
	recs := make([]resourcesync.Held, n)
	uris := make([]string, n)
	for i := range recs {
		recs[i] = benchHeld(i)
		uris[i] = recs[i].URI
		if linked {
			recs[i].Links = []resourcesync.Link{
				{Rel: resourcesync.RelCollection, Href: "http://example.org/aggregation/0601007"},
				{Rel: resourcesync.RelVia, Href: "http://original.example.org" + recs[i].Path[len("example.org"):]},
			}
		}
	}
	round := 0
	cpu := startCPU()
	for b.Loop() {
		b.StopTimer()
		s := ensureSet(b, db, fmt.Sprintf("http://example.org/%d/capabilitylist.xml", round))
		round++
		b.StartTimer()
		for pass := range 2 {
			for start := 0; start < n; start += size {
				end := min(n, start+size)
				if pass == 1 {
					if got, err := db.HeldMany(ctx, s.ID, uris[start:end]); err != nil || len(got) != end-start {
						b.Fatal(len(got), err)
					}
				}
				if err := db.Commit(ctx, s.ID, &Batch{Held: recs[start:end]}); err != nil {
					b.Fatal(err)
				}
			}
		}
		walked := 0
		if err := db.EachHeld(ctx, s.ID, func(resourcesync.Held) error { walked++; return nil }); err != nil || walked != n {
			b.Fatal(walked, err)
		}
	}
	cpu.report(b)
}

// BenchmarkBacklogLoad180k is the serial start of an apply: 180,000
// changes (a third each created, updated, deleted, on scattered URIs; one
// update in ten names the resource the change before it created, so
// 174,000 units) added to a Backlog, which is then sealed, and its units
// read back.
func BenchmarkBacklogLoad180k(b *testing.B) {
	const n = 180_000
	kinds := []resourcesync.Change{resourcesync.ChangeCreated, resourcesync.ChangeUpdated, resourcesync.ChangeDeleted}
	fixity := resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: "1e0d5cb8ef6ba40c99b14c0237be735e"}}
	var add, seal, read time.Duration
	for b.Loop() {
		began := time.Now()
		bl, err := NewBacklog(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			uri := benchHeld((i * 7919) % 200_000).URI
			if i%30 == 1 {
				uri = benchHeld(((i - 1) * 7919) % 200_000).URI
			}
			p := resourcesync.Pending{URI: uri, Change: kinds[i%3], Time: t0.Add(time.Duration(i) * time.Millisecond), Position: i + 1}
			if p.Change != resourcesync.ChangeDeleted {
				p.Version = resourcesync.Version{Fixity: fixity, Length: 4096, HasLength: true, LastMod: p.Time}
			}
			if err := bl.Add(p); err != nil {
				b.Fatal(err)
			}
		}
		added := time.Now()
		if _, _, err := bl.Counts(); err != nil {
			b.Fatal(err)
		}
		sealed := time.Now()
		units := 0
		if err := bl.Units(func(resourcesync.BacklogUnit) error { units++; return nil }); err != nil {
			b.Fatal(err)
		}
		if units == 0 {
			b.Fatal("no units")
		}
		add, seal, read = add+added.Sub(began), seal+sealed.Sub(added), read+time.Since(sealed)
		bl.Close()
	}
	// Where the time goes: the load, the seal, and reading the units.
	for _, m := range []struct {
		d    time.Duration
		unit string
	}{{add, "add-ms/op"}, {seal, "seal-ms/op"}, {read, "units-ms/op"}} {
		b.ReportMetric(float64(m.d.Milliseconds())/float64(b.N), m.unit)
	}
}
