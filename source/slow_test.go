package source

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Issue 22, item 3: the rate floor and the document time bound. The limits
// are set small so that the tests take a fraction of a second; the
// assertions are about outcomes (which error, how many requests), never
// about how long anything took.

// trickle sends a byte every gap until the client goes away.
func trickle(gap time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		for {
			if _, err := w.Write([]byte{'<'}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(gap):
			case <-r.Context().Done():
				return
			}
		}
	}
}

// A body trickling a byte every 20 ms never idles for the idle timeout,
// but stays far below the floor (1,000 bytes/s over 200 ms of waiting):
// every attempt is aborted, and the fetch fails unavailable and too slow -
// documents and bitstreams alike.
func TestRateFloorAbortsATrickle(t *testing.T) {
	srv, n := serve(t, trickle(20*time.Millisecond))
	c := newClient(t, func(o *Options) {
		o.IdleTimeout = time.Minute
		o.MinRate, o.MinRateWindow = 1000, 200*time.Millisecond
		o.MaxAttempts = 2
	})
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/r"}, &memSink{})
	wantIs(t, err, ErrTooSlow)
	wantIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), "minimum rate of") || !strings.Contains(err.Error(), srv.URL+"/r") {
		t.Errorf("error %q should name the URL and the floor", err)
	}
	if got := n.reach(2); got != 2 {
		t.Errorf("%d requests, want 2 attempts", got)
	}
	_, _, _, err = c.OpenDocument(context.Background(), srv.URL+"/list.xml")
	wantIs(t, err, ErrTooSlow)
	wantIs(t, err, resourcesync.ErrUnavailable)
}

// With the idle timeout disabled, the floor alone still aborts a Read that
// blocks with nothing arriving: the watchdog is armed for what is left of
// the window.
func TestRateFloorFiresOnABlockedRead(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	body := newWatchedBody(pr, watch{floor: rateFloor{bytes: 10, window: 20 * time.Millisecond}}, func() {
		pw.CloseWithError(context.Canceled) // what the transport does on cancel
	}, func() {})
	defer body.Close()
	_, err := body.Read(make([]byte, 10))
	if !errors.Is(err, ErrTooSlow) || !errors.As(err, new(*bodyError)) {
		t.Fatalf("error %v, want a *bodyError matching ErrTooSlow", err)
	}
}

// The floor times the network, not the consumer: a consumer that takes
// 40 ms between reads of a body that is always ready - 1.2 s in all,
// longer than the 1 s window - does not trip a floor of 1 MiB per second
// that the 3,000 bytes could never meet if the consumer's time counted.
func TestRateFloorIgnoresTheConsumer(t *testing.T) {
	body := newWatchedBody(io.NopCloser(bytes.NewReader(pattern(3000))), watch{floor: rateFloor{bytes: 1 << 20, window: time.Second}},
		func() {}, func() {})
	defer body.Close()
	buf := make([]byte, 100)
	for {
		_, err := body.Read(buf)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("a slow consumer tripped the floor: %v", err)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// A body that flows well above the floor for many windows completes:
// 4 KiB every 10 ms against a floor of 1 KiB/s over 200 ms windows; spare
// attempts absorb a scheduling stall on a loaded machine.
func TestSteadyBodyPassesTheFloor(t *testing.T) {
	const chunks = 100
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		for range chunks {
			if _, err := w.Write(pattern(4096)); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(10 * time.Millisecond)
		}
	})
	c := newClient(t, func(o *Options) {
		o.MinRate, o.MinRateWindow = 1024, 200*time.Millisecond
		o.MaxAttempts = 3
	})
	got, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL, Length: chunks * 4096, HasLength: true}, &memSink{})
	if err != nil || got.Bytes != chunks*4096 {
		t.Fatalf("a steady body above the floor: %d bytes, %v", got.Bytes, err)
	}
}

// An endless document streamed well above the floor is still bounded: it
// is not read within MaxDocumentTime, so OpenDocument fails - unavailable,
// too slow, naming the URL and the bound - after one request (a retry
// would only take as long again), and the spool is gone.
func TestDocumentTimeBound(t *testing.T) {
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		_, _ = io.WriteString(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for {
			if _, err := w.Write(bytes.Repeat([]byte("<url><loc>http://example.org/x</loc></url>\n"), 100)); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(5 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	})
	tmp := t.TempDir()
	c := newClient(t, func(o *Options) {
		o.MaxDocumentTime = 300 * time.Millisecond
		o.SpoolMemory = 1 << 10
		o.TempDir = tmp
	})
	_, _, _, err := c.OpenDocument(context.Background(), srv.URL+"/endless.xml")
	wantIs(t, err, ErrTooSlow)
	wantIs(t, err, resourcesync.ErrUnavailable)
	wantNotIs(t, err, context.DeadlineExceeded) // not the caller's deadline: the run goes on
	if !strings.Contains(err.Error(), srv.URL+"/endless.xml") || !strings.Contains(err.Error(), "not read within 300ms") {
		t.Errorf("error %q should name the URL and the bound", err)
	}
	if got := n.get(); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
	if left := fixtures.MirrorFiles(t, tmp); len(left) != 0 {
		t.Errorf("spool files left: %v", left)
	}
}

// TestRateFloorWindows checks the window arithmetic on sequences of reads
// (wait, then bytes): a window that met the floor does not excuse the
// next one, and a single wait spanning a window delivers nothing to it.
func TestRateFloorWindows(t *testing.T) {
	const w = 100 * time.Millisecond
	type read struct {
		wait time.Duration
		n    int
	}
	ms := time.Millisecond
	tests := []struct {
		name  string
		reads []read
		slow  int // index of the read that fails; -1 for none
	}{
		{"steady", []read{{10 * ms, 30}, {10 * ms, 30}, {90 * ms, 20}, {50 * ms, 60}, {50 * ms, 1}}, -1},
		{"trickle", []read{{40 * ms, 1}, {40 * ms, 1}, {40 * ms, 1}}, 2},
		{"met, then a long wait", []read{{5 * ms, 100}, {250 * ms, 100}}, 1},
		{"met, then a wait into the next window", []read{{5 * ms, 100}, {150 * ms, 60}, {10 * ms, 1}}, -1},
		{"met, then too little in the next", []read{{5 * ms, 100}, {150 * ms, 10}, {60 * ms, 1}}, 2},
		{"one burst after a full window", []read{{120 * ms, 1000}}, 0},
	}
	for _, tt := range tests {
		b := &watchedBody{w: watch{floor: rateFloor{rate: 500, bytes: 50, window: w}}}
		failed := -1
		for i, r := range tt.reads {
			if err := b.account(r.n, r.wait); err != nil {
				if !errors.Is(err, ErrTooSlow) {
					t.Fatalf("%s: %v is not ErrTooSlow", tt.name, err)
				}
				failed = i
				break
			}
		}
		if failed != tt.slow {
			t.Errorf("%s: read %d failed, want %d", tt.name, failed, tt.slow)
		}
	}
}

// A window that met the floor, then a Read that blocks with nothing: with
// the idle timeout disabled, the watchdog still fires at the end of the
// next window.
func TestRateFloorFiresAfterAGoodWindow(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write(pattern(100))
	body := newWatchedBody(pr, watch{floor: rateFloor{rate: 1000, bytes: 20, window: 20 * time.Millisecond}}, func() {
		pw.CloseWithError(context.Canceled)
	}, func() {})
	defer body.Close()
	if n, err := body.Read(make([]byte, 100)); err != nil || n != 100 {
		t.Fatalf("first read: %d, %v", n, err)
	}
	_, err := body.Read(make([]byte, 100))
	if !errors.Is(err, ErrTooSlow) || !strings.Contains(err.Error(), "0 bytes received") {
		t.Fatalf("error %v, want ErrTooSlow with nothing received", err)
	}
}
