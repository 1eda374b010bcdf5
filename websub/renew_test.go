package websub

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"
)

// startRun runs s.Run until the test ends and checks how it returned.
func startRun(t *testing.T, s *Subscriber) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	})
}

func TestRenewIn(t *testing.T) {
	o := DefaultOptions()
	pct80 := func(d time.Duration) time.Duration { return time.Duration(0.8 * float64(d)) }
	for _, c := range []struct{ lease, want time.Duration }{
		{24 * time.Hour, pct80(24 * time.Hour)},           // 80%
		{1000 * time.Second, 700 * time.Second},           // 5 minutes before the end comes first
		{400 * time.Second, 200 * time.Second},            // never before half the lease
		{10 * time.Second, minRenewInterval},              // nor sooner than 30s
		{31 * 24 * time.Hour, pct80(31 * 24 * time.Hour)}, // a month
		{(1<<31 - 1) * time.Second, pct80((1<<31 - 1) * time.Second)},
	} {
		if got := o.renewIn(c.lease); got != c.want {
			t.Errorf("renewIn(%s) = %s, want %s", c.lease, got, c.want)
		}
	}
}

func TestRenewalBeforeLeaseEnds(t *testing.T) {
	clk := newFakeClock()
	h := newTestHub(t, clk.Now)
	h.lease = 1000
	s, _ := newTestSubscriber(t, func(o *Options) { o.Now, o.After = clk.Now, clk.After })
	x := mustSubscribe(t, s, h, "http://example.com/framework/")
	granted := clk.Now()
	startRun(t, s)

	for round := 1; round <= 3; round++ {
		if d := clk.next(t); d != 700*time.Second {
			t.Fatalf("round %d: Run waits %s, want 700s (the lease is 1000s)", round, d)
		}
		if v := h.waitVerified(t); !v.ok || v.mode != modeSubscribe || v.callback != x.Callback() {
			t.Fatalf("round %d: renewal verification %+v", round, v)
		}
		reqs := h.requests()
		if len(reqs) != round+1 {
			t.Fatalf("round %d: %d hub requests, want %d", round, len(reqs), round+1)
		}
		last := reqs[len(reqs)-1]
		if last.form.Get("hub.callback") != x.Callback() || last.form.Get("hub.secret") != reqs[0].form.Get("hub.secret") {
			t.Errorf("round %d: renewal changed the callback or secret: %v", round, last.form)
		}
		if end := granted.Add(1000 * time.Second); !last.at.Before(end) {
			t.Errorf("round %d: renewal at %s, not before the lease ends at %s", round, last.at, end)
		}
		granted = last.at
		if got := x.Expires(); !got.Equal(granted.Add(1000 * time.Second)) {
			t.Errorf("round %d: expires %s, want %s", round, got, granted.Add(1000*time.Second))
		}
	}
}

func TestRenewalBacksOff(t *testing.T) {
	clk := newFakeClock()
	h := newTestHub(t, clk.Now)
	h.lease = 1000
	h.status = func(n int, _ url.Values) int {
		if n == 1 {
			return 202
		}
		return 500 // every renewal fails
	}
	s, logs := newTestSubscriber(t, func(o *Options) {
		o.Now, o.After = clk.Now, clk.After
		o.MaxAttempts = 1
		o.RenewRetryWait = 10 * time.Second
		o.RenewRetryMaxWait = 160 * time.Second
	})
	mustSubscribe(t, s, h, "http://example.com/framework/")
	startRun(t, s)

	if d := clk.next(t); d != 700*time.Second {
		t.Fatalf("first renewal after %s, want 700s", d)
	}
	// From the first failed renewal, an hour of fake time: the waits double
	// from 10s to 160s and stay there, one request per wait and no more.
	// Counts are read while Run is parked on its next wait, never after a
	// fire, when Run may already be making its next request.
	var elapsed time.Duration
	want := 10 * time.Second
	waits := 0
	for elapsed < time.Hour {
		call := clk.pending(t)
		// The subscription, the first renewal, and one more per wait fired.
		if n := len(h.requests()); n != 2+waits {
			t.Fatalf("after %d waits: %d hub requests, want %d", waits, n, 2+waits)
		}
		if n := logs.count("renewal failed"); n != 1+waits {
			t.Fatalf("after %d waits: %d failures logged, want %d", waits, n, 1+waits)
		}
		if call.d != want {
			t.Fatalf("wait %d is %s, want %s", waits+1, call.d, want)
		}
		clk.fire(call)
		waits++
		elapsed += call.d
		want = min(2*want, 160*time.Second)
	}
	// 10+20+40+80 = 150s, then 160s each: 4 + ceil(3450/160) = 26 waits.
	if waits != 26 {
		t.Errorf("%d renewal attempts in an hour, want 26", waits)
	}
}

func TestRunAlone(t *testing.T) {
	clk := newFakeClock()
	h := newTestHub(t, clk.Now)
	s, _ := newTestSubscriber(t, func(o *Options) { o.Now, o.After = clk.Now, clk.After })
	mustSubscribe(t, s, h, "http://example.com/framework/")
	startRun(t, s)
	select {
	case <-clk.calls: // the first Run is waiting for the renewal time
	case <-time.After(guard):
		t.Fatal("Run is not waiting")
	}
	if err := s.Run(t.Context()); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("second Run: %v, want a refusal", err)
	}
}
