package metrics

import (
	"fmt"
	"sync"
	"testing"
)

func TestWatchCounters(t *testing.T) {
	var w Watch
	c := newTestCollector(nil, &w)
	dests := []string{"/srv/a", "/srv/b"}
	const workers, each = 8, 200

	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				d := dests[(i+j)%len(dests)]
				w.Notification(d, NotificationTrigger)
				if j%4 == 0 {
					w.Notification(d, NotificationIgnored)
				}
				w.Sync(d, SyncNotification)
				if j%10 == 0 {
					w.Sync(d, SyncPoll)
				}
				w.Subscriptions(d, 3)
			}
		}()
	}
	// Scrapes while the counters move: -race checks the locking.
	for range 20 {
		series(t, serve(t, Handler(c)))
	}
	wg.Wait()
	w.Sync("/srv/a", SyncInitial)
	w.Subscriptions("/srv/b", 0)

	// Each worker spreads its calls evenly over the two dests.
	n := func(per int) float64 { return float64(workers * per / len(dests)) }
	want := map[string]float64{"resync_dest_scrape_error": 0}
	for _, d := range dests {
		want[fmt.Sprintf(`resync_dest_notifications_total{dest=%q,result="trigger"}`, d)] = n(each)
		want[fmt.Sprintf(`resync_dest_notifications_total{dest=%q,result="ignored"}`, d)] = n(each / 4)
		want[fmt.Sprintf(`resync_dest_syncs_total{dest=%q,trigger="notification"}`, d)] = n(each)
		want[fmt.Sprintf(`resync_dest_syncs_total{dest=%q,trigger="poll"}`, d)] = n(each / 10)
	}
	want[`resync_dest_syncs_total{dest="/srv/a",trigger="initial"}`] = 1
	want[`resync_dest_subscriptions{dest="/srv/a"}`] = 3
	want[`resync_dest_subscriptions{dest="/srv/b"}`] = 0
	if d := diff(series(t, serve(t, Handler(c))), want); d != "" {
		t.Error(d)
	}
}

func TestNilWatchRecordsNothing(t *testing.T) {
	var w *Watch
	w.Notification("/srv/a", NotificationTrigger)
	w.Sync("/srv/a", SyncPoll)
	w.Subscriptions("/srv/a", 1)
	s := series(t, serve(t, Handler(newTestCollector(nil, w))))
	if d := diff(s, map[string]float64{"resync_dest_scrape_error": 0}); d != "" {
		t.Error(d)
	}
}
