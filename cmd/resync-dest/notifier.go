package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/websub"
)

// websubNotifier adapts a websub.Subscriber to the agent.Notifier the
// watch loop uses: subscriptions by ID, notifications as agent values.
type websubNotifier struct {
	s    *websub.Subscriber
	out  chan agent.Notification
	done chan struct{} // closed by stop: nobody reads out any more

	mu   sync.Mutex
	subs map[string]*websub.Subscription
}

// newWebsubNotifier starts passing s's notifications on; its channel closes
// when s is closed. Call stop once its reader is gone.
func newWebsubNotifier(s *websub.Subscriber) *websubNotifier {
	n := &websubNotifier{s: s, out: make(chan agent.Notification), done: make(chan struct{}), subs: map[string]*websub.Subscription{}}
	go func() {
		defer close(n.out)
		for w := range s.Notifications() {
			a := agent.Notification{Subscription: w.Subscription, Topic: w.Topic}
			for _, c := range w.Changes {
				a.Changes = append(a.Changes, agent.NotifiedChange{URL: c.URL, Capability: c.Capability, Change: c.Change})
			}
			select {
			case n.out <- a:
			case <-n.done: // shutting down: the sync it asks for will not run
			}
		}
	}()
	return n
}

// stop tells the notifier that its notifications are no longer read.
func (n *websubNotifier) stop() { close(n.done) }

func (n *websubNotifier) Subscribe(ctx context.Context, hub, topic string) (string, error) {
	x, err := n.s.Subscribe(ctx, hub, topic)
	if err != nil {
		return "", err
	}
	n.mu.Lock()
	n.subs[x.ID()] = x
	n.mu.Unlock()
	return x.ID(), nil
}

func (n *websubNotifier) Unsubscribe(ctx context.Context, id string) error {
	n.mu.Lock()
	x, ok := n.subs[id]
	delete(n.subs, id)
	n.mu.Unlock()
	if !ok {
		return fmt.Errorf("unsubscribe %s: no such subscription", id)
	}
	return n.s.Unsubscribe(ctx, x)
}

func (n *websubNotifier) Active(id string) bool {
	n.mu.Lock()
	x, ok := n.subs[id]
	n.mu.Unlock()
	if !ok {
		return false
	}
	select {
	case <-x.Done():
		return false
	default:
		return true
	}
}

func (n *websubNotifier) Notifications() <-chan agent.Notification { return n.out }
