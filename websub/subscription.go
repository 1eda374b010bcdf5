package websub

import (
	"context"
	"time"
)

// state is where a subscription is in its life.
type state uint8

const (
	statePending       state = iota // first subscribe request not yet verified
	stateActive                     // verified; renewed by Run
	stateUnsubscribing              // unsubscribe requested; deliveries are dropped
	stateEnded                      // unsubscribed, denied or failed; no longer served
)

// Hub modes (hub.mode).
const (
	modeSubscribe   = "subscribe"
	modeUnsubscribe = "unsubscribe"
	modeDenied      = "denied"
)

// pending is a request sent to the hub and waiting for its verification.
type pending struct {
	mode string
	done chan error // buffered: the verifier never blocks
}

// Subscription is one subscription of a Subscriber to a topic at a hub,
// with its own callback URL and secret. Its methods are safe for
// concurrent use.
type Subscription struct {
	s        *Subscriber
	id       string
	hub      string
	topic    string
	callback string
	secret   []byte
	op       chan struct{} // held by the one subscribe, renew or unsubscribe in progress
	done     chan struct{}

	// Guarded by s.mu.
	state      state
	pending    *pending
	lease      time.Duration
	verifiedAt time.Time
	renewAt    time.Time
	failures   int // renewals failed in a row
	dropped    int // notifications dropped since the last one handed over
	err        error
}

// ID is the random id that ends the callback URL.
func (x *Subscription) ID() string { return x.id }

// Hub is the hub's URL.
func (x *Subscription) Hub() string { return x.hub }

// Topic is the topic (notification channel) URL.
func (x *Subscription) Topic() string { return x.topic }

// Callback is the URL the hub calls for this subscription.
func (x *Subscription) Callback() string { return x.callback }

// Lease is the lease the hub granted at its last verification.
func (x *Subscription) Lease() time.Duration {
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	return x.lease
}

// Expires is when the lease granted at the last verification runs out.
func (x *Subscription) Expires() time.Time {
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	return x.verifiedAt.Add(x.lease)
}

// Done is closed when the subscription ends: unsubscribed, denied by the
// hub, or closed with the Subscriber.
func (x *Subscription) Done() <-chan struct{} { return x.done }

// Err is why the subscription ended: a *DeniedError when the hub denied it,
// nil while it lasts and after an Unsubscribe or Close.
func (x *Subscription) Err() error {
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	return x.err
}

// acquire takes the right to send a request for x.
func (x *Subscription) acquire(ctx context.Context) error {
	select {
	case x.op <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (x *Subscription) release() { <-x.op }
