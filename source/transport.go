package source

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// roundTripper is the policy layer under http.Client: it runs once per hop
// (redirects included), so a header decision made here follows the host
// actually contacted, and the per-host slot is held exactly while that hop's
// response is open.
type roundTripper struct {
	base    http.RoundTripper
	headers http.Header // sent only to origins
	origins []origin
	limit   *hostLimiter
	idle    time.Duration
}

// RoundTrip takes a slot for the request's host, adds the extra headers
// for their origins, and watches the body for idleness. The slot is
// released when the body is closed.
func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	release, err := t.limit.acquire(req.Context(), hostKey(req.URL))
	if err != nil {
		return nil, err
	}
	// A per-hop context lets the idle watchdog abort this body without
	// touching the caller's context.
	ctx, cancel := context.WithCancel(req.Context())
	var r *http.Request
	if t.headerOrigin(req) {
		r = req.Clone(ctx) // a RoundTripper must not modify the request it is given
		for k, v := range t.headers {
			r.Header[k] = v
		}
	} else {
		r = req.WithContext(ctx) // shares the header map, read only
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		cancel()
		release()
		return nil, err
	}
	resp.Body = newWatchedBody(resp.Body, t.idle, cancel, release)
	return resp, nil
}

// headerOrigin reports whether the extra headers go to req's origin.
func (t *roundTripper) headerOrigin(req *http.Request) bool {
	if len(t.headers) == 0 {
		return false
	}
	for _, o := range t.origins {
		if o.matches(req.URL) {
			return true
		}
	}
	return false
}

// watchedBody is a response body with an idle-read watchdog: the timer runs
// only while a Read is blocked on the network, so a slow consumer (a slow
// disk) never trips it, and a body that keeps flowing is never cut off.
// Every read failure comes back as a *bodyError so the retry policy can tell
// it from a failure of the consumer.
type watchedBody struct {
	rc      io.ReadCloser
	idle    time.Duration
	timer   *time.Timer
	fired   atomic.Bool
	closed  atomic.Bool
	cancel  context.CancelFunc
	release func()
	once    sync.Once
}

func newWatchedBody(rc io.ReadCloser, idle time.Duration, cancel context.CancelFunc, release func()) *watchedBody {
	b := &watchedBody{rc: rc, idle: idle, cancel: cancel, release: release}
	if idle > 0 {
		b.timer = time.AfterFunc(idle, func() {
			b.fired.Store(true)
			cancel() // aborts the blocked Read: the transport watches the request context
		})
		b.timer.Stop()
	}
	return b
}

func (b *watchedBody) Read(p []byte) (int, error) {
	if b.closed.Load() {
		return 0, io.EOF // callers that drain after closing get a quiet end
	}
	if b.timer != nil {
		b.timer.Reset(b.idle)
	}
	n, err := b.rc.Read(p)
	if b.timer != nil {
		b.timer.Stop()
	}
	if err != nil && err != io.EOF {
		if b.fired.Load() {
			err = &idleError{idle: b.idle}
		}
		err = &bodyError{err: err}
	}
	return n, err
}

// Close closes the body, stops the watchdog and frees the host slot. It is
// idempotent.
func (b *watchedBody) Close() error {
	var err error
	b.once.Do(func() {
		b.closed.Store(true)
		if b.timer != nil {
			b.timer.Stop()
		}
		err = b.rc.Close()
		b.cancel()
		b.release()
	})
	return err
}
