package source

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestStalledHeadersTripResponseHeaderTimeout(t *testing.T) {
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers; the client hangs up
	})
	c := newClient(t, func(o *Options) {
		o.ResponseHeaderTimeout = 50 * time.Millisecond
		o.MaxAttempts = 2
	})
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, &memSink{})
	wantIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), "timeout awaiting response headers") {
		t.Errorf("error %q should say the headers timed out", err)
	}
	if got := n.reach(2); got != 2 {
		t.Errorf("server saw %d requests, want 2", got)
	}
}

func TestIdleBodyIsAbortedAndRetried(t *testing.T) {
	const idle = 50 * time.Millisecond
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		for range 1000 { // a byte at a time, each gap longer than the idle timeout
			_, _ = w.Write([]byte{'x'})
			w.(http.Flusher).Flush()
			select {
			case <-time.After(4 * idle):
			case <-r.Context().Done():
				return
			}
		}
	})
	c := newClient(t, func(o *Options) {
		o.IdleTimeout = idle
		o.MaxAttempts = 2
	})
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, &memSink{})
	wantIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), "no data received for 50ms") {
		t.Errorf("error %q should name the idle timeout", err)
	}
	if n.get() != 2 {
		t.Errorf("server saw %d requests, want 2", n.get())
	}
	_, _, _, err = c.OpenDocument(context.Background(), srv.URL)
	wantIs(t, err, resourcesync.ErrUnavailable)
}

// A body that keeps flowing for several idle periods in total completes.
func TestSteadyBodyOutlivesIdleTimeout(t *testing.T) {
	const idle = 100 * time.Millisecond
	var mu sync.Mutex
	var took time.Duration
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		for range 60 {
			_, _ = w.Write(bytes.Repeat([]byte{'x'}, 100))
			w.(http.Flusher).Flush()
			time.Sleep(idle / 20)
		}
		mu.Lock()
		took = time.Since(start)
		mu.Unlock()
	})
	// Spare attempts absorb a scheduling stall on a loaded machine; a
	// watchdog that timed the whole body would fail every one of them.
	c := newClient(t, func(o *Options) {
		o.IdleTimeout = idle
		o.MaxAttempts = 3
	})
	got, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL, Length: 6000, HasLength: true}, &memSink{})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got.Bytes != 6000 || took < 2*idle {
		t.Errorf("got %d bytes over %s; the test needs 6000 over more than %s", got.Bytes, took, 2*idle)
	}
}

// The watchdog times the network, not the consumer: its timer runs only
// inside Read, so a consumer that works (writes to a slow disk) between
// reads for any length of time cannot trip it.
func TestIdleWatchdogRunsOnlyInsideRead(t *testing.T) {
	var cancelled, released atomic.Bool
	body := newWatchedBody(io.NopCloser(bytes.NewReader(pattern(300))), watch{idle: time.Hour},
		func() { cancelled.Store(true) }, func() { released.Store(true) })
	buf := make([]byte, 100)
	var got int
	for {
		n, err := body.Read(buf)
		got += n
		if body.timer.Stop() { // true only if the timer was still running
			t.Fatal("the watchdog runs while the consumer works")
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if got != 300 || cancelled.Load() {
		t.Fatalf("read %d bytes, cancelled %v", got, cancelled.Load())
	}
	if err := body.Close(); err != nil || !cancelled.Load() || !released.Load() {
		t.Fatalf("Close: %v; cancelled %v, released %v; want the hop context cancelled and the slot freed", err, cancelled.Load(), released.Load())
	}
}

func TestIdleWatchdogFiresOnABlockedRead(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	body := newWatchedBody(pr, watch{idle: 20 * time.Millisecond}, func() {
		pw.CloseWithError(context.Canceled) // what the transport does on cancel
	}, func() {})
	defer body.Close()
	_, err := body.Read(make([]byte, 10))
	var ie *idleError
	if !errors.As(err, &ie) || !errors.As(err, new(*bodyError)) {
		t.Fatalf("error %v, want a *bodyError from the idle watchdog", err)
	}
}
