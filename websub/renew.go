package websub

import (
	"context"
	"errors"
	"time"
)

// Run renews every active subscription before its granted lease runs out,
// until ctx is done (it returns ctx.Err()) or the Subscriber is closed (it
// returns nil). Renewals run one after the other; a failed one is logged
// and retried after Options.RenewRetryWait, doubling up to
// RenewRetryMaxWait, and a denied one ends its subscription. Only one Run
// may run at a time; a second returns an error at once.
func (s *Subscriber) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return errors.New("websub: Run is already running")
	}
	defer s.running.Store(false)
	for {
		select { // wake-ups so far are covered by the schedule read below
		case <-s.wake:
		default:
		}
		now := s.opts.Now()
		due, next, closed := s.schedule(now)
		if closed {
			return nil
		}
		for _, x := range due {
			s.renew(ctx, x)
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		if len(due) > 0 {
			continue
		}
		var timer <-chan time.Time // nil: nothing to renew, wait for a wake-up
		if !next.IsZero() {
			timer = s.opts.After(next.Sub(now))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer:
		case <-s.wake:
		}
	}
}

// schedule returns the active subscriptions due for renewal at now, and
// the earliest renewal time of the others (zero when there is none).
func (s *Subscriber) schedule(now time.Time) (due []*Subscription, next time.Time, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, time.Time{}, true
	}
	for _, x := range s.subs {
		switch {
		case x.state != stateActive:
		case !x.renewAt.After(now):
			due = append(due, x)
		case next.IsZero() || x.renewAt.Before(next):
			next = x.renewAt
		}
	}
	return due, next, false
}

// renew subscribes x again with the same callback and secret. On failure
// it schedules the next attempt; on denial it ends x.
func (s *Subscriber) renew(ctx context.Context, x *Subscription) {
	if x.acquire(ctx) != nil {
		return
	}
	defer x.release()
	s.mu.Lock()
	active := x.state == stateActive
	s.mu.Unlock()
	if !active {
		return // unsubscribed meanwhile
	}
	log := s.log.With().Str("hub", x.hub).Str("topic", x.topic).Logger()
	err := s.request(ctx, x, modeSubscribe)
	switch {
	case err == nil:
		log.Info().Dur("lease", x.Lease()).Msg("subscription renewed")
		return
	case ctx.Err() != nil:
		return
	}
	var denied *DeniedError
	if errors.As(err, &denied) {
		s.end(x, err)
		log.Warn().Err(err).Msg("renewal denied: subscription ended")
		return
	}
	s.mu.Lock()
	x.failures++
	n := x.failures
	wait := backoff(s.opts.RenewRetryWait, s.opts.RenewRetryMaxWait, n)
	x.renewAt = s.opts.Now().Add(wait)
	expires := x.verifiedAt.Add(x.lease)
	s.mu.Unlock()
	log.Warn().Err(err).Int("attempt", n).Dur("wait", wait).Time("expires", expires).
		Msg("renewal failed; retrying")
}
