package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Intervals of the progress display: a live line on a terminal, a stats
// log line otherwise (cron mail stays short).
const (
	liveInterval  = 250 * time.Millisecond
	statsInterval = 30 * time.Second
)

// startProgress shows a run's progress until the returned stop is called:
// a live line on stderr when it is a terminal (or --progress always), else
// a stats log line every 30 s (none with --progress never).
func startProgress(d *deps, mode string, p *resourcesync.Progress) (stop func()) {
	live := mode == "always" || (mode == "auto" && d.isTerm)
	if mode == "never" {
		return func() {}
	}
	interval := statsInterval
	if live {
		interval = liveInterval
	}
	t := time.NewTicker(interval)
	stopShowing := showProgress(d, live, t.C, time.Now, p)
	return func() {
		stopShowing()
		t.Stop()
	}
}

// showProgress draws (live) or logs a progress line at each tick until the
// returned stop is called; the ticks and the clock are given so that a
// test can drive it.
func showProgress(d *deps, live bool, tick <-chan time.Time, now func() time.Time, p *resourcesync.Progress) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				if live {
					fmt.Fprint(d.io.err, "\r\033[K")
				}
				return
			case <-tick:
				line := progressLine(p, now())
				if live {
					fmt.Fprint(d.io.err, "\r\033[K"+line)
				} else {
					d.log.Info().Msg(line)
				}
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// progressLine describes a run so far: resources, bytes, rate, ETA once the
// total is known.
func progressLine(p *resourcesync.Progress, now time.Time) string {
	c, total, started := p.Snapshot()
	elapsed := now.Sub(started)
	done := c.Done()
	line := fmt.Sprintf("%d", done)
	if total {
		line += fmt.Sprintf("/%d", c.Listed)
	} else {
		line += fmt.Sprintf("/%d+", c.Listed)
	}
	line += fmt.Sprintf(" resources (new %d, updated %d, unchanged %d, failed %d)  %s",
		c.Created, c.Updated, c.Unchanged, c.Failed, humanBytes(c.Bytes))
	if elapsed > time.Second {
		rate := float64(c.Bytes) / elapsed.Seconds()
		line += fmt.Sprintf("  %s/s  %.0f res/s", humanBytes(int64(rate)), float64(done)/elapsed.Seconds())
		if total && done > 0 && done < c.Listed {
			eta := time.Duration(float64(elapsed) * float64(c.Listed-done) / float64(done))
			line += "  ETA " + eta.Round(time.Second).String()
		}
	}
	return line
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
	fmt.Fprintf(w, "%d listed: %d created, %d updated, %d unchanged, %d deleted, %d failed, %d skipped; %s written",
		c.Listed, c.Created, c.Updated, c.Unchanged, c.Deleted, c.Failed, c.Skipped, humanBytes(c.Bytes))
}
