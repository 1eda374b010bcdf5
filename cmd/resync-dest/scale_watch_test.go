package main

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/scaletest"
)

// watch over a Source the workers keep queues its job - at once, and on a
// notification - instead of syncing itself; a worker then runs it.
func TestScaleWatchQueuesTheSourceJob(t *testing.T) {
	s := scaletest.NewS3(t)
	db := scaletest.NewPostgres(t)
	useS3(t, s)
	hub := newTestHub(t)
	src, srv := served(t, func(sp *fixtures.Spec) { sp.Resources = 30; sp.Hub = hub.srv.URL + "/" })
	topic := src.URI("/dataset1/framework/")
	cfg := workerConfig(t, s, []scaleSource{{src: src, srv: srv, prefix: "w"}})
	work := func() {
		t.Helper()
		p := startProc(t, s.Env(), workerArgs(db, "--config", cfg)...)
		if code, _ := p.wait(); code != 0 {
			t.Fatalf("worker: exit %d\n%s", code, p.stderr.String())
		}
	}
	work() // the baseline
	s.BucketIsSource(t, "w", src)
	st := openPG(t, db)
	queued := func() bool {
		var n int
		if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE kind = 'resync_source' AND state = 'available'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	if queued() {
		t.Fatal("the Source's job is due before any notification")
	}

	settle(t, srv)
	src.ResetCounts()
	drain, stop := context.WithCancel(context.Background())
	var stdout, stderr fixtures.LockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(context.Background(), []string{"resync-dest", "watch", "--dest", "s3://" + s.Bucket + "/w", "--state", db,
			"--listen", "127.0.0.1:0", "--poll-interval", "1h", "--max-retry-wait", "5ms", srv.URL},
			stdio{out: &stdout, err: &stderr}, drain, func() os.Signal { return syscall.SIGTERM })
	}()
	if ev := waitEvent(t, hub.events, &stderr); ev != "subscribed "+topic {
		t.Fatalf("hub event %q", ev)
	}
	if !queued() {
		t.Fatalf("watch's first sync did not queue the Source's job\n%s", stderr.String())
	}
	if n := src.ResourceBodies(); n != 0 {
		t.Fatalf("watch fetched %d resources itself", n)
	}
	work()
	if err := src.AdvanceRandom(6, time.Second); err != nil {
		t.Fatal(err)
	}
	if st := hub.deliver(topic, src.ChangeListURL(0), ""); st/100 != 2 {
		t.Fatalf("delivery answered %d", st)
	}
	waitUntil(t, "the notification queued the Source's job", queued)
	work()
	s.BucketIsSource(t, "w", src)
	stop()
	select {
	case c := <-code:
		if c != exitSIGTERM {
			t.Errorf("watch: exit %d\n%s", c, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("watch did not stop\n%s", stderr.String())
	}
}
