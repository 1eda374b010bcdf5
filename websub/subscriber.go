package websub

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"
)

// Doer sends HTTP requests to hubs; an *http.Client is one.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Subscriber subscribes to notification channels at hubs and receives
// their notifications. It is an http.Handler for the callbacks: mount it
// where Options.CallbackURL points (it serves any path whose last segment
// is a subscription's id, so a prefix stripped by a proxy or
// http.StripPrefix does not matter). All its methods are safe for
// concurrent use.
type Subscriber struct {
	doer    Doer
	opts    Options
	log     zerolog.Logger
	base    string // CallbackURL with a trailing slash
	notes   chan Notification
	wake    chan struct{} // tells Run the schedule changed
	running atomic.Bool

	mu     sync.Mutex
	subs   map[string]*Subscription // by id
	closed bool
}

// New returns a Subscriber that sends its requests to hubs with doer. It
// fails when doer is nil or opts are out of range.
func New(doer Doer, opts Options, log zerolog.Logger) (*Subscriber, error) {
	if doer == nil {
		return nil, errors.New("websub: nil Doer")
	}
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("websub options: %w", err)
	}
	base, _ := parseCallbackBase(opts.CallbackURL)
	base.Path = strings.TrimSuffix(base.Path, "/") + "/"
	base.RawPath = ""
	return &Subscriber{
		doer:  doer,
		opts:  opts,
		log:   log,
		base:  base.String(),
		notes: make(chan Notification, opts.QueueSize),
		wake:  make(chan struct{}, 1),
		subs:  make(map[string]*Subscription),
	}, nil
}

// Notifications delivers valid notifications, in the order they arrived.
// It is closed by Close. A consumer that falls QueueSize behind loses
// notifications (see Notification.Dropped).
func (s *Subscriber) Notifications() <-chan Notification { return s.notes }

// Subscriptions returns the subscriptions that have not ended, in no
// particular order.
func (s *Subscriber) Subscriptions() []*Subscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Subscription, 0, len(s.subs))
	for _, x := range s.subs {
		out = append(out, x)
	}
	return out
}

// Subscribe subscribes to topic at hub: it asks the hub with a new callback
// and secret, then waits (up to Options.VerifyTimeout, and ctx) for the
// hub to verify. It returns the subscription with the lease the hub
// granted; Run renews it. It fails with ErrClosed after Close, with a
// *HubError when the hub answers other than 2xx, with a *DeniedError when
// the hub denies the subscription, and with ErrVerifyTimeout when the hub
// does not verify in time; the error names topic and hub.
func (s *Subscriber) Subscribe(ctx context.Context, hub, topic string) (*Subscription, error) {
	x, err := s.add(hub, topic)
	if err != nil {
		return nil, fmt.Errorf("subscribe to %s at hub %s: %w", topic, hub, err)
	}
	defer x.release()
	if err := s.request(ctx, x, modeSubscribe); err != nil {
		s.end(x, err)
		return nil, fmt.Errorf("subscribe to %s at hub %s: %w", topic, hub, err)
	}
	s.log.Info().Str("hub", hub).Str("topic", topic).Str("uri", x.callback).
		Dur("lease", x.Lease()).Msg("subscribed")
	return x, nil
}

// add makes a subscription and registers it, with its op held.
func (s *Subscriber) add(hub, topic string) (*Subscription, error) {
	if err := checkURL(hub); err != nil {
		return nil, fmt.Errorf("hub: %w", err)
	}
	if err := checkURL(topic); err != nil {
		return nil, fmt.Errorf("topic: %w", err)
	}
	id, err := s.random(16)
	if err != nil {
		return nil, err
	}
	secret, err := s.random(32)
	if err != nil {
		return nil, err
	}
	x := &Subscription{
		s: s, id: id, hub: hub, topic: topic, callback: s.base + id,
		secret: []byte(secret), op: make(chan struct{}, 1), done: make(chan struct{}),
	}
	x.op <- struct{}{}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, ErrClosed
	case s.subs[id] != nil:
		return nil, errors.New("callback id collision: the random source repeats itself")
	}
	s.subs[id] = x
	return x, nil
}

// Unsubscribe asks the hub to end x and waits (up to VerifyTimeout, and
// ctx) for it to verify. x ends here whatever the hub does: its callback is
// no longer served and it is no longer renewed, so at worst the hub's lease
// runs out. It returns nil for a subscription that already ended, and else
// the errors of Subscribe, naming topic and hub.
func (s *Subscriber) Unsubscribe(ctx context.Context, x *Subscription) error {
	if x == nil || x.s != s {
		return errors.New("websub: unsubscribe a subscription of another Subscriber")
	}
	if err := x.acquire(ctx); err != nil {
		return fmt.Errorf("unsubscribe from %s at hub %s: %w", x.topic, x.hub, err)
	}
	defer x.release()
	s.mu.Lock()
	if x.state == stateEnded {
		s.mu.Unlock()
		return nil
	}
	x.state = stateUnsubscribing
	s.mu.Unlock()
	err := s.request(ctx, x, modeUnsubscribe)
	s.end(x, nil)
	if err != nil {
		return fmt.Errorf("unsubscribe from %s at hub %s: %w", x.topic, x.hub, err)
	}
	s.log.Info().Str("hub", x.hub).Str("topic", x.topic).Msg("unsubscribed")
	return nil
}

// Close stops new subscriptions, unsubscribes every subscription at once
// (each bounded by ctx, the retry options and VerifyTimeout), closes the
// Notifications channel and makes Run return. Call it while the callback
// handler is still served, so that hubs can verify the unsubscriptions. It
// returns the unsubscribe errors joined; a second call returns nil.
func (s *Subscriber) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	subs := make([]*Subscription, 0, len(s.subs))
	for _, x := range s.subs {
		subs = append(subs, x)
	}
	s.mu.Unlock()
	s.poke()

	errs := make([]error, len(subs))
	var wg sync.WaitGroup
	for i, x := range subs {
		wg.Go(func() { errs[i] = s.Unsubscribe(ctx, x) })
	}
	wg.Wait()
	s.mu.Lock()
	close(s.notes) // safe: nothing is sent once closed is set
	s.mu.Unlock()
	return errors.Join(errs...)
}

// ServeHTTP answers the hub at a callback: GET is a verification of intent
// (verify.go), POST a delivery (deliver.go). Unknown callbacks get 404.
func (s *Subscriber) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	s.mu.Lock()
	x := s.subs[id]
	s.mu.Unlock()
	if x == nil {
		s.log.Debug().Str("uri", r.URL.Path).Str("method", r.Method).Msg("request for an unknown callback")
		http.NotFound(w, r)
		return
	}
	switch r.Method {
	case http.MethodGet:
		s.verify(w, r, x)
	case http.MethodPost:
		s.deliver(w, r, x)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// end ends x with err, once: it is no longer served nor renewed.
func (s *Subscriber) end(x *Subscription, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLocked(x, err)
}

func (s *Subscriber) endLocked(x *Subscription, err error) {
	if x.state == stateEnded {
		return
	}
	x.state = stateEnded
	x.err = err
	x.pending = nil
	delete(s.subs, x.id)
	close(x.done)
}

// poke tells Run that the schedule changed, without blocking.
func (s *Subscriber) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// random returns n random bytes from Options.Rand, hex-encoded.
func (s *Subscriber) random(n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.opts.Rand, b); err != nil {
		return "", fmt.Errorf("read random bytes: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// checkURL checks that s is an absolute http or https URL.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http or https URL", s)
	}
	return nil
}
