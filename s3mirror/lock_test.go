package s3mirror

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestLockOneWriterPerMirror(t *testing.T) {
	a, s := open(t, "m", nil)
	b := openOn(t, s, "m", nil)
	other := openOn(t, s, "other", nil)
	release, err := a.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lock(); !errors.Is(err, mirror.ErrLocked) || !strings.Contains(err.Error(), "pid") {
		t.Fatalf("second writer: %v", err)
	}
	if r, err := other.Lock(); err != nil {
		t.Fatalf("another prefix is another mirror: %v", err)
	} else {
		r()
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatalf("second release: %v", err)
	}
	r, err := b.Lock()
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	r()
}

// A killed run leaves its lock object; once its lease is over, the next
// run takes it over.
func TestLockTakesOverAnExpiredLease(t *testing.T) {
	m, s := open(t, "m", nil)
	stale, _ := json.Marshal(lockRecord{Holder: "resync-dest (pid 1 on gone)", Expires: time.Now().Add(-time.Second)})
	if _, err := s.Client.PutObject(t.Context(), s.Bucket, "m/.resync-dest/lock", strings.NewReader(string(stale)), int64(len(stale)), minio.PutObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	release, err := m.Lock()
	if err != nil {
		t.Fatalf("an expired lock: %v", err)
	}
	body, _, _ := object(t, s, "m/.resync-dest/lock")
	if strings.Contains(body, "pid 1 on gone") {
		t.Fatalf("lock object not replaced: %s", body)
	}
	release()
	if _, _, ok := object(t, s, "m/.resync-dest/lock"); ok {
		t.Fatal("released lock object still there")
	}
}

// A run whose lock another run took (its lease ran out while it stalled)
// writes nothing more.
func TestLockLostStopsWrites(t *testing.T) {
	m, s := open(t, "m", func(o *Options) { o.Lease = 600 * time.Millisecond })
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ticket := put(t, m, "h/x", "x", time.Time{})
	// Another run replaces the lock object, as a takeover would.
	taken, _ := json.Marshal(lockRecord{Holder: "the other run", Expires: time.Now().Add(time.Hour)})
	if _, err := s.Client.PutObject(t.Context(), s.Bucket, "m/.resync-dest/lock", strings.NewReader(string(taken)), int64(len(taken)), minio.PutObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for m.usable() == nil {
		if time.Now().After(deadline) {
			t.Fatal("the lost lock was not noticed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	errs, err := m.Publish([]string{ticket})
	if !errors.Is(err, ErrLockLost) || !errors.Is(err, resourcesync.ErrLocal) || errs[0] == nil {
		t.Fatalf("publish after the lock was lost: %v, %v", errs, err)
	}
	if _, _, ok := object(t, s, "m/h/x"); ok {
		t.Fatal("written after the lock was lost")
	}
	if err := m.Remove("h/y"); !errors.Is(err, ErrLockLost) {
		t.Fatalf("remove: %v", err)
	}
	release()
	if body, _, _ := object(t, s, "m/.resync-dest/lock"); !strings.Contains(body, "the other run") {
		t.Fatalf("the other run's lock was released: %q", body)
	}
}

// A mirror whose fence ended (a worker's job that lost its lease) writes
// nothing more: what was staged is not published, nothing is removed, and
// the error says why, with the fence's cause.
func TestFenceEndedStopsWrites(t *testing.T) {
	fence, end := context.WithCancelCause(context.Background())
	defer end(nil)
	m, s := open(t, "m", func(o *Options) { o.Fence = fence })
	publish(t, m, put(t, m, "h/kept", "kept", time.Time{}))
	ticket := put(t, m, "h/x", "x", time.Time{})
	lost := errors.New("the job's lease was taken over")
	end(lost)
	errs, err := m.Publish([]string{ticket})
	if !errors.Is(err, ErrFenced) || !errors.Is(err, lost) || !errors.Is(err, resourcesync.ErrLocal) || errs[0] == nil {
		t.Fatalf("publish after the fence ended: %v, %v", errs, err)
	}
	if _, _, ok := object(t, s, "m/h/x"); ok {
		t.Fatal("published after the fence ended")
	}
	if err := m.Remove("h/kept"); !errors.Is(err, ErrFenced) {
		t.Fatalf("remove: %v", err)
	}
	if _, _, ok := object(t, s, "m/h/kept"); !ok {
		t.Fatal("removed after the fence ended")
	}
	if _, err := m.Put("h/y", time.Time{}, func(resourcesync.Sink) (bool, error) { return true, nil }); !errors.Is(err, ErrFenced) {
		t.Fatalf("put: %v", err)
	}
}
