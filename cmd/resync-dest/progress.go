package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/rs/zerolog"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Intervals of the progress display: the live bar's redraw, a stats log
// line otherwise (cron mail stays short).
const (
	liveInterval  = 250 * time.Millisecond
	statsInterval = 30 * time.Second
)

// activity is what a progress display shows: a sync's outcomes or an
// audit's findings.
type activity int

const (
	syncing activity = iota
	auditing
)

// startProgress shows a run's progress until the returned stop is called:
// a live bar on stderr when it is a terminal (or --progress always), else
// a stats log line every 30 s (none with --progress never). With
// --log-format json, auto means the stats records: every line on stderr is
// then JSON, as that flag promises.
func startProgress(d *deps, mode string, p *resourcesync.Progress, what activity) (stop func()) {
	if mode == "never" {
		return func() {}
	}
	m := newMeter(p, time.Now(), what)
	stopSampling := every(sampleEvery, m.sample)
	var stopShowing func()
	if mode == "always" || (mode == "auto" && d.isTerm && !d.jsonLogs) {
		stopShowing = showLive(d, m)
	} else {
		t := time.NewTicker(statsInterval)
		stopStats := showStats(d, t.C, time.Now, m)
		stopShowing = func() { stopStats(); t.Stop() }
	}
	return func() {
		stopShowing()
		stopSampling()
	}
}

// every calls f every interval until the returned stop is called.
func every(interval time.Duration, f func(time.Time)) (stop func()) {
	t := time.NewTicker(interval)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				f(now)
			}
		}
	})
	return func() {
		t.Stop()
		close(done)
		wg.Wait()
	}
}

// showStats logs a progress line at each tick until the returned stop is
// called; the ticks and the clock are given so that a test can drive them.
func showStats(d *deps, tick <-chan time.Time, now func() time.Time, m *meter) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-tick:
				r := m.read(now())
				if d.jsonLogs {
					statsFields(d.log.Info(), r).Msg("progress")
				} else {
					d.log.Info().Msg(statsLine(r))
				}
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// showLive draws the run as a bar on stderr (mpb: redrawn in place at the
// terminal's width, never wrapped) until the returned stop is called, which
// leaves the final state on screen. Meanwhile the log is printed above the
// bar, line by line, instead of into it.
func showLive(d *deps, m *meter) (stop func()) {
	opts := []mpb.ContainerOption{mpb.WithOutput(d.io.err), mpb.WithRefreshRate(liveInterval)}
	if !isTerminal(d.io.err) {
		// --progress always into a pipe or a file: no terminal to ask.
		opts = append(opts, mpb.ForceTTY(), mpb.WithAutoRefresh(), mpb.WithWidth(liveWidth))
	}
	box := mpb.New(opts...)
	now := func() reading { return m.read(time.Now()) }
	bar := box.New(0, mpb.BarStyle(),
		mpb.BarTopExtender(mpb.BarFillerFunc(func(w io.Writer, s decor.Statistics) error {
			_, err := io.WriteString(w, fit(setLine(now()), s.AvailableWidth)+"\n")
			return err
		})),
		mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return countsText(now()) })),
		mpb.AppendDecorators(decor.Any(func(decor.Statistics) string { return ratesText(now()) })),
	)
	update := func() {
		r := now()
		bar.SetTotal(max(r.Expected, r.Done, 1), false)
		bar.SetCurrent(min(r.Done, max(r.Expected, r.Done)))
	}
	stopUpdating := every(liveInterval, func(time.Time) { update() })
	restore := d.logAbove(box)
	return func() {
		stopUpdating()
		update()
		if r := now(); r.Exact && r.Done >= r.Expected {
			bar.SetTotal(-1, true) // complete: drawn full
		} else {
			bar.Abort(false) // interrupted or failed: drawn as it stands
		}
		restore()
		box.Wait()
	}
}

// liveWidth is the bar's width when stderr is not a terminal (--progress
// always); on a terminal, its width.
const liveWidth = 80

// countsText is the bar's left side: resources done of those expected.
func countsText(r reading) string {
	switch {
	case r.Exact:
		return fmt.Sprintf("%d/%d", r.Done, r.Expected)
	case r.Expected > 0:
		return fmt.Sprintf("%d/~%d", r.Done, r.Expected) // estimated from the share of the list read
	default:
		return fmt.Sprintf("%d/%d+", r.Done, r.Counts.Listed)
	}
}

// ratesText is the bar's right side, most wanted first (the end is cut on
// a narrow terminal): ETA, rates, bytes written (hashed, by an audit).
func ratesText(r reading) string {
	parts := []string{}
	if r.HasETA {
		parts = append(parts, "ETA "+r.ETA.Round(time.Second).String())
	}
	if r.Elapsed >= sampleEvery {
		parts = append(parts, fmt.Sprintf("%.0f res/s", r.ResRate), humanBytes(int64(r.ByteRate))+"/s")
	}
	parts = append(parts, humanBytes(r.Counts.Bytes))
	return strings.Join(parts, "  ")
}

// setLine is the line above the bar: the outcome so far, the time spent and
// the set in progress.
func setLine(r reading) string {
	return outcomes(r) + "  elapsed " + r.Elapsed.Round(time.Second).String() + inSet(r)
}

// outcomes counts what was found so far: a sync's outcomes, or an audit's
// findings.
func outcomes(r reading) string {
	c := r.Counts
	if r.What == auditing {
		return fmt.Sprintf("in sync %d, missing or changed %d, extra %d, errors %d", c.Unchanged, c.Updated, c.Deleted, c.Failed)
	}
	line := fmt.Sprintf("new %d, updated %d, unchanged %d, failed %d", c.Created, c.Updated, c.Unchanged, c.Failed)
	if c.Deleted > 0 {
		line += fmt.Sprintf(", deleted %d", c.Deleted)
	}
	return line
}

// inSet names the set in progress, if any.
func inSet(r reading) string {
	if r.Set == "" {
		return ""
	}
	// The scheme says nothing here and takes room on a narrow terminal.
	_, set, ok := strings.Cut(r.Set, "://")
	if !ok {
		set = r.Set
	}
	return "  set " + set
}

// fit cuts s to width columns.
func fit(s string, width int) string {
	return runewidth.Truncate(s, max(width, 0), "…")
}

// statsLine is the periodic log line off a terminal: the same reading as
// the bar, in one line.
func statsLine(r reading) string {
	line := countsText(r) + " resources (" + outcomes(r) + ")  " + humanBytes(r.Counts.Bytes)
	if r.Elapsed >= sampleEvery {
		line += fmt.Sprintf("  %s/s  %.0f res/s", humanBytes(int64(r.ByteRate)), r.ResRate)
	}
	if r.HasETA {
		line += "  ETA " + r.ETA.Round(time.Second).String()
	}
	return line + "  elapsed " + r.Elapsed.Round(time.Second).String() + inSet(r)
}

// statsFields adds the stats line's reading to a JSON log record, a field
// each (--log-format json): a program reads numbers, not a sentence.
// Durations are in milliseconds, as zerolog's other durations; expected is
// absent while there is no estimate, and an estimate until expected_exact.
func statsFields(e *zerolog.Event, r reading) *zerolog.Event {
	c := r.Counts
	e = e.Int64("done", r.Done)
	if r.Expected > 0 {
		e = e.Int64("expected", r.Expected).Bool("expected_exact", r.Exact)
	}
	e = e.Int64("listed", c.Listed)
	if r.What == auditing {
		e = e.Int64("in_sync", c.Unchanged).Int64("missing_or_changed", c.Updated).Int64("extra", c.Deleted).Int64("errors", c.Failed).Int64("bytes_hashed", c.Bytes)
	} else {
		e = e.Int64("created", c.Created).Int64("updated", c.Updated).Int64("unchanged", c.Unchanged).Int64("deleted", c.Deleted).
			Int64("failed", c.Failed).Int64("skipped", c.Skipped).Int64("bytes", c.Bytes)
	}
	if r.Elapsed >= sampleEvery {
		e = e.Float64("resources_per_second", math.Round(r.ResRate*10)/10).Int64("bytes_per_second", int64(r.ByteRate))
	}
	if r.HasETA {
		e = e.Dur("eta", r.ETA.Round(time.Second))
	}
	e = e.Dur("elapsed", r.Elapsed.Round(time.Millisecond))
	if r.Set != "" {
		e = e.Str("set", r.Set)
	}
	return e
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// writeCounts prints one line of counts.
func writeCounts(w io.Writer, c resourcesync.Counts) {
	leftOut := ""
	if c.LeftOut > 0 {
		leftOut = fmt.Sprintf(", %d left out by the filters", c.LeftOut)
	}
	fmt.Fprintf(w, "%d listed: %d created, %d updated, %d unchanged, %d deleted, %d failed, %d skipped%s; %s written",
		c.Listed, c.Created, c.Updated, c.Unchanged, c.Deleted, c.Failed, c.Skipped, leftOut, humanBytes(c.Bytes))
	if c.MirrorBytes > 0 || c.MirrorFailures > 0 {
		fmt.Fprintf(w, " (%s from mirrors, %d mirror failures)", humanBytes(c.MirrorBytes), c.MirrorFailures)
	}
	if c.Patched > 0 || c.PatchFailures > 0 {
		fmt.Fprintf(w, " (%d patched, %s saved, %d patches not applied)", c.Patched, humanBytes(c.PatchSaved), c.PatchFailures)
	}
}
