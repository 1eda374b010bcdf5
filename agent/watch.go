package agent

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Watched is one mirror Watch keeps in step.
type Watched struct {
	// Name names the mirror in logs and events (its directory).
	Name string
	// PollInterval is the time between syncs when no notification comes;
	// zero means WatchOptions.PollInterval.
	PollInterval time.Duration
	// Sync brings the mirror in step once - discovery, then a baseline or
	// an incremental sync of each set - and returns what discovery found
	// (nil when it found nothing) with the run's error. Watch never runs
	// two Syncs of one mirror at once.
	Sync func(ctx context.Context) (*Discovery, error)
}

// Notifier is a WebSub subscriber (websub.Subscriber, adapted): Watch
// subscribes to the notification channels discovery finds and reads what
// arrives.
type Notifier interface {
	// Subscribe subscribes to topic at hub and returns the subscription's
	// ID, which Notifications carry.
	Subscribe(ctx context.Context, hub, topic string) (id string, err error)
	Unsubscribe(ctx context.Context, id string) error
	// Active reports whether the subscription still stands: a hub may end
	// one (a denied renewal), and the channel must then be subscribed to
	// anew.
	Active(id string) bool
	// Notifications delivers verified notifications; it is closed when
	// the subscriber is.
	Notifications() <-chan Notification
}

// Notification is a notification a hub delivered on a subscription. Its
// content is only a trigger: what changed is read from the Source.
type Notification struct {
	Subscription string
	Topic        string
	// Changes are the documents (framework notification) or resources
	// (change notification) it names.
	Changes []NotifiedChange
}

// NotifiedChange is one entry of a notification.
type NotifiedChange struct {
	URL        string
	Capability resourcesync.Capability
	Change     resourcesync.Change
}

// WatchEvents are told what Watch does, for metrics; nil fields are
// skipped. They are called from several goroutines.
type WatchEvents struct {
	Sync          func(name, trigger string) // a sync starts: "initial", "poll" or "notification"
	Notification  func(name, result string)  // "trigger", or "ignored" (no subscription of ours)
	Subscriptions func(name string, n int)   // the channels subscribed to now
}

// Triggers of a sync, as WatchEvents.Sync reports them.
const (
	TriggerInitial      = "initial"
	TriggerPoll         = "poll"
	TriggerNotification = "notification"
)

// WatchOptions tune Watch. The zero value works: hourly polls, jittered by
// up to a tenth either way.
type WatchOptions struct {
	PollInterval time.Duration // default 1h
	// Jitter is the fraction by which a poll interval varies at random,
	// so that many mirrors (or many Destinations) do not poll in step.
	Jitter float64
	// UnsubscribeTimeout bounds the unsubscriptions at shutdown.
	UnsubscribeTimeout time.Duration
	// After and Rand are the clock and the dice (tests drive them).
	After  func(time.Duration) <-chan time.Time
	Rand   func() float64
	Events WatchEvents
	Log    zerolog.Logger
}

func (o WatchOptions) withDefaults() WatchOptions {
	if o.PollInterval <= 0 {
		o.PollInterval = time.Hour
	}
	if o.Jitter <= 0 || o.Jitter >= 1 {
		o.Jitter = 0.1
	}
	if o.UnsubscribeTimeout <= 0 {
		o.UnsubscribeTimeout = 30 * time.Second
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	return o
}

// Watch keeps each mirror in step until drain is done: a first sync at
// once, then one per poll interval (jittered), and one soon after each
// notification on a channel of the mirror's Source - the WebSub channels
// (framework-notification, change-notification) its Capability Lists
// advertise, subscribed to after each sync and unsubscribed from when they
// disappear. Notifications arriving while a sync runs are coalesced into
// one more sync; a mirror never has two syncs at once. With a nil
// Notifier, it only polls.
//
// When drain is done no new sync starts; the syncs running finish (ctx
// cancels them), then every subscription is cancelled and Watch returns
// nil. Failed syncs are logged and retried at the next trigger: they do
// not stop the watch; ctx's error is returned when ctx ends first.
func Watch(ctx, drain context.Context, mirrors []Watched, n Notifier, o WatchOptions) error {
	o = o.withDefaults()
	w := &watcher{o: o, n: n, subs: map[string]*watchedMirror{}, early: map[string]int{}}
	for i := range mirrors {
		w.mirrors = append(w.mirrors, &watchedMirror{Watched: mirrors[i], notify: make(chan struct{}, 1), channels: map[channel]string{}})
	}
	var wg sync.WaitGroup
	if n != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.dispatch(ctx, drain, n.Notifications())
		}()
	}
	var runners sync.WaitGroup
	for _, m := range w.mirrors {
		runners.Add(1)
		go func() {
			defer runners.Done()
			w.run(ctx, drain, m)
		}()
	}
	runners.Wait()
	w.unsubscribeAll(ctx)
	wg.Wait()
	if err := ctx.Err(); err != nil && drain.Err() == nil {
		return err
	}
	return nil
}

type watcher struct {
	o       WatchOptions
	n       Notifier
	mirrors []*watchedMirror

	mu   sync.Mutex
	subs map[string]*watchedMirror // subscription ID -> its mirror
	// A hub may deliver as soon as it has verified a subscription, before
	// Subscribe has returned the ID. While a Subscribe is under way,
	// notifications on IDs not known yet are held (a few), to be matched
	// when it returns.
	subscribing int
	early       map[string]int // subscription ID -> notifications held
}

// maxEarly bounds the notifications held while a Subscribe is under way.
const maxEarly = 64

type watchedMirror struct {
	Watched
	notify chan struct{} // a pending notification; buffered 1, so bursts coalesce
	// channels are the mirror's subscriptions (ID by channel); only its
	// runner touches them, and unsubscribeAll after the runner ended.
	channels map[channel]string
}

// channel is a notification channel: a WebSub topic at its hub.
type channel struct{ hub, topic string }

// run is one mirror's loop.
func (w *watcher) run(ctx, drain context.Context, m *watchedMirror) {
	trigger := TriggerInitial
	log := w.o.Log.With().Str("dest", m.Name).Logger()
	for {
		if drain.Err() != nil || ctx.Err() != nil {
			return
		}
		if f := w.o.Events.Sync; f != nil {
			f(m.Name, trigger)
		}
		log.Info().Str("trigger", trigger).Msg("sync")
		disc, err := m.Sync(ctx)
		if err != nil {
			// Sync reported it; a failed sync is tried again at the next
			// trigger.
			log.Debug().Err(err).Msg("sync did not fully succeed")
		}
		if disc != nil && w.n != nil && drain.Err() == nil {
			w.follow(ctx, m, disc, log)
		}
		interval := m.PollInterval
		if interval <= 0 {
			interval = w.o.PollInterval
		}
		select {
		case <-drain.Done():
			return
		case <-ctx.Done():
			return
		case <-w.o.After(w.jitter(interval)):
			trigger = TriggerPoll
		case <-m.notify:
			trigger = TriggerNotification
		}
	}
}

// jitter varies d at random by up to o.Jitter either way.
func (w *watcher) jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (1 + w.o.Jitter*(2*w.o.Rand()-1)))
}

// follow brings the mirror's subscriptions in line with the channels
// discovery found: new ones subscribed to, vanished ones unsubscribed
// from. A channel that cannot be subscribed to is logged and tried again
// after the next sync; polling covers it meanwhile.
func (w *watcher) follow(ctx context.Context, m *watchedMirror, disc *Discovery, log zerolog.Logger) {
	want := map[channel]bool{}
	for _, s := range disc.Sets {
		for _, c := range s.Capabilities {
			if (c.Capability == resourcesync.CapFrameworkNotification || c.Capability == resourcesync.CapChangeNotification) && c.Hub != "" {
				want[channel{hub: c.Hub, topic: c.URL}] = true
			}
		}
	}
	for ch, id := range m.channels {
		if want[ch] && w.n.Active(id) {
			continue
		}
		w.forget(id)
		delete(m.channels, ch)
		if want[ch] {
			log.Info().Str("hub", ch.hub).Str("topic", ch.topic).Msg("the hub ended the subscription; subscribing again")
			continue
		}
		if err := w.n.Unsubscribe(ctx, id); err != nil {
			log.Warn().Str("hub", ch.hub).Str("topic", ch.topic).Err(err).Msg("unsubscribe from a channel the Source no longer advertises")
		}
	}
	for ch := range want {
		if _, ok := m.channels[ch]; ok {
			continue
		}
		w.mu.Lock()
		w.subscribing++
		w.mu.Unlock()
		id, err := w.n.Subscribe(ctx, ch.hub, ch.topic)
		if err != nil {
			w.subscribed("", nil)
			log.Warn().Str("hub", ch.hub).Str("topic", ch.topic).Err(err).Msg("cannot subscribe to a notification channel; polling meanwhile, and trying again after the next sync")
			continue
		}
		log.Info().Str("hub", ch.hub).Str("topic", ch.topic).Msg("subscribed")
		m.channels[ch] = id
		w.subscribed(id, m)
	}
	if f := w.o.Events.Subscriptions; f != nil {
		f(m.Name, len(m.channels))
	}
}

// subscribed ends a Subscribe (id "" when it failed): it records the
// subscription and acts on the notifications held for it. The last
// Subscribe under way drops the rest as on no subscription of ours.
func (w *watcher) subscribed(id string, m *watchedMirror) {
	w.mu.Lock()
	w.subscribing--
	held := 0
	if id != "" {
		w.subs[id] = m
		held = w.early[id]
		delete(w.early, id)
	}
	dropped := 0
	if w.subscribing == 0 {
		for _, n := range w.early {
			dropped += n
		}
		clear(w.early)
	}
	w.mu.Unlock()
	for range held {
		w.notified(m.Name, "trigger")
	}
	if held > 0 {
		w.o.Log.Info().Str("dest", m.Name).Int("notifications", held).Msg("notified while subscribing")
		m.poke()
	}
	if dropped > 0 {
		w.o.Log.Warn().Int("notifications", dropped).Msg("notifications on no subscription of ours; ignored")
	}
	for range dropped {
		w.notified("", "ignored")
	}
}

// notified reports a notification's result to the events.
func (w *watcher) notified(name, result string) {
	if f := w.o.Events.Notification; f != nil {
		f(name, result)
	}
}

// poke asks m's runner for a sync; a sync already due absorbs it.
func (m *watchedMirror) poke() {
	select {
	case m.notify <- struct{}{}:
	default:
	}
}

func (w *watcher) forget(id string) {
	w.mu.Lock()
	delete(w.subs, id)
	w.mu.Unlock()
}

// dispatch turns notifications into triggers of their mirror's runner,
// until ctx or drain is done or the notifier closes its channel.
func (w *watcher) dispatch(ctx, drain context.Context, in <-chan Notification) {
	for {
		select {
		case <-drain.Done():
			return
		case <-ctx.Done():
			return
		case nt, ok := <-in:
			if !ok {
				return
			}
			w.mu.Lock()
			m := w.subs[nt.Subscription]
			hold := m == nil && w.subscribing > 0 && len(w.early) < maxEarly
			if hold {
				w.early[nt.Subscription]++
			}
			w.mu.Unlock()
			switch {
			case hold:
				w.o.Log.Debug().Str("topic", nt.Topic).Msg("a notification while subscribing; held until the subscription is recorded")
			case m == nil:
				w.o.Log.Warn().Str("topic", nt.Topic).Msg("a notification on no subscription of ours; ignored")
				w.notified("", "ignored")
			default:
				w.o.Log.Info().Str("dest", m.Name).Str("topic", nt.Topic).Int("changes", len(nt.Changes)).Msg("notified")
				w.notified(m.Name, "trigger") // counted before the sync it asks for
				m.poke()
			}
		}
	}
}

// unsubscribeAll cancels every subscription, within the timeout, after the
// runners have stopped.
func (w *watcher) unsubscribeAll(ctx context.Context) {
	if w.n == nil {
		return
	}
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.o.UnsubscribeTimeout)
	defer cancel()
	for _, m := range w.mirrors {
		for ch, id := range m.channels {
			w.forget(id)
			if err := w.n.Unsubscribe(uctx, id); err != nil {
				// A lease not cancelled runs out by itself.
				w.o.Log.Warn().Str("dest", m.Name).Str("hub", ch.hub).Str("topic", ch.topic).Err(err).Msg("unsubscribe at shutdown")
			}
		}
		clear(m.channels)
		if f := w.o.Events.Subscriptions; f != nil {
			f(m.Name, 0)
		}
	}
}
