package source

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Issue 18, politeness. The assertions about time are bounds that load can
// only make truer: at most so many requests (or bytes) in any one second,
// at least so long between two requests - never that something was fast.
// Requests are timed as they leave the client (startTimes), where the
// pacing is done: on their way to the server, load could bunch them up.

// arrivals records when each request started, by host.
type arrivals struct {
	mu sync.Mutex
	at []time.Time
}

func (a *arrivals) add() {
	a.mu.Lock()
	a.at = append(a.at, time.Now())
	a.mu.Unlock()
}

// startTimes makes c record in by[host] when each request passes the
// pacer and leaves for the network.
func startTimes(c *Client, by map[string]*arrivals) {
	rt := c.http.Transport.(*roundTripper)
	rt.base = timedRT{base: rt.base, by: by}
}

type timedRT struct {
	base http.RoundTripper
	by   map[string]*arrivals
}

func (t timedRT) RoundTrip(r *http.Request) (*http.Response, error) {
	if a, ok := t.by[r.URL.Host]; ok {
		a.add()
	}
	return t.base.RoundTrip(r)
}

// maxPerSecond is the most arrivals in one second of the wall clock.
func (a *arrivals) maxPerSecond() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	per := map[int64]int{}
	most := 0
	for _, t := range a.at {
		per[t.Unix()]++
		most = max(most, per[t.Unix()])
	}
	return most
}

// TestTPSLimitHoldsAcrossWorkers: 8 goroutines fetching 60 documents and
// bitstreams from one host with TPSLimit 20 (burst 1) never put more than
// 21 requests in one second on it; another host has a bucket of its own.
func TestTPSLimitHoldsAcrossWorkers(t *testing.T) {
	var a, b arrivals
	srvA, _ := serve(t, content([]byte("a")))
	srvB, _ := serve(t, content([]byte("b")))
	c := newClient(t, func(o *Options) { o.TPSLimit, o.TPSBurst = 20, 1 })
	startTimes(c, map[string]*arrivals{strings.TrimPrefix(srvA.URL, "http://"): &a, strings.TrimPrefix(srvB.URL, "http://"): &b})
	var wg sync.WaitGroup
	errs := make(chan error, 120)
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < 60; i += 8 {
				for _, base := range []string{srvA.URL, srvB.URL} {
					u := base + "/" + strconv.Itoa(i)
					if i%2 == 0 {
						_, err := c.Download(context.Background(), resourcesync.Fetch{URL: u}, &memSink{})
						errs <- err
						continue
					}
					_, _, body, err := c.OpenDocument(context.Background(), u)
					if err == nil {
						body.Close()
					}
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, arr := range map[string]*arrivals{"a": &a, "b": &b} {
		if len(arr.at) != 60 {
			t.Errorf("host %s: %d requests, want 60", name, len(arr.at))
		}
		if m := arr.maxPerSecond(); m > 21 {
			t.Errorf("host %s: %d requests in one second, want at most 20 + a burst of 1", name, m)
		}
	}
}

// TestRetryAfterPausesTheHost: a 429 with Retry-After: 1 to one request
// pauses every request to that host for a second - the next request, a
// different URL, arrives at least a second after the 429 was sent - while
// another host is not held up.
func TestRetryAfterPausesTheHost(t *testing.T) {
	var mu sync.Mutex
	var sent429, next time.Time
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/busy" {
			w.Header().Set("Retry-After", "1")
			sent429 = time.Now()
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		next = time.Now()
	})
	other, n := serve(t, content([]byte("free")))
	c := newClient(t, func(o *Options) { o.MaxAttempts, o.MaxRetryWait = 1, 10*time.Second })
	if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/busy"}, &memSink{}); err == nil {
		t.Fatal("a 429 was a success")
	}
	if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: other.URL}, &memSink{}); err != nil || n.get() != 1 {
		t.Fatalf("another host: %v after %d requests", err, n.get())
	}
	if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/calm"}, &memSink{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if gap := next.Sub(sent429); gap < time.Second {
		t.Errorf("the next request to the host came %s after its 429 with Retry-After: 1", gap)
	}
}

// TestServiceUnavailableSlowsTheHost: three 503s in a row (no Retry-After)
// space the host's next requests by the adaptive delay - 40 ms after three
// doublings from 10 ms, then three quarters of it after each success. (The
// bounds leave a tenth for the moment between the pacer and the recording
// of a request's start.)
func TestServiceUnavailableSlowsTheHost(t *testing.T) {
	var a arrivals
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	c := newClient(t, func(o *Options) { o.MaxAttempts, o.MaxRetryWait = 1, 10*time.Second })
	for range 3 {
		c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/down"}, &memSink{})
	}
	startTimes(c, map[string]*arrivals{strings.TrimPrefix(srv.URL, "http://"): &a})
	for range 4 {
		if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/up"}, &memSink{}); err != nil {
			t.Fatal(err)
		}
	}
	want := []time.Duration{27 * time.Millisecond, 20 * time.Millisecond, 15 * time.Millisecond}
	for i, w := range want {
		if gap := a.at[i+1].Sub(a.at[i]); gap < w {
			t.Errorf("request %d left %s after the one before, want at least %s", i+2, gap, w)
		}
	}
}

// TestPacerRecovers: the adaptive delay doubles per 429/503 up to 2s (and
// never past MaxRetryWait), and decays to nothing once the host answers
// well.
func TestPacerRecovers(t *testing.T) {
	now := time.Unix(1000, 0)
	p := newPacer(Options{MaxRetryWait: time.Second, Now: func() time.Time { return now }})
	busy := &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}}
	fine := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}}
	for range 20 {
		p.observe("h:80", busy)
	}
	if g := p.host("h:80").gap; g != time.Second {
		t.Errorf("after 20 503s the gap is %s, want MaxRetryWait (1s)", g)
	}
	for range 30 {
		p.observe("h:80", fine)
	}
	if g := p.host("h:80").gap; g != 0 {
		t.Errorf("after 30 successes the gap is %s, want 0", g)
	}
	if g := p.host("other:80").gap; g != 0 {
		t.Errorf("another host slowed down: %s", g)
	}
	p.observe("h:80", &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"86400"}}})
	if until := p.host("h:80").next.Sub(now); until != time.Second {
		t.Errorf("Retry-After: 86400 paused the host for %s, want MaxRetryWait", until)
	}
}

// TestBWLimitHoldsAcrossBodies: three bodies of 256 KiB read at once under
// BWLimit 256 KiB/s never deliver more than that (plus the bucket's burst
// and one read) in one second.
func TestBWLimitHoldsAcrossBodies(t *testing.T) {
	body := pattern(256 << 10)
	srv, _ := serve(t, content(body))
	const limit = 256 << 10
	c := newClient(t, func(o *Options) { o.BWLimit = limit })
	var mu sync.Mutex
	per := map[int64]int{}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			sink := &timedSink{mu: &mu, per: per}
			if _, err := c.Download(context.Background(), fetchOf(srv.URL, body), sink); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	most, total := 0, 0
	for _, n := range per {
		most, total = max(most, n), total+n
	}
	if total != 3*len(body) {
		t.Fatalf("%d bytes delivered, want %d", total, 3*len(body))
	}
	if bound := limit + 64<<10 + 32<<10; most > bound {
		t.Errorf("%d bytes in one second, want at most %d", most, bound)
	}
}

// timedSink counts the bytes written to it in each second of the wall
// clock.
type timedSink struct {
	mu  *sync.Mutex
	per map[int64]int
}

func (s *timedSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.per[time.Now().Unix()] += len(p)
	s.mu.Unlock()
	return len(p), nil
}

func (s *timedSink) Reset() error { return nil }
