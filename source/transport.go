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
	pace    *pacer
	bw      *bandwidth // nil: no bandwidth limit
	watch   watch
}

// RoundTrip takes a slot for the request's host, adds the extra headers
// for their origins, and watches the body for idleness. The slot is
// released when the body is closed.
func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	key := hostKey(req.URL)
	release, err := t.limit.acquire(req.Context(), key)
	if err != nil {
		return nil, err
	}
	if err := t.pace.wait(req.Context(), key); err != nil {
		release()
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
	t.pace.observe(key, resp)
	b := newWatchedBody(resp.Body, t.watch, cancel, release)
	if t.bw != nil {
		b.bw, b.ctx = t.bw, ctx
	}
	resp.Body = b
	return resp, nil
}

// anonymousKey marks the context of a download whose Fetch is Anonymous:
// no hop of it carries the extra headers.
type anonymousKey struct{}

// headerOrigin reports whether the extra headers go to req's origin.
func (t *roundTripper) headerOrigin(req *http.Request) bool {
	if len(t.headers) == 0 || req.Context().Value(anonymousKey{}) != nil {
		return false
	}
	for _, o := range t.origins {
		if o.matches(req.URL) {
			return true
		}
	}
	return false
}

// watch is what a body's watchdog enforces while a Read waits on the
// network: no gap longer than idle, and at least floor.bytes received per
// floor.window of waiting. Zero values disable each.
type watch struct {
	idle  time.Duration
	floor rateFloor
}

// rateFloor is a minimum transfer rate, like curl's --speed-limit and
// --speed-time: fewer than bytes received over a window (of time spent
// waiting for the network) aborts the attempt. rate is bytes per second,
// as configured, for the error message.
type rateFloor struct {
	rate   int64
	bytes  int64
	window time.Duration
}

// Reasons the watchdog fired, kept for the error the blocked Read returns.
const (
	firedIdle int32 = iota + 1
	firedSlow
)

// watchedBody is a response body with a watchdog: the timer runs only while
// a Read is blocked on the network, so a slow consumer (a slow disk, or our
// own bandwidth limit) never trips it, and a body that keeps flowing at
// more than the floor rate is never cut off, however long it takes. Every
// read failure comes back as a *bodyError so the retry policy can tell it
// from a failure of the consumer. A watchedBody is read by one goroutine.
type watchedBody struct {
	rc      io.ReadCloser
	w       watch
	timer   *time.Timer
	why     atomic.Int32 // what the armed timer stands for; firedIdle or firedSlow once fired
	fired   atomic.Bool
	closed  atomic.Bool
	cancel  context.CancelFunc
	release func()
	once    sync.Once

	// The current window of the rate floor: bytes received and time
	// spent waiting in Read.
	winBytes int64
	winWait  time.Duration

	// bw, when set, limits the bytes read (of every body of the Client
	// together); ctx is the hop's, which Close cancels.
	bw  *bandwidth
	ctx context.Context
}

func newWatchedBody(rc io.ReadCloser, w watch, cancel context.CancelFunc, release func()) *watchedBody {
	b := &watchedBody{rc: rc, w: w, cancel: cancel, release: release}
	if w.idle > 0 || w.floor.window > 0 {
		b.timer = time.AfterFunc(time.Hour, func() {
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
	floor := b.w.floor.window > 0
	var start time.Time
	if floor {
		start = time.Now()
	}
	if b.timer != nil {
		b.timer.Reset(b.arm())
	}
	n, err := b.rc.Read(p)
	if b.timer != nil {
		b.timer.Stop()
	}
	if err != nil && err != io.EOF {
		if b.fired.Load() {
			err = b.firedError()
		}
		return n, &bodyError{err: err}
	}
	if floor && err == nil {
		if serr := b.account(n, time.Since(start)); serr != nil {
			b.cancel()
			return n, &bodyError{err: serr}
		}
	}
	if b.bw != nil && n > 0 {
		// After the read and outside the floor's clock: our own limit
		// never counts as a slow Source.
		if werr := b.bw.take(b.ctx, n); werr != nil {
			return n, &bodyError{err: werr}
		}
	}
	return n, err
}

// account adds a Read that waited dt and then delivered n bytes to the
// rate windows, and returns a *slowError when a window closed below the
// floor. The bytes of a Read arrive at its end: a window that closes while
// a Read waits holds only the bytes received before it, and when the wait
// covers a whole window beyond that one, that window received nothing.
func (b *watchedBody) account(n int, dt time.Duration) error {
	f := b.w.floor
	if b.winWait+dt < f.window {
		b.winWait += dt
		b.winBytes += int64(n)
		return nil
	}
	if b.winBytes < f.bytes {
		return &slowError{floor: f, got: b.winBytes, over: f.window}
	}
	rest := b.winWait + dt - f.window // waited in the windows after this one
	if rest >= f.window {
		return &slowError{floor: f, got: 0, over: f.window}
	}
	b.winWait, b.winBytes = rest, int64(n)
	return nil
}

// arm picks the watchdog's delay for the next Read: the idle timeout, or
// the end of the first rate window that cannot reach the floor without
// more bytes - this one, or the next when this one already has - whichever
// comes first.
func (b *watchedBody) arm() time.Duration {
	d, why := b.w.idle, firedIdle
	if f := b.w.floor; f.window > 0 {
		left := f.window - b.winWait
		if b.winBytes >= f.bytes {
			left += f.window
		}
		if left = max(left, time.Millisecond); d <= 0 || left < d {
			d, why = left, firedSlow
		}
	}
	b.why.Store(why)
	return d
}

// firedError is the cause of a Read the watchdog aborted.
func (b *watchedBody) firedError() error {
	if b.why.Load() == firedSlow {
		got := b.winBytes
		if got >= b.w.floor.bytes {
			got = 0 // the window after the one that met the floor received nothing
		}
		return &slowError{floor: b.w.floor, got: got, over: b.w.floor.window}
	}
	return &idleError{idle: b.w.idle}
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
