package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// fakeClock is a meter's time, moved by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) add(d time.Duration) time.Time { c.t = c.t.Add(d); return c.t }

// doneWith deals with n resources of size bytes each.
func doneWith(p *resourcesync.Progress, n int, size int64) {
	for range n {
		p.Listed()
		p.Created(size)
	}
}

// The rates are the run's, whatever the set: a Source serving 100
// resources a second reads 100 res/s in its second set too (the old line
// divided the run's count by the second set's time: 1,908 res/s, ETA 0s),
// and the ETA is the rest of what is expected at that pace.
func TestMeterRatesAcrossSets(t *testing.T) {
	t.Parallel()
	c := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := &resourcesync.Progress{}
	m := newMeter(p, c.t, syncing)
	p.Start(c.t)
	p.Set("https://example.org/dataset1/capabilitylist.xml")
	for range 60 { // a minute at 100 res/s, 1 KiB each
		doneWith(p, 100, 1024)
		m.sample(c.add(time.Second))
	}
	p.ListingDone()
	p.Start(c.t) // the second set starts: its own summary's clock
	p.Set("https://example.org/dataset2/capabilitylist.xml")
	for range 3 {
		doneWith(p, 100, 1024)
		m.sample(c.add(time.Second))
	}
	for range 300 { // listed ahead of the workers
		p.Listed()
	}
	p.ListingDone()
	r := m.read(c.t)
	if r.ResRate < 99 || r.ResRate > 101 {
		t.Errorf("rate %.1f res/s in the second set, want 100", r.ResRate)
	}
	if r.ByteRate < 99*1024 || r.ByteRate > 101*1024 {
		t.Errorf("rate %.0f B/s, want 100 KiB/s", r.ByteRate)
	}
	if !r.HasETA || r.ETA.Round(time.Second) != 3*time.Second {
		t.Errorf("ETA %v (%v), want 3s: 300 left at 100 res/s", r.ETA, r.HasETA)
	}
	if r.Elapsed != 63*time.Second || r.Set != "https://example.org/dataset2/capabilitylist.xml" || !r.Exact || r.Expected != 6600 {
		t.Errorf("%+v", r)
	}
}

// A single set has an ETA before its list is read to the end: the share of
// the list read so far gives the number of entries to expect.
func TestMeterEstimatesTheListBeforeItsEnd(t *testing.T) {
	t.Parallel()
	c := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := &resourcesync.Progress{}
	m := newMeter(p, c.t, syncing)
	p.Set("cl")
	for range 20 {
		doneWith(p, 10, 0)
		m.sample(c.add(time.Second))
	}
	p.ListRead(0.25) // 200 listed in a quarter of the list: 800 expected
	r := m.read(c.t)
	if r.Exact || r.Expected != 800 || !r.HasETA || r.ETA.Round(time.Second) != 60*time.Second {
		t.Errorf("expected %d (exact %v), ETA %v: want ~800, ETA 1m0s", r.Expected, r.Exact, r.ETA)
	}
	if got := countsText(r); got != "200/~800" {
		t.Errorf("counts %q", got)
	}
	p.ListingDone()
	if got := countsText(m.read(c.t)); got != "200/200" {
		t.Errorf("counts once listed %q", got)
	}
}

func TestStatsLine(t *testing.T) {
	t.Parallel()
	c := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := &resourcesync.Progress{}
	m := newMeter(p, c.t, syncing)
	if got, want := statsLine(m.read(c.t)), "0/0+ resources (new 0, updated 0, unchanged 0, failed 0)  0 B  elapsed 0s"; got != want {
		t.Errorf("before the start\n got %q\nwant %q", got, want)
	}
	p.Set("https://example.org/cl.xml")
	for range 10 {
		doneWith(p, 4, 2560)
		m.sample(c.add(time.Second))
	}
	for range 60 {
		p.Listed()
	}
	p.ListingDone()
	want := "40/100 resources (new 40, updated 0, unchanged 0, failed 0)  100.0 KiB  10.0 KiB/s  4 res/s  ETA 15s  elapsed 10s  set example.org/cl.xml"
	if got := statsLine(m.read(c.t)); got != want {
		t.Errorf("\n got %q\nwant %q", got, want)
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

// Off a terminal, progress is a log line every statsInterval and never a
// live bar; so it is on a terminal with --log-format json (every line on
// stderr is JSON then); --progress never shows nothing. Nothing is drawn or
// logged before the first interval, and stop returns at once and writes
// nothing (TestStatsLinePerTick drives the ticks).
func TestStatsProgressDrawsNoLiveLine(t *testing.T) {
	for _, tc := range []struct {
		mode           string
		isTerm, asJSON bool
	}{{"auto", false, false}, {"auto", true, true}, {"never", true, false}, {"never", false, false}} {
		t.Run(fmt.Sprintf("%s,terminal=%v,json=%v", tc.mode, tc.isTerm, tc.asJSON), func(t *testing.T) {
			d, stderr, log := progressDeps(tc.isTerm)
			d.jsonLogs = tc.asJSON
			p := &resourcesync.Progress{}
			doneWith(p, 40, 2560)
			stop := startProgress(d, tc.mode, p, syncing)
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
	t.Parallel()
	d, stderr, log := progressDeps(false)
	c := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := &resourcesync.Progress{}
	m := newMeter(p, c.t, syncing)
	for range 10 {
		doneWith(p, 4, 2560)
		m.sample(c.add(time.Second))
	}
	tick := make(chan time.Time)
	stop := showStats(d, tick, func() time.Time { return c.t }, m)
	for range 3 {
		tick <- time.Time{}
	}
	stop()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 || stderr.String() != "" {
		t.Fatalf("%d log lines, stderr %q:\n%s", len(lines), stderr.String(), log.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, `"level":"info"`) || !strings.Contains(l, "40/40+ resources") || !strings.Contains(l, "4 res/s") {
			t.Errorf("stats line %s", l)
		}
	}
}

// --progress always draws the bar into a pipe too, at 80 columns, and
// leaves its final state.
func TestLiveProgressAlways(t *testing.T) {
	t.Parallel()
	d, stderr, log := progressDeps(false)
	p := &resourcesync.Progress{}
	p.Set("https://example.org/dataset1/capabilitylist.xml")
	doneWith(p, 40, 2560)
	p.ListingDone()
	stop := startProgress(d, "always", p, syncing)
	stop()
	s := newScreen(200, []byte(stderr.String()))
	lines := s.lines()
	if len(lines) != 2 {
		t.Fatalf("screen:\n%s\nfrom %q", strings.Join(lines, "\n"), stderr.String())
	}
	contains(t, lines[0], "new 40, updated 0, unchanged 0, failed 0", "set example.org/dataset1/")
	contains(t, lines[1], "40/40", "100.0 KiB")
	for _, l := range lines {
		if n := len([]rune(l)); n > liveWidth {
			t.Errorf("%d columns: %q", n, l)
		}
	}
	if l := log.String(); l != "" {
		t.Errorf("live progress logged: %q", l)
	}
}

// logLine is the start of a console log line.
var logLine = regexp.MustCompile(`^\d\d:\d\d:\d\d (INF|WRN|ERR|DBG) `)

// On a real terminal (a pseudo-terminal here, 80 and 160 columns), a run
// of two sets with failures shows the bar redrawn in place, never past the
// width; each log line is printed on its own line above the bar and stays
// on screen; the bar's final state is the run's.
func TestProgressOnATerminal(t *testing.T) {
	for _, cols := range []int{80, 160} {
		t.Run(fmt.Sprint(cols), func(t *testing.T) {
			src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
			failing := []string{src.Resources(0)[3].Path, src.Resources(1)[5].Path}
			for _, p := range failing {
				src.SetNotFound(p)
			}
			// A little time per resource, so that the bar is drawn a few
			// times with the log going past it.
			src.SetFault("/dataset*", fixtures.Fault{Delay: 20 * time.Millisecond})
			code, stdout, term := runOnTerminal(t, cols, "baseline", "--max-retry-wait", "5ms", "--workers", "2", "--dest", t.TempDir(), srv.URL)
			if code != exitPartial {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nterminal:\n%q", code, exitPartial, stdout, term)
			}
			s := newScreen(cols, term)
			lines := s.lines()
			for _, w := range s.wrapped {
				if !logLine.MatchString(w) {
					t.Errorf("a line past %d columns that is not the log's: %q", cols, w)
				}
			}
			if len(lines) < 2 {
				t.Fatalf("screen:\n%s", strings.Join(lines, "\n"))
			}
			t.Logf("the screen at the end:\n%s", strings.Join(lines, "\n"))
			bar := lines[len(lines)-2:]
			contains(t, bar[0], "new 38, updated 0, unchanged 0, failed 2", "elapsed ")
			contains(t, bar[1], "40/40")
			for _, l := range bar {
				if n := len([]rune(l)); n > cols {
					t.Errorf("the bar's line has %d columns, more than %d: %q", n, cols, l)
				}
			}
			// Everything above the bar is the log, a line each, the
			// failures among it.
			for _, l := range lines[:len(lines)-2] {
				if !logLine.MatchString(l) {
					t.Errorf("not a log line above the bar (a bar left behind, or a log line glued to it): %q", l)
				}
			}
			for _, p := range failing {
				n := 0
				for _, l := range lines {
					if strings.Contains(l, "WRN failed") && strings.Contains(l, p) {
						n++
					}
				}
				if n != 1 {
					t.Errorf("the failure of %s is on %d lines of the screen, want 1:\n%s", p, n, strings.Join(lines, "\n"))
				}
			}
		})
	}
}

// audit shows its progress on a terminal too: the files compared of those
// listed, and its findings.
func TestAuditProgressOnATerminal(t *testing.T) {
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	src.SetFault("/dataset1/resourcelist.xml", fixtures.Fault{Delay: 300 * time.Millisecond})
	code, stdout, term := runOnTerminal(t, 80, "audit", "--dest", dest, srv.URL)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nterminal:\n%q", code, stdout, term)
	}
	s := newScreen(80, term)
	lines := s.lines()
	for _, w := range s.wrapped {
		if !logLine.MatchString(w) {
			t.Errorf("a line past 80 columns that is not the log's: %q", w)
		}
	}
	if len(lines) < 2 {
		t.Fatalf("screen:\n%s", strings.Join(lines, "\n"))
	}
	bar := lines[len(lines)-2:]
	contains(t, bar[0], "in sync 40, missing or changed 0, extra 0, errors 0")
	contains(t, bar[1], "40/40")
	contains(t, stdout, "in sync")
}

// Deletions are work done: the bar counts them, and its total includes
// them - a baseline's files its list no longer names (which no entry
// counts), an incremental sync's deleted resources, an audit's extra
// files - so that a run ends full, not short of its total.
func TestProgressCountsDeletionsOnATerminal(t *testing.T) {
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	rs := src.Resources(0)
	stray := func() {
		t.Helper()
		p := filepath.Join(filepath.Dir(filepath.Join(dest, relPath(t, rs[0].URI))), "stray.txt")
		if err := os.WriteFile(p, []byte("not the Source's"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	del := func(rs ...fixtures.ResourceInfo) {
		t.Helper()
		var muts []fixtures.Mutation
		for _, r := range rs {
			muts = append(muts, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
		}
		at = at.Add(time.Second)
		if err := src.Apply(at, muts...); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		prepare func()
		argv    []string
		code    int
		outcome string
		total   string
	}{
		// 37 listed, 3 deleted resources and a stray file.
		{"baseline", func() { del(rs[1], rs[2], rs[3]); stray() },
			[]string{"baseline", "--delete", "--max-delete", "100%"}, 0, "unchanged 37, failed 0, deleted 4", "41/41"},
		// 2 deletions, and the 3 changes of the baseline's list's time
		// again (at the cursor, found done).
		{"incremental", func() { del(rs[4], rs[5]) },
			[]string{"sync", "--delete", "--max-delete", "100%"}, 0, "failed 0, deleted 2", "5/5"},
		// 35 in sync, one extra file.
		{"audit", stray, []string{"audit"}, exitDifferences, "in sync 35, missing or changed 0, extra 1", "36/36"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.prepare()
			code, stdout, term := runOnTerminal(t, 80, append(tc.argv, "--max-retry-wait", "5ms", "--dest", dest, srv.URL)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nterminal:\n%q", code, tc.code, stdout, term)
			}
			lines := newScreen(80, term).lines()
			i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "[") && strings.HasSuffix(strings.TrimSpace(l), "B") })
			if i < 1 {
				t.Fatalf("no bar on the screen:\n%s", strings.Join(lines, "\n"))
			}
			t.Logf("the screen at the end:\n%s", strings.Join(lines, "\n"))
			contains(t, lines[i-1], tc.outcome)
			contains(t, lines[i], tc.total)
		})
	}
}
