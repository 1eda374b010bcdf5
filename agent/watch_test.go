package agent_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// fakeNotifier is a WebSub subscriber in memory.
type fakeNotifier struct {
	mu           sync.Mutex
	next         int
	active       map[string]string // id -> hub + " " + topic
	unsubscribed []string
	failing      map[string]bool // topics that cannot be subscribed to
	// early topics are notified on before Subscribe returns, as a hub may
	// once it has verified the subscription; then a notification on no
	// subscription at all follows.
	early map[string]bool
	ch    chan agent.Notification
}

func newFakeNotifier() *fakeNotifier {
	return &fakeNotifier{active: map[string]string{}, failing: map[string]bool{}, early: map[string]bool{}, ch: make(chan agent.Notification)}
}

func (f *fakeNotifier) Subscribe(_ context.Context, hub, topic string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failing[topic] {
		return "", errors.New("hub says no")
	}
	f.next++
	id := fmt.Sprintf("sub%d", f.next)
	f.active[id] = hub + " " + topic
	if f.early[topic] {
		f.ch <- agent.Notification{Subscription: id, Topic: topic}
		// Received once the first is handled: Watch reads them in turn.
		f.ch <- agent.Notification{Subscription: "stale", Topic: topic}
	}
	return id, nil
}

func (f *fakeNotifier) Unsubscribe(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.active, id)
	f.unsubscribed = append(f.unsubscribed, id)
	return nil
}

func (f *fakeNotifier) Active(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.active[id]
	return ok
}

func (f *fakeNotifier) Notifications() <-chan agent.Notification { return f.ch }

// topics are the channels subscribed to now, sorted.
func (f *fakeNotifier) topics() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, t := range f.active {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

func (f *fakeNotifier) idOf(topic string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, t := range f.active {
		if t == topic {
			return id
		}
	}
	return ""
}

// fakeMirror is a Watched whose syncs are counted and can be held.
type fakeMirror struct {
	t        *testing.T
	syncs    atomic.Int64
	inFlight atomic.Int64
	gate     chan struct{}      // when set, a sync waits for it
	disc     atomic.Value       // *agent.Discovery to return
	triggers chan string        // fed by WatchEvents.Sync
	notified chan string        // fed by WatchEvents.Notification
	after    chan time.Time     // the poll timer
	asked    chan time.Duration // poll intervals asked for
}

func newFakeMirror(t *testing.T) *fakeMirror {
	m := &fakeMirror{t: t, triggers: make(chan string, 100), notified: make(chan string, 100),
		after: make(chan time.Time), asked: make(chan time.Duration, 100)}
	m.disc.Store(&agent.Discovery{})
	return m
}

func (m *fakeMirror) sync(ctx context.Context) (*agent.Discovery, error) {
	if m.inFlight.Add(1) > 1 {
		m.t.Errorf("two syncs of one mirror at once")
	}
	defer m.inFlight.Add(-1)
	m.syncs.Add(1)
	if m.gate != nil {
		select {
		case <-m.gate:
		case <-ctx.Done():
		}
	}
	return m.disc.Load().(*agent.Discovery), nil
}

func channels(topics ...string) *agent.Discovery {
	s := &agent.SetInfo{CapabilityList: "http://s/cl.xml", Capabilities: []agent.CapabilityDoc{
		{Capability: resourcesync.CapResourceList, URL: "http://s/rl.xml"}}}
	for _, t := range topics {
		s.Capabilities = append(s.Capabilities, agent.CapabilityDoc{Capability: resourcesync.CapFrameworkNotification, URL: t, Hub: "http://hub/"})
	}
	return &agent.Discovery{Sets: []*agent.SetInfo{s}}
}

// watch runs Watch over one fake mirror until stop is called; the returned
// wait gives Watch's error.
func watch(t *testing.T, m *fakeMirror, n agent.Notifier, rand float64) (stop func(), wait func() error) {
	t.Helper()
	drain, stopDrain := context.WithCancel(context.Background())
	done := make(chan error, 1)
	o := agent.WatchOptions{
		PollInterval: time.Hour,
		After: func(d time.Duration) <-chan time.Time {
			m.asked <- d
			return m.after
		},
		Rand: func() float64 { return rand },
		Events: agent.WatchEvents{
			Sync:         func(_, trigger string) { m.triggers <- trigger },
			Notification: func(_, result string) { m.notified <- result },
		},
	}
	var nn agent.Notifier
	if n != nil {
		nn = n
	}
	go func() {
		done <- agent.Watch(context.Background(), drain, []agent.Watched{{Name: "m", Sync: m.sync}}, nn, o)
	}()
	return stopDrain, func() error {
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("Watch did not return")
			return nil
		}
	}
}

func next[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

func TestWatchSyncsThenPolls(t *testing.T) {
	for _, tc := range []struct {
		rand float64
		want time.Duration
	}{{0.5, time.Hour}, {0, 54 * time.Minute}, {1, 66 * time.Minute}} {
		m := newFakeMirror(t)
		stop, wait := watch(t, m, nil, tc.rand)
		if got := next(t, m.triggers, "the first sync"); got != agent.TriggerInitial {
			t.Errorf("first sync: %s", got)
		}
		if d := next(t, m.asked, "the poll timer"); d != tc.want {
			t.Errorf("rand %v: poll after %v, want %v (an hour, jittered by 10%%)", tc.rand, d, tc.want)
		}
		m.after <- time.Time{}
		if got := next(t, m.triggers, "the polled sync"); got != agent.TriggerPoll {
			t.Errorf("second sync: %s", got)
		}
		next(t, m.asked, "the next poll timer")
		stop()
		if err := wait(); err != nil {
			t.Fatal(err)
		}
		if m.syncs.Load() != 2 {
			t.Errorf("%d syncs", m.syncs.Load())
		}
	}
}

// A burst of notifications while a sync runs makes one more sync, not one
// each, and never two at once.
func TestWatchCoalescesNotifications(t *testing.T) {
	m := newFakeMirror(t)
	m.disc.Store(channels("http://s/topic"))
	n := newFakeNotifier()
	stop, wait := watch(t, m, n, 0.5)
	next(t, m.triggers, "the first sync")
	next(t, m.asked, "the poll timer")
	id := n.idOf("http://hub/ http://s/topic")
	if id == "" {
		t.Fatalf("not subscribed: %v", n.topics())
	}
	m.gate = make(chan struct{})
	n.ch <- agent.Notification{Subscription: id, Topic: "http://s/topic"}
	if got := next(t, m.triggers, "the notified sync"); got != agent.TriggerNotification {
		t.Fatalf("trigger %s", got)
	}
	next(t, m.notified, "the first notification")
	for range 5 { // while that sync is held
		n.ch <- agent.Notification{Subscription: id, Topic: "http://s/topic"}
		if r := next(t, m.notified, "a notification"); r != "trigger" {
			t.Errorf("notification: %s", r)
		}
	}
	close(m.gate)
	next(t, m.triggers, "the coalesced sync")
	next(t, m.asked, "a poll timer")
	next(t, m.asked, "a poll timer")
	select {
	case tr := <-m.triggers:
		t.Errorf("a third sync after the burst (%s)", tr)
	case <-time.After(50 * time.Millisecond):
	}
	stop()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if got := m.syncs.Load(); got != 3 {
		t.Errorf("%d syncs, want the first, the notified one and one for the burst", got)
	}
}

// Subscriptions follow discovery: new channels are subscribed to,
// vanished ones unsubscribed from, one that fails is tried again after
// the next sync, and all are cancelled at shutdown. A notification on no
// subscription of ours triggers nothing.
func TestWatchFollowsChannels(t *testing.T) {
	m := newFakeMirror(t)
	n := newFakeNotifier()
	n.failing["http://s/c"] = true
	m.disc.Store(channels("http://s/a", "http://s/b", "http://s/c"))
	stop, wait := watch(t, m, n, 0.5)
	next(t, m.triggers, "the first sync")
	next(t, m.asked, "the poll timer")
	if got := n.topics(); !slices.Equal(got, []string{"http://hub/ http://s/a", "http://hub/ http://s/b"}) {
		t.Errorf("subscribed to %v", got)
	}
	n.ch <- agent.Notification{Subscription: "forged", Topic: "http://s/a"}
	if r := next(t, m.notified, "the forged notification"); r != "ignored" {
		t.Errorf("a notification on no subscription of ours: %s", r)
	}
	select {
	case tr := <-m.triggers:
		t.Errorf("a notification on no subscription of ours made a sync (%s)", tr)
	case <-time.After(50 * time.Millisecond):
	}

	n.mu.Lock()
	n.failing["http://s/c"] = false
	n.mu.Unlock()
	m.disc.Store(channels("http://s/b", "http://s/c"))
	m.after <- time.Time{}
	next(t, m.triggers, "the polled sync")
	next(t, m.asked, "the poll timer")
	if got := n.topics(); !slices.Equal(got, []string{"http://hub/ http://s/b", "http://hub/ http://s/c"}) {
		t.Errorf("after the Source changed its channels: subscribed to %v", got)
	}
	stop()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if got := n.topics(); len(got) != 0 {
		t.Errorf("still subscribed after shutdown: %v", got)
	}
	if len(n.unsubscribed) != 3 {
		t.Errorf("unsubscribed %v, want a, then b and c at shutdown", n.unsubscribed)
	}
}

// A notification the hub delivers before Subscribe has returned the
// subscription's ID is not lost: it is held until the ID is known, then
// triggers a sync. One on no subscription, held meanwhile, is ignored
// once no Subscribe is under way.
func TestWatchNotificationBeforeSubscribeReturns(t *testing.T) {
	m := newFakeMirror(t)
	m.disc.Store(channels("http://s/a"))
	n := newFakeNotifier()
	n.early["http://s/a"] = true
	stop, wait := watch(t, m, n, 0.5)
	if got := next(t, m.triggers, "the first sync"); got != agent.TriggerInitial {
		t.Fatalf("first sync: %s", got)
	}
	results := []string{next(t, m.notified, "a notification"), next(t, m.notified, "a notification")}
	if !slices.Equal(results, []string{"trigger", "ignored"}) {
		t.Errorf("notifications %v, want the early one a trigger and the stale one ignored", results)
	}
	if got := next(t, m.triggers, "the notified sync"); got != agent.TriggerNotification {
		t.Errorf("second sync: %s, want the notified one", got)
	}
	stop()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if got := m.syncs.Load(); got != 2 {
		t.Errorf("%d syncs, want the first and the notified one", got)
	}
}

// A stop while a sync runs lets it finish: Watch returns after it.
func TestWatchStopLetsTheSyncFinish(t *testing.T) {
	m := newFakeMirror(t)
	m.gate = make(chan struct{})
	stop, wait := watch(t, m, nil, 0.5)
	next(t, m.triggers, "the first sync")
	stop()
	returned := make(chan error, 1)
	go func() { returned <- wait() }()
	select {
	case <-returned:
		t.Fatal("Watch returned while its sync was running")
	case <-time.After(50 * time.Millisecond):
	}
	close(m.gate)
	if err := <-returned; err != nil {
		t.Fatal(err)
	}
}

// A subscription the hub ended (a denied renewal) is replaced after the
// next sync; a Watch whose ctx ends before drain returns ctx's error.
func TestWatchResubscribesEndedChannels(t *testing.T) {
	m := newFakeMirror(t)
	n := newFakeNotifier()
	m.disc.Store(channels("http://s/a"))
	stop, wait := watch(t, m, n, 0.5)
	next(t, m.triggers, "the first sync")
	next(t, m.asked, "the poll timer")
	first := n.idOf("http://hub/ http://s/a")
	n.mu.Lock()
	delete(n.active, first) // the hub ended it
	n.mu.Unlock()
	m.after <- time.Time{}
	next(t, m.triggers, "the polled sync")
	next(t, m.asked, "the poll timer")
	if second := n.idOf("http://hub/ http://s/a"); second == "" || second == first {
		t.Errorf("the ended subscription %s was not replaced (%q)", first, second)
	}
	stop()
	if err := wait(); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	m2 := newFakeMirror(t)
	done := make(chan error, 1)
	go func() {
		done <- agent.Watch(ctx, context.Background(), []agent.Watched{{Name: "m", Sync: m2.sync}}, newFakeNotifier(),
			agent.WatchOptions{After: func(time.Duration) <-chan time.Time { return m2.after }})
	}()
	waitSyncs(t, m2, 1)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want ctx's", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Watch did not return when its ctx ended")
	}
}

func waitSyncs(t *testing.T, m *fakeMirror, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for m.syncs.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d syncs, want %d", m.syncs.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}
