package pgstate

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

func heldOne(uri string) *resourcesync.Batch {
	return &resourcesync.Batch{Held: []resourcesync.Held{{URI: uri, Path: "h/" + uri[len(uri)-1:], Length: 1}}}
}

// A worker that stalled past its lease is replaced; every write it makes
// afterwards is refused, and nothing of it is recorded.
func TestLateWriteOfAReplacedHolderIsRefused(t *testing.T) {
	ctx := context.Background()
	db := open(t, nil)
	set, err := db.EnsureSet(ctx, "http://h/cl.xml", "")
	if err != nil {
		t.Fatal(err)
	}
	// A lease long enough to be live however slow the machine...
	old, err := db.AcquireLease(ctx, "source:http://h/", "worker-1", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	stalled := db.Fenced(old)
	if err := stalled.Commit(ctx, set.ID, heldOne("http://h/a")); err != nil {
		t.Fatalf("a write under the live lease: %v", err)
	}
	// Another worker cannot take a live lease...
	if _, err := db.AcquireLease(ctx, "source:http://h/", "worker-2", time.Minute); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("a live lease taken: %v", err)
	}
	// ...but takes it once it ran out by the server's clock: worker-1
	// stalls past it (the minute skipped by moving the expiry back).
	if _, err := db.pool.Exec(ctx, `UPDATE leases SET expires = now() - interval '1 second' WHERE key = $1`, old.Key); err != nil {
		t.Fatal(err)
	}
	var next Fence
	deadline := time.Now().Add(time.Minute)
	for {
		next, err = db.AcquireLease(ctx, "source:http://h/", "worker-2", time.Minute)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrLeaseHeld) || time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if next.Epoch <= old.Epoch {
		t.Fatalf("epoch %d after %d", next.Epoch, old.Epoch)
	}
	// The late writes of worker-1.
	for name, write := range map[string]func() error{
		"commit":    func() error { return stalled.Commit(ctx, set.ID, heldOne("http://h/b")) },
		"run":       func() error { _, err := stalled.StartRun(ctx, "sync"); return err },
		"prune":     func() error { _, err := stalled.PruneChanges(ctx, set.ID, time.Now()); return err },
		"ensureSet": func() error { _, err := stalled.EnsureSet(ctx, "http://h/other.xml", ""); return err },
	} {
		if err := write(); !errors.Is(err, ErrFenced) {
			t.Errorf("late %s: %v, want ErrFenced", name, err)
		}
	}
	if _, ok, _ := db.Held(ctx, set.ID, "http://h/b"); ok {
		t.Fatal("a late write was recorded")
	}
	if err := stalled.Commit(ctx, set.ID, heldOne("http://h/c")); !errors.Is(err, ErrFenced) {
		t.Fatal(err)
	}
	if err := db.RenewLease(ctx, old, time.Minute); !errors.Is(err, ErrFenced) {
		t.Fatalf("renewing a lease taken over: %v", err)
	}
	if err := db.Fenced(next).Commit(ctx, set.ID, heldOne("http://h/d")); err != nil {
		t.Fatalf("the new holder's write: %v", err)
	}
	if err := db.ReleaseLease(ctx, next); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AcquireLease(ctx, "source:http://h/", "worker-3", time.Minute); err != nil {
		t.Fatalf("a released lease: %v", err)
	}
}

// A takeover waits for a commit in flight under the old lease: the check
// holds the lease row until the commit ends, so the commit is either
// wholly before the takeover or refused.
func TestTakeoverNeverInterleavesACommit(t *testing.T) {
	ctx := context.Background()
	db := open(t, nil)
	set, _ := db.EnsureSet(ctx, "http://h/cl.xml", "")
	f, err := db.AcquireLease(ctx, "k", "w1", time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	fenced := db.Fenced(f)
	var wg sync.WaitGroup
	results := make([]error, 50)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = fenced.Commit(ctx, set.ID, heldOne("http://h/"+string(rune('A'+i))))
		}()
	}
	var nf Fence
	deadline := time.Now().Add(time.Minute)
	for {
		if nf, err = db.AcquireLease(ctx, "k", "w2", time.Hour); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	wg.Wait()
	// Every commit that succeeded is recorded; none that failed is.
	for i, err := range results {
		_, ok, _ := db.Held(ctx, set.ID, "http://h/"+string(rune('A'+i)))
		if (err == nil) != ok || (err != nil && !errors.Is(err, ErrFenced)) {
			t.Errorf("commit %d: %v, recorded %v", i, err, ok)
		}
	}
	if nf.Epoch != f.Epoch+1 {
		t.Fatalf("epoch %d", nf.Epoch)
	}
}

func TestOpenMigratesOnceAndReadOnly(t *testing.T) {
	ctx := context.Background()
	db := open(t, nil)
	url := db.pool.Config().ConnString()
	// Workers starting together migrate once; reopening changes nothing.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := DefaultOptions()
			o.URL = url
			d, err := Open(ctx, o)
			if err == nil {
				d.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var v int
	if err := db.pool.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil || v != Version() {
		t.Fatalf("version %d, %v", v, err)
	}
	ro := DefaultOptions()
	ro.URL, ro.ReadOnly = url, true
	r, err := Open(ctx, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.StartRun(ctx, "sync"); !errors.Is(err, state.ErrReadOnly) {
		t.Fatalf("read-only write: %v", err)
	}
	if err := r.Commit(ctx, 1, heldOne("http://h/a")); !errors.Is(err, state.ErrReadOnly) {
		t.Fatalf("read-only commit: %v", err)
	}
	if s, err := r.EnsureSet(ctx, "http://h/new.xml", ""); err != nil || s.ID != 0 {
		t.Fatalf("read-only EnsureSet: %+v %v", s, err)
	}
	// A newer schema is refused.
	if _, err := db.pool.Exec(ctx, `UPDATE schema_version SET version = 999`); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.URL = url
	if _, err := Open(ctx, o); !errors.Is(err, state.ErrSchemaTooNew) {
		t.Fatalf("newer schema: %v", err)
	}
}

// Read-only on a database that never held a state: an empty state.
func TestReadOnlyWithoutSchemaIsEmpty(t *testing.T) {
	db := open(t, func(o *Options) { o.ReadOnly = true })
	ctx := context.Background()
	if sets, err := db.Sets(ctx); err != nil || len(sets) != 0 {
		t.Fatalf("%v %v", sets, err)
	}
	if runs, err := db.Runs(ctx, 5); err != nil || len(runs) != 0 {
		t.Fatalf("%v %v", runs, err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h:5/db?sslmode=disable": "postgres://u:xxxxx@h:5/db?sslmode=disable",
		"postgres://u@h/db":                          "postgres://u@h/db",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%s) = %s", in, got)
		}
	}
	if !IsURL("postgresql://h/db") || !IsURL("POSTGRES://h") || IsURL("/var/state.db") {
		t.Error("IsURL")
	}
}

func TestSources(t *testing.T) {
	ctx := context.Background()
	db := open(t, nil)
	for _, s := range []Source{{"http://b/", []byte(`{"dest":"s3://x/b"}`)}, {"http://a/", []byte(`{"dest":"s3://x/a"}`)}, {"http://b/", []byte(`{"dest":"s3://x/b2"}`)}} {
		if err := db.PutSource(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	all, err := db.Sources(ctx)
	if err != nil || len(all) != 2 || all[0].Key != "http://a/" || string(all[1].Options) != `{"dest": "s3://x/b2"}` {
		t.Fatalf("%+v %v", all, err)
	}
	if _, ok, _ := db.Source(ctx, "http://c/"); ok {
		t.Fatal("an unknown source")
	}
}
