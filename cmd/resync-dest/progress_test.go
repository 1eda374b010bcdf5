package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// progressOf is a run started at started that listed listed resources
// (all of them when total) and dealt with created (of size bytes each),
// unchanged and failed of them.
func progressOf(started time.Time, listed, created, unchanged, failed int, size int64, total bool) *resourcesync.Progress {
	p := &resourcesync.Progress{}
	p.Start(started)
	for range listed {
		p.Listed()
	}
	if total {
		p.ListingDone()
	}
	for range created {
		p.Created(size)
	}
	for range unchanged {
		p.Unchanged()
	}
	for range failed {
		p.Failed()
	}
	return p
}

func TestProgressLine(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		p    *resourcesync.Progress
		now  time.Time
		want string
	}{
		{
			// 40 of 100 done in 10 s: 4 res/s, 60 to go, 15 s; 100 KiB
			// written, 10 KiB/s.
			name: "total known",
			p:    progressOf(t0, 100, 20, 15, 5, 5120, true),
			now:  t0.Add(10 * time.Second),
			want: "40/100 resources (new 20, updated 0, unchanged 15, failed 5)  100.0 KiB  10.0 KiB/s  4 res/s  ETA 15s",
		},
		{
			name: "still listing: no ETA",
			p:    progressOf(t0, 100, 20, 20, 0, 5120, false),
			now:  t0.Add(10 * time.Second),
			want: "40/100+ resources (new 20, updated 0, unchanged 20, failed 0)  100.0 KiB  10.0 KiB/s  4 res/s",
		},
		{
			name: "first second: no rate yet",
			p:    progressOf(t0, 100, 3, 0, 0, 100, true),
			now:  t0.Add(500 * time.Millisecond),
			want: "3/100 resources (new 3, updated 0, unchanged 0, failed 0)  300 B",
		},
		{
			name: "all done: no ETA",
			p:    progressOf(t0, 10, 0, 10, 0, 0, true),
			now:  t0.Add(2 * time.Second),
			want: "10/10 resources (new 0, updated 0, unchanged 10, failed 0)  0 B  0 B/s  5 res/s",
		},
		{
			name: "ETA rounded to seconds",
			p:    progressOf(t0, 3000, 1000, 0, 0, 3<<20, true),
			now:  t0.Add(100*time.Second + 400*time.Millisecond),
			want: "1000/3000 resources (new 1000, updated 0, unchanged 0, failed 0)  2.9 GiB  29.9 MiB/s  10 res/s  ETA 3m21s",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := progressLine(tc.p, tc.now); got != tc.want {
				t.Errorf("progressLine\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestHumanBytes(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB",
		5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB", 1 << 40: "1.0 TiB",
	} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// progressDeps are deps whose stderr and log are buffers.
func progressDeps(isTerm bool) (d *deps, stderr, log *fixtures.LockedBuffer) {
	stderr, log = &fixtures.LockedBuffer{}, &fixtures.LockedBuffer{}
	return &deps{io: stdio{out: &fixtures.LockedBuffer{}, err: stderr}, log: zerolog.New(log), isTerm: isTerm}, stderr, log
}

// waitForProgress polls until cond holds, failing the test after a generous
// deadline; it returns as soon as cond holds.
func waitForProgress(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// On a terminal (or --progress always) the line is redrawn in place on
// stderr, every liveInterval, with resources, bytes, rate and ETA; stop
// clears it. Nothing goes to the log.
func TestLiveProgress(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		isTerm bool
	}{{"always", false}, {"auto", true}} {
		t.Run(fmt.Sprintf("%s,terminal=%v", tc.mode, tc.isTerm), func(t *testing.T) {
			d, stderr, log := progressDeps(tc.isTerm)
			p := progressOf(time.Now().Add(-10*time.Second), 100, 20, 20, 0, 5120, true)
			stop := startProgress(d, tc.mode, p)
			const redraw = "\r\033[K"
			waitForProgress(t, "the live line", func() bool { return strings.Contains(stderr.String(), redraw+"40/100 resources") })
			stop()
			out := stderr.String()
			draws := strings.Split(strings.TrimSuffix(out, redraw), redraw)
			line := draws[len(draws)-1] // the last one drawn
			contains(t, line, "40/100 resources (new 20, updated 0, unchanged 20, failed 0)", "100.0 KiB", "KiB/s", "res/s", "ETA ")
			if !strings.HasSuffix(out, redraw) {
				t.Errorf("stop did not clear the line: %q", out)
			}
			if strings.Contains(out, "\n") {
				t.Errorf("the live line is not redrawn in place: %q", out)
			}
			if l := log.String(); l != "" {
				t.Errorf("live progress logged: %q", l)
			}
			if after := stderr.String(); after != out {
				t.Errorf("progress went on after stop: %q", after[len(out):])
			}
		})
	}
}

// Off a terminal, progress is a log line every statsInterval and never a
// live line; --progress never shows nothing. Nothing is drawn or logged
// before the first interval, and stop returns at once and writes nothing
// (TestStatsLinePerTick drives the ticks).
func TestStatsProgressDrawsNoLiveLine(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		isTerm bool
	}{{"auto", false}, {"never", true}, {"never", false}} {
		t.Run(fmt.Sprintf("%s,terminal=%v", tc.mode, tc.isTerm), func(t *testing.T) {
			d, stderr, log := progressDeps(tc.isTerm)
			p := progressOf(time.Now().Add(-10*time.Second), 100, 20, 20, 0, 5120, true)
			stop := startProgress(d, tc.mode, p)
			stopped := make(chan struct{})
			go func() {
				stop()
				close(stopped)
			}()
			select {
			case <-stopped:
			case <-time.After(5 * time.Second):
				t.Fatal("stop did not return")
			}
			if s, l := stderr.String(), log.String(); s != "" || l != "" {
				t.Errorf("stderr %q, log %q: want nothing before the first interval", s, l)
			}
		})
	}
	if statsInterval != 30*time.Second {
		t.Errorf("statsInterval %v: the README and the issue promise a stats line every 30 s", statsInterval)
	}
}

// Off a terminal, each tick of the stats interval logs one progress line
// (and draws nothing on stderr): driven here by hand-made ticks.
func TestStatsLinePerTick(t *testing.T) {
	d, stderr, log := progressDeps(false)
	started := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	p := progressOf(started, 100, 20, 20, 0, 5120, true)
	tick := make(chan time.Time)
	stop := showProgress(d, false, tick, func() time.Time { return started.Add(10 * time.Second) }, p)
	for range 3 {
		tick <- time.Time{}
	}
	stop()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 || stderr.String() != "" {
		t.Fatalf("%d log lines, stderr %q:\n%s", len(lines), stderr.String(), log.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, `"level":"info"`) || !strings.Contains(l, "40/100 resources") || !strings.Contains(l, "ETA 15s") {
			t.Errorf("stats line %s", l)
		}
	}
}
