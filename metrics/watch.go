package metrics

import (
	"maps"
	"sync"
)

// Results of a notification delivery, for Watch.Notification.
const (
	NotificationTrigger = "trigger" // verified and ours: it triggers a sync or a rediscovery
	NotificationIgnored = "ignored" // forged, unknown subscription, or about nothing we mirror
)

// Triggers of a sync, for Watch.Sync.
const (
	SyncInitial      = "initial"      // the sync watch starts with
	SyncPoll         = "poll"         // the poll interval elapsed
	SyncNotification = "notification" // a notification said the Source changed
)

// Watch holds the counters a watch process keeps while it runs. The zero
// value is ready to use and a nil *Watch records nothing. Safe for
// concurrent use; not to be copied after first use.
type Watch struct {
	mu            sync.Mutex
	notifications map[[2]string]int64 // {dest, result}
	syncs         map[[2]string]int64 // {dest, trigger}
	subscriptions map[string]int64
}

// Notification counts one notification delivered for dest, with its
// result (NotificationTrigger or NotificationIgnored).
func (w *Watch) Notification(dest, result string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.notifications == nil {
		w.notifications = map[[2]string]int64{}
	}
	w.notifications[[2]string{dest, result}]++
}

// Sync counts one sync of dest started, with what triggered it (SyncInitial,
// SyncPoll or SyncNotification).
func (w *Watch) Sync(dest, trigger string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.syncs == nil {
		w.syncs = map[[2]string]int64{}
	}
	w.syncs[[2]string{dest, trigger}]++
}

// Subscriptions sets the number of WebSub subscriptions active for dest.
func (w *Watch) Subscriptions(dest string, n int) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.subscriptions == nil {
		w.subscriptions = map[string]int64{}
	}
	w.subscriptions[dest] = int64(n)
}

// watchValues is a copy of a Watch's counters at one moment.
type watchValues struct {
	notifications map[[2]string]int64
	syncs         map[[2]string]int64
	subscriptions map[string]int64
}

// values copies the counters, so that emitting them holds no lock.
func (w *Watch) values() watchValues {
	if w == nil {
		return watchValues{}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return watchValues{
		notifications: maps.Clone(w.notifications),
		syncs:         maps.Clone(w.syncs),
		subscriptions: maps.Clone(w.subscriptions),
	}
}
