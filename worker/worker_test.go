package worker

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures/scaletest"
	"github.com/resync-dest/resync-dest/pgstate"
)

// fakeSyncer is a Source of two sets, the first split into three lists;
// it records what ran and how many jobs fetched at once.
type fakeSyncer struct {
	mu       sync.Mutex
	discover int
	synced   map[string]int
	parts    map[string]int
	running  atomic.Int32
	most     atomic.Int32
	hold     time.Duration
	// onSync, when set, runs first in SyncSet.
	onSync func(ctx context.Context, cl string, st *pgstate.DB) error
}

func (f *fakeSyncer) busy() func() {
	n := f.running.Add(1)
	for {
		m := f.most.Load()
		if n <= m || f.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(f.hold)
	return func() { f.running.Add(-1) }
}

func (f *fakeSyncer) Sets(context.Context, pgstate.Source) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.discover++
	return []string{"http://h/a/cl.xml", "http://h/b/cl.xml"}, nil
}

func (f *fakeSyncer) Parts(ctx context.Context, _ pgstate.Source, cl string, st *pgstate.DB) ([]Part, error) {
	if s, ok, _ := st.Set(ctx, cl); cl != "http://h/a/cl.xml" || ok && s.Baselined() {
		return nil, nil
	}
	return []Part{{Doc: "http://h/a/l1.xml"}, {Doc: "http://h/a/l2.xml"}, {Doc: "http://h/a/l3.xml"}}, nil
}

func (f *fakeSyncer) SyncSet(ctx context.Context, _ pgstate.Source, cl string, st *pgstate.DB) error {
	defer f.busy()()
	f.mu.Lock()
	f.synced[cl]++
	f.mu.Unlock()
	if f.onSync != nil {
		if err := f.onSync(ctx, cl, st); err != nil {
			return err
		}
	}
	_, err := st.EnsureSet(ctx, cl, "")
	return err
}

func (f *fakeSyncer) BaselinePart(_ context.Context, _ pgstate.Source, _ string, p Part, _ *pgstate.DB) error {
	defer f.busy()()
	f.mu.Lock()
	f.parts[p.Doc]++
	f.mu.Unlock()
	return nil
}

func openDB(t *testing.T) *pgstate.DB {
	t.Helper()
	o := pgstate.DefaultOptions()
	o.URL, o.MaxConns = scaletest.NewPostgres(t), 20
	db, err := pgstate.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func runIdle(t *testing.T, db *pgstate.DB, f *fakeSyncer, budget int) {
	t.Helper()
	o := DefaultOptions()
	o.UntilIdle, o.Jobs, o.HostBudget, o.Lease, o.Check = true, 4, budget, 10*time.Second, 200*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := Run(ctx, context.Background(), db, f, o); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatal("the worker did not become idle")
	}
}

// A Source's sets each get a job, a split set a job per list and then its
// own; with a budget of one, never two jobs fetch from the host at once.
func TestJobsSplitAndHostBudget(t *testing.T) {
	db := openDB(t)
	f := &fakeSyncer{synced: map[string]int{}, parts: map[string]int{}, hold: 50 * time.Millisecond}
	ctx := context.Background()
	if err := Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := Register(ctx, db, []pgstate.Source{{Key: "http://h/", Options: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	runIdle(t, db, f, 1)
	if f.discover != 1 || f.synced["http://h/a/cl.xml"] != 1 || f.synced["http://h/b/cl.xml"] != 1 || len(f.parts) != 3 {
		t.Fatalf("discover %d, synced %v, parts %v", f.discover, f.synced, f.parts)
	}
	for l, n := range f.parts {
		if n != 1 {
			t.Errorf("%s copied %d times", l, n)
		}
	}
	if m := f.most.Load(); m != 1 {
		t.Errorf("%d jobs fetched from one host at once with a budget of 1", m)
	}
	if split, _ := db.Split(ctx, "http://h/a/cl.xml"); split {
		t.Error("the split was not cleared once the set's baseline was finished")
	}
	// Registering again adds no job; a notification runs the Source now.
	if err := Register(ctx, db, []pgstate.Source{{Key: "http://h/", Options: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	runIdle(t, db, f, 1)
	if f.discover != 1 {
		t.Fatalf("registering again ran the Source's job (%d)", f.discover)
	}
	if err := Notify(ctx, db, "http://h/"); err != nil {
		t.Fatal(err)
	}
	runIdle(t, db, f, 2)
	if f.discover != 2 || f.synced["http://h/a/cl.xml"] != 2 {
		t.Fatalf("after a notification: discover %d, synced %v", f.discover, f.synced)
	}
}

// A set whose lease another owner holds waits for it.
func TestSetWaitsForALeaseHeldElsewhere(t *testing.T) {
	db := openDB(t)
	f := &fakeSyncer{synced: map[string]int{}, parts: map[string]int{}}
	ctx := context.Background()
	if err := Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AcquireLease(ctx, "set:http://h/b/cl.xml", "elsewhere", 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := Register(ctx, db, []pgstate.Source{{Key: "http://h/", Options: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	runIdle(t, db, f, 4)
	if f.synced["http://h/b/cl.xml"] != 1 {
		t.Fatalf("synced %v", f.synced)
	}
	// The job took the lease over (epoch 2) once it ran out: the lease
	// refuses any earlier taker (pgstate's tests).
	var epoch int64
	var owner string
	if err := db.Pool().QueryRow(ctx, `SELECT epoch, owner FROM leases WHERE key = 'set:http://h/b/cl.xml'`).Scan(&epoch, &owner); err != nil {
		t.Fatal(err)
	}
	if epoch != 2 || owner == "elsewhere" {
		t.Fatalf("lease epoch %d, owner %s", epoch, owner)
	}
}

// An attempt whose lease another worker took over mid-job leaves the job
// to run again - it neither ends it nor records anything - and the next
// attempt finishes it.
func TestFencedAttemptLeavesTheJob(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	f := &fakeSyncer{synced: map[string]int{}, parts: map[string]int{}}
	const key = "set:http://h/b/cl.xml"
	var once sync.Once
	f.onSync = func(ctx context.Context, cl string, st *pgstate.DB) error {
		var err error
		if cl == "http://h/b/cl.xml" {
			once.Do(func() {
				// The lease runs out while this attempt stalls; another
				// worker takes it and lets it go.
				if _, err = db.Pool().Exec(ctx, `UPDATE leases SET expires = now() - interval '1 second' WHERE key = $1`, key); err != nil {
					return
				}
				var other pgstate.Fence
				if other, err = db.AcquireLease(ctx, key, "elsewhere", time.Minute); err != nil {
					return
				}
				err = db.ReleaseLease(ctx, other)
			})
		}
		return err
	}
	if err := Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := Register(ctx, db, []pgstate.Source{{Key: "http://h/", Options: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	runIdle(t, db, f, 4)
	if f.synced["http://h/b/cl.xml"] != 2 {
		t.Fatalf("the set was synced %d times, want twice (the fenced attempt, then the next)", f.synced["http://h/b/cl.xml"])
	}
	var state string
	if err := db.Pool().QueryRow(ctx, `SELECT state FROM river_job WHERE kind = $1 AND args->>'capability_list' = 'http://h/b/cl.xml'`,
		KindSet).Scan(&state); err != nil {
		t.Fatal(err)
	}
	if state != "completed" {
		t.Fatalf("the set's job is %s, want completed", state)
	}
	var epoch int64
	if err := db.Pool().QueryRow(ctx, `SELECT epoch FROM leases WHERE key = $1`, key).Scan(&epoch); err != nil || epoch != 3 {
		t.Fatalf("lease epoch %d (%v), want 3: the job's, the other worker's, the next attempt's", epoch, err)
	}
}
