package nettest

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
)

// Network guarantees of the HTTP client (README "Guarantees", items 5 and
// 7) that need timeouts smaller than the command line's defaults, through
// Toxiproxy. The cases without Toxiproxy are the source package's own.

// client is the real HTTP client with retry waits of a few milliseconds,
// changed by edit.
func client(t *testing.T, edit func(*source.Options)) *source.Client {
	t.Helper()
	o := source.DefaultOptions()
	o.MinRetryWait, o.MaxRetryWait = time.Millisecond, 5*time.Millisecond
	o.ConnectTimeout, o.TLSHandshakeTimeout = 5*time.Second, 5*time.Second
	o.ResponseHeaderTimeout, o.IdleTimeout = 10*time.Second, 10*time.Second
	edit(&o)
	c, err := source.New(o)
	if err != nil {
		t.Fatalf("source.New: %v", err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// upstream serves h on loopback and counts its requests.
func upstream(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// reach returns the count once it is at least want, or after a bounded
// wait: a client that gives up on a header timeout may return before the
// server has read its last request, which is on the wire and counted late.
func reach(n *atomic.Int64, want int64) int64 {
	deadline := time.Now().Add(30 * time.Second)
	for n.Load() < want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return n.Load()
}

// pattern is n bytes that are not all alike, so that truncation shows in
// the hashes.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// memSink keeps what a download wrote.
type memSink struct{ buf bytes.Buffer }

func (s *memSink) Write(p []byte) (int, error) { return s.buf.Write(p) }
func (s *memSink) Reset() error                { s.buf.Reset(); return nil }

// discardSink drops what a download wrote.
type discardSink struct{}

func (discardSink) Write(p []byte) (int, error) { return len(p), nil }
func (discardSink) Reset() error                { return nil }

func wantUnavailable(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, resourcesync.ErrUnavailable) {
		t.Fatalf("error %v: want it to match %v", err, resourcesync.ErrUnavailable)
	}
}

// A Source that takes the request and never answers (Toxiproxy drops
// everything it sends back): the header timeout fires on every attempt,
// the attempts are bounded, and the error says what happened.
func TestGuaranteeStalledHeadersThroughToxiproxy(t *testing.T) {
	srv, n := upstream(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("never seen")) })
	x := proxy(t, strings.TrimPrefix(srv.URL, "http://"))
	x.add(t, "timeout_downstream", "timeout", "downstream", 1, `{"timeout":0}`)
	c := client(t, func(o *source.Options) {
		o.ResponseHeaderTimeout = 100 * time.Millisecond
		o.MaxAttempts = 3
	})
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: x.URL + "/x"}, &memSink{})
	wantUnavailable(t, err)
	if !strings.Contains(err.Error(), "timeout awaiting response headers") {
		t.Errorf("error %q should say the headers timed out", err)
	}
	if got := reach(n, 3); got != 3 {
		t.Errorf("the Source got %d requests, want 3 attempts", got)
	}
}

// Connections cut after a few bytes (Toxiproxy limit_data), with the full
// Content-Length announced: every attempt is caught short by its length,
// retried, and the fetch fails as unavailable - never a short success.
func TestGuaranteeCutConnectionsAreCaughtByLength(t *testing.T) {
	body := pattern(4000)
	srv, n := upstream(t, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	x := proxy(t, strings.TrimPrefix(srv.URL, "http://"))
	x.add(t, "limit_data_downstream", "limit_data", "downstream", 1, `{"bytes":1000}`)
	c := client(t, func(o *source.Options) { o.MaxAttempts = 3 })
	sink := &memSink{}
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: x.URL + "/x"}, sink)
	wantUnavailable(t, err)
	if got := reach(n, 3); got != 3 {
		t.Errorf("the Source got %d requests, want 3 attempts", got)
	}
	if sink.buf.Len() == len(body) {
		t.Errorf("the sink holds the whole body though every attempt was cut")
	}
}

// A big download that flows steadily through a bandwidth limit lasts many
// idle timeouts and rate windows in total and is not killed: 50 MB at
// 20 MB/s, idle timeout 1 s, a floor of 256 KiB/s over 1 s windows.
func TestGuaranteeBigSteadyDownloadIsNotKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 50 MB through a throttled proxy")
	}
	const size = 50 << 20
	chunk := pattern(1 << 20)
	sum := md5.New()
	for range size / len(chunk) {
		sum.Write(chunk)
	}
	want := resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: hex.EncodeToString(sum.Sum(nil))}}
	srv, _ := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(size))
		for range size / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	x := proxy(t, strings.TrimPrefix(srv.URL, "http://"))
	x.add(t, "bandwidth_downstream", "bandwidth", "downstream", 1, `{"rate":20480}`)
	const idle = time.Second
	c := client(t, func(o *source.Options) {
		o.IdleTimeout = idle
		o.MinRate, o.MinRateWindow = 256<<10, idle
		o.MaxAttempts = 1 // one attempt: a watchdog that timed the whole body would fail it
	})
	start := time.Now()
	got, err := c.Download(context.Background(), resourcesync.Fetch{URL: x.URL + "/big", Hash: want, Length: size, HasLength: true}, discardSink{})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("a steady download was killed after %s: %v", took, err)
	}
	if got.Bytes != size {
		t.Fatalf("got %d bytes, want %d", got.Bytes, size)
	}
	if took < 2*idle {
		t.Errorf("the download took %s; the test needs it to outlast the idle timeout (%s) several times", took, idle)
	}
}
