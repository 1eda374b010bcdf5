package websub

import (
	"io"
	"net/http"
	"strconv"
	"time"
)

// verify answers a hub's GET at x's callback: a verification of intent
// (hub.mode subscribe or unsubscribe, echoed only when we asked for it) or
// a denial. Anything we did not ask for gets 404, which WebSub reads as "no
// intent".
func (s *Subscriber) verify(w http.ResponseWriter, r *http.Request, x *Subscription) {
	q := r.URL.Query()
	mode, topic := q.Get("hub.mode"), q.Get("hub.topic")
	log := s.log.With().Str("hub", x.hub).Str("topic", x.topic).Str("mode", mode).Logger()
	if topic != x.topic {
		log.Warn().Str("uri", topic).Msg("verification refused: topic is not the subscription's")
		http.NotFound(w, r)
		return
	}
	switch mode {
	case modeSubscribe, modeUnsubscribe:
		challenge := q.Get("hub.challenge")
		if challenge == "" {
			log.Warn().Msg("verification refused: no hub.challenge")
			http.NotFound(w, r)
			return
		}
		lease, ok := s.grantedLease(q.Get("hub.lease_seconds"))
		if mode == modeSubscribe && !ok {
			log.Warn().Str("lease", q.Get("hub.lease_seconds")).Msg("verification refused: bad hub.lease_seconds")
			http.NotFound(w, r)
			return
		}
		if !s.accept(x, mode, lease) {
			log.Warn().Msg("verification refused: not a request we made")
			http.NotFound(w, r)
			return
		}
		log.Debug().Dur("lease", lease).Msg("verification accepted")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, challenge)
	case modeDenied:
		reason := q.Get("hub.reason")
		if !s.deny(x, reason) {
			log.Warn().Str("reason", reason).Msg("denial ignored: subscription already ending")
			http.NotFound(w, r)
			return
		}
		log.Warn().Str("reason", reason).Msg("hub denied the subscription")
		w.WriteHeader(http.StatusOK)
	default:
		log.Warn().Msg("verification refused: unknown hub.mode")
		http.NotFound(w, r)
	}
}

// grantedLease reads hub.lease_seconds: a whole number of seconds, at least
// 1. A hub that leaves it out is taken to grant what we asked for.
func (s *Subscriber) grantedLease(v string) (time.Duration, bool) {
	if v == "" {
		return time.Duration(s.opts.LeaseSeconds) * time.Second, s.opts.LeaseSeconds > 0
	}
	n, err := strconv.ParseInt(v, 10, 32) // 68 years at most: no Duration overflow
	if err != nil || n < 1 {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

// accept records a verification of mode for x, if it is one we asked for:
// subscribe while x is being subscribed or is active (a renewal, or a hub
// verifying again), unsubscribe while x is being unsubscribed.
func (s *Subscriber) accept(x *Subscription, mode string, lease time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := x.pending
	switch {
	case mode == modeSubscribe && (x.state == statePending || x.state == stateActive):
		x.state = stateActive
		x.lease = lease
		x.verifiedAt = s.opts.Now()
		x.renewAt = x.verifiedAt.Add(s.opts.renewIn(lease))
		x.failures = 0
		s.poke() // before done, so that Run drains the wake-up its own renewal caused
	case mode == modeUnsubscribe && x.state == stateUnsubscribing:
	default:
		return false
	}
	if p != nil && p.mode == mode {
		p.done <- nil
		x.pending = nil
	}
	return true
}

// deny records the hub's denial of x: a subscribe request in flight fails
// with it, an active subscription ends with it.
func (s *Subscriber) deny(x *Subscription, reason string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := &DeniedError{Reason: reason}
	if p := x.pending; p != nil && p.mode == modeSubscribe {
		p.done <- err
		x.pending = nil
		return true
	}
	if x.state == stateActive {
		s.endLocked(x, err)
		return true
	}
	return false
}
