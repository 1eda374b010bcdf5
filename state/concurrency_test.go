package state

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Readers look resources up while one writer commits batches: under -race,
// with no error (no SQLITE_BUSY), and every lookup sees a whole record.
func TestConcurrentReadersOneWriter(t *testing.T) {
	const (
		readers   = 16
		batches   = 40
		batchSize = 256
	)
	ctx := context.Background()
	db := openTest(t)
	s := ensureSet(t, db, capList)
	uri := func(b, i int) string { return fmt.Sprintf("http://example.org/b%03d/%03d", b, i) }

	var committed atomic.Int64 // batches committed so far
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, readers+1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for b := range batches {
			var batch Batch
			for i := range batchSize {
				h := held(uri(b, i), fmt.Sprintf("example.org/b%03d/%03d", b, i), int64(b))
				h.ETag = fmt.Sprintf("b%03d", b) // the batch marker
				batch.Held = append(batch.Held, h)
			}
			if err := db.Commit(ctx, s.ID, &batch); err != nil {
				errs <- fmt.Errorf("commit %d: %w", b, err)
				return
			}
			committed.Store(int64(b + 1))
		}
	}()
	var lookups atomic.Int64
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				// Batches known committed must be seen in full.
				c := int(committed.Load())
				if c == 0 {
					runtime.Gosched()
					continue
				}
				b, i := (r+n)%c, (r*7+n)%batchSize
				h, ok, err := db.Held(ctx, s.ID, uri(b, i))
				lookups.Add(1)
				if err != nil || !ok {
					errs <- fmt.Errorf("reader %d: Held(%s) = %v, %v", r, uri(b, i), ok, err)
					return
				}
				if h.Length != int64(b) || h.ETag != fmt.Sprintf("b%03d", b) || !strings.HasSuffix(h.Path, fmt.Sprintf("%03d", i)) {
					errs <- fmt.Errorf("reader %d: torn record %+v", r, h)
					return
				}
				if n%50 == 0 {
					if _, err := db.HeldCount(ctx, s.ID); err != nil {
						errs <- fmt.Errorf("reader %d: HeldCount: %w", r, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n, err := db.HeldCount(ctx, s.ID); err != nil || n != batches*batchSize {
		t.Errorf("HeldCount = %d, %v; want %d", n, err, batches*batchSize)
	}
	t.Logf("%d lookups beside %d commits", lookups.Load(), batches)
}

// Commits from several goroutines (to several sets) are serialised, none
// fails, and runs can be recorded meanwhile.
func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const writers, batches = 4, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*batches+1)
	for w := range writers {
		s := ensureSet(t, db, fmt.Sprintf("http://example.org/%d/capabilitylist.xml", w))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				h := held(fmt.Sprintf("http://example.org/%d/%d", w, b), fmt.Sprintf("%d/%d", w, b), 1)
				if err := db.Commit(ctx, s.ID, &Batch{Held: []resourcesync.Held{h}}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range batches {
			id, err := db.StartRun(ctx, "sync")
			if err == nil {
				err = db.FinishRun(ctx, id, "ok", 0, RunCounts{}, "")
			}
			if err != nil {
				errs <- err
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	sets, err := db.Sets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if n, err := db.HeldCount(ctx, s.ID); err != nil || n != batches {
			t.Errorf("set %d: HeldCount = %d, %v; want %d", s.ID, n, err, batches)
		}
	}
}
