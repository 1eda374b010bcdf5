package websub

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/rs/zerolog"
)

// Notification is a valid notification as it arrived at a subscription's
// callback. Consumers use it as a trigger to read the Source again.
type Notification struct {
	Payload
	Hub          string    // the subscription's hub
	Topic        string    // the subscription's topic (channel)
	Subscription string    // the subscription's ID
	Received     time.Time // Options.Now when it arrived
	// Dropped is how many notifications of this subscription were dropped
	// before this one because the consumer was QueueSize behind; when it
	// is not 0, read the Source in full rather than only what Changes says.
	Dropped int
}

// deliver handles a hub's POST at x's callback. Only an oversized body
// (413) or one that cannot be read (400) is refused; a delivery that is not
// signed with x's secret or does not parse as a notification is dropped
// and logged, but answered 202 like a good one: a forger learns nothing,
// and a hub does not retry a payload the Source got wrong.
func (s *Subscriber) deliver(w http.ResponseWriter, r *http.Request, x *Subscription) {
	log := s.log.With().Str("hub", x.hub).Str("topic", x.topic).Logger()
	body, err := readBody(w, r, s.opts.MaxPayload)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			log.Warn().Int64("limit", tooBig.Limit).Msg("delivery refused: payload too large")
			http.Error(w, "payload too large", http.StatusRequestEntityTooLarge)
			return
		}
		log.Warn().Err(err).Msg("delivery refused: body unreadable")
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	if err := checkSignature(x.secret, r.Header.Get("X-Hub-Signature"), body); err != nil {
		log.Warn().Err(err).Int("bytes", len(body)).Msg("delivery ignored: signature refused")
		w.WriteHeader(http.StatusAccepted)
		return
	}
	p, err := ParsePayload(body, x.topic)
	if err != nil {
		log.Warn().Err(err).Int("bytes", len(body)).Msg("delivery ignored: not a notification")
		w.WriteHeader(http.StatusAccepted)
		return
	}
	s.handOver(x, p, log)
	w.WriteHeader(http.StatusAccepted)
}

// readBody reads r's body up to limit bytes; beyond, the error is an
// *http.MaxBytesError (at once when Content-Length says so).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
}

// handOver queues a notification of x for the consumer without blocking:
// when the queue is full it is dropped, logged and counted in the next
// notification of x that gets through. Nothing is queued for a
// subscription that is ending or after Close.
func (s *Subscriber) handOver(x *Subscription, p *Payload, log zerolog.Logger) {
	s.mu.Lock()
	if s.closed || x.state == stateUnsubscribing || x.state == stateEnded {
		s.mu.Unlock()
		log.Debug().Msg("delivery ignored: subscription ending")
		return
	}
	n := Notification{
		Payload: *p, Hub: x.hub, Topic: x.topic, Subscription: x.id,
		Received: s.opts.Now(), Dropped: x.dropped,
	}
	var dropped int
	select {
	case s.notes <- n:
		x.dropped = 0
	default:
		x.dropped++
		dropped = x.dropped
	}
	s.mu.Unlock()
	if dropped > 0 {
		log.Warn().Int("dropped", dropped).Msg("notification dropped: the consumer is behind")
		return
	}
	log.Debug().Int("changes", len(p.Changes)).Str("capability", string(p.Capability)).Msg("notification received")
}
