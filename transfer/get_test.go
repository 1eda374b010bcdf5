package transfer

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestGet(t *testing.T) {
	m := newFakeMirror()
	f := &fakeFetcher{body: "hello"}
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	got, err := Get(context.Background(), f, m, Request{URI: "http://h/a", Path: "h/a", LocalAlgs: []string{"md5"}, Now: now})
	if err != nil || got.Ticket == "" || got.Bytes != 5 || got.Held.ETag != `"e"` || !got.Held.Fetched.Equal(now) {
		t.Fatalf("%+v %v", got, err)
	}
	if len(f.got.ExtraAlgs) != 1 {
		t.Errorf("no local digest asked for a resource without a hash")
	}

	// A conditional GET answered 304 keeps the copy held, with fresh metadata.
	prev := &resourcesync.Held{URI: "http://h/a", Path: "h/a", Length: 5, ETag: `"e"`}
	lastmod := now.Add(time.Hour)
	f = &fakeFetcher{notModified: true}
	got, err = Get(context.Background(), f, m, Request{URI: "http://h/a", Path: "h/a", Prev: prev, Conditional: true, LastMod: lastmod})
	if err != nil || got.Ticket != "" || got.Held.Length != 5 || !got.Held.LastMod.Equal(lastmod) || f.got.ETag != `"e"` {
		t.Fatalf("%+v %v (asked %+v)", got, err, f.got)
	}
}

func TestGetClassifiesErrors(t *testing.T) {
	m := newFakeMirror()
	f := &fakeFetcher{err: fmt.Errorf("get x: %w", resourcesync.ErrNotFound)}
	_, err := Get(context.Background(), f, m, Request{URI: "x", Path: "x"})
	if Fatal(err) || !errors.Is(err, resourcesync.ErrNotFound) {
		t.Errorf("404: %v fatal=%v", err, Fatal(err))
	}
	m.putErr = fmt.Errorf("write x: %w", syscall.ENOSPC)
	_, err = Get(context.Background(), &fakeFetcher{}, m, Request{URI: "x", Path: "x"})
	if !Fatal(err) || !errors.Is(err, resourcesync.ErrLocal) {
		t.Errorf("ENOSPC: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.putErr = errBoom
	_, err = Get(ctx, &fakeFetcher{}, m, Request{URI: "x", Path: "x"})
	if !Fatal(err) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestBreaker(t *testing.T) {
	b := &Breaker{Max: 3}
	down := fmt.Errorf("get: %w", resourcesync.ErrUnavailable)
	if b.Note("a", down) != nil || b.Note("b", down) != nil {
		t.Fatal("tripped early")
	}
	if b.Note("c", nil) != nil || b.Note("d", errBoom) != nil {
		t.Fatal("tripped on success or other errors")
	}
	b.Note("e", down)
	b.Note("f", down)
	if err := b.Note("g", down); !errors.Is(err, resourcesync.ErrUnavailable) {
		t.Fatalf("did not trip after 3 in a row: %v", err)
	}
}
