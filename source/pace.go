package source

import (
	"context"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Politeness: how requests to one host are spaced, and how fast bodies
// are read, so that a small institution's server is not overrun.

// The adaptive delay, as rclone's lib/pacer: each 429 or 503 doubles the
// gap between requests to the host (from adaptMin, up to adaptMax and
// never past Options.MaxRetryWait), each other answer takes a quarter off
// it until it falls below adaptMin and stops.
const (
	adaptMin = 10 * time.Millisecond
	adaptMax = 2 * time.Second
)

// pacer spaces the requests of a whole Client per host: an optional rate
// limit (Options.TPSLimit with a burst of Options.TPSBurst, a token bucket
// per host shared by every worker), and an adaptive delay that a 429 or 503
// answer raises for the whole host - not just for the request that got it -
// with a Retry-After pausing every request to the host for that long
// (within Options.MaxRetryWait). Safe for concurrent use.
type pacer struct {
	tps      rate.Limit // 0: no rate limit
	burst    int
	maxPause time.Duration
	now      func() time.Time

	mu    sync.Mutex
	hosts map[string]*hostPace
}

// hostPace is one host's pacing. Requests that must wait take turns, so
// that each one's delay counts from when the one before it really left (a
// waiter the scheduler woke late pushes the next one back, rather than
// letting two go together), and a token is taken at the moment its request
// leaves: whatever the load, no second of the wall clock sees more starts
// than the rate and the burst allow.
type hostPace struct {
	lim  *rate.Limiter // nil without a rate limit
	turn chan struct{} // one waiter at a time

	mu   sync.Mutex
	gap  time.Duration // the adaptive delay between requests; 0 while the host answers well
	next time.Time     // no request starts before this
}

func newPacer(o Options) *pacer {
	return &pacer{tps: rate.Limit(o.TPSLimit), burst: max(o.TPSBurst, 1), maxPause: o.MaxRetryWait, now: o.Now, hosts: map[string]*hostPace{}}
}

func (p *pacer) host(key string) *hostPace {
	p.mu.Lock()
	defer p.mu.Unlock()
	h, ok := p.hosts[key]
	if !ok {
		h = &hostPace{turn: make(chan struct{}, 1)}
		if p.tps > 0 {
			h.lim = rate.NewLimiter(p.tps, p.burst)
		}
		p.hosts[key] = h
	}
	return h
}

// wait returns when a request to the host may start, or with ctx's error.
// A host that answers well and has no rate limit costs a lock and no wait.
func (p *pacer) wait(ctx context.Context, key string) error {
	h := p.host(key)
	h.mu.Lock()
	idle := h.lim == nil && h.gap == 0 && !h.next.After(p.now())
	h.mu.Unlock()
	if idle {
		return nil
	}
	select {
	case h.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-h.turn }()
	for { // a Retry-After may push next on while this one sleeps
		h.mu.Lock()
		d := h.next.Sub(p.now())
		h.mu.Unlock()
		if d <= 0 {
			break
		}
		if err := sleep(ctx, d); err != nil {
			return err
		}
	}
	if h.lim != nil {
		for {
			now := p.now()
			r := h.lim.ReserveN(now, 1)
			d := r.DelayFrom(now)
			if d == 0 {
				break // the token is taken now, as the request leaves
			}
			r.CancelAt(now)
			if err := sleep(ctx, d); err != nil {
				return err
			}
		}
	}
	h.mu.Lock()
	if h.gap > 0 {
		h.next = p.now().Add(h.gap)
	}
	h.mu.Unlock()
	return nil
}

// sleep waits d, or returns ctx's error.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// observe adapts the host's pace to an answer: 429 and 503 slow it down
// (Retry-After pauses it), anything else lets it recover.
func (p *pacer) observe(key string, resp *http.Response) {
	h := p.host(key)
	h.mu.Lock()
	defer h.mu.Unlock()
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		if h.gap > 0 {
			if h.gap = h.gap * 3 / 4; h.gap < adaptMin {
				h.gap = 0
			}
		}
		return
	}
	now := p.now()
	h.gap = min(max(2*h.gap, adaptMin), adaptMax, p.maxPause)
	if d, ok := retryAfter(resp.Header.Get("Retry-After"), now); ok {
		if until := now.Add(min(d, p.maxPause)); until.After(h.next) {
			h.next = until
		}
	}
}

// bandwidth limits the bytes read from every body of a Client together
// (Options.BWLimit): a token bucket whose burst is a tenth of a second's
// worth, at least 64 KiB (a read). Safe for concurrent use.
type bandwidth struct{ lim *rate.Limiter }

func newBandwidth(bytesPerSecond int64) *bandwidth {
	if bytesPerSecond <= 0 {
		return nil
	}
	return &bandwidth{lim: rate.NewLimiter(rate.Limit(bytesPerSecond), int(max(bytesPerSecond/10, 64<<10)))}
}

// take waits until n more bytes may be read, or ctx is done.
func (b *bandwidth) take(ctx context.Context, n int) error {
	for n > 0 {
		k := min(n, b.lim.Burst())
		if err := b.lim.WaitN(ctx, k); err != nil {
			return err
		}
		n -= k
	}
	return nil
}
