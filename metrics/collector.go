package metrics

import (
	"context"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Snapshot reads what is known about the mirrors. It is called once per
// collection, possibly from several goroutines at once, with a context
// that bounds it.
type Snapshot func(ctx context.Context) ([]Mirror, error)

// Options configure a Collector. Start from DefaultOptions.
type Options struct {
	// Now is the clock the cursor lag is measured against.
	Now func() time.Time
	// Timeout bounds each snapshot, so that a state locked by a writer
	// cannot hang a scrape.
	Timeout time.Duration
}

// DefaultOptions returns the options NewCollector uses for every zero field.
func DefaultOptions() Options {
	return Options{Now: time.Now, Timeout: 5 * time.Second}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Now == nil {
		o.Now = d.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	return o
}

// Collector is a prometheus.Collector of the mirrors a Snapshot reads and of
// a Watch's counters. Every collection reads a fresh snapshot. Safe for
// concurrent use if the snapshot is.
type Collector struct {
	snapshot Snapshot
	watch    *Watch
	opts     Options
	d        descs
}

var _ prometheus.Collector = (*Collector)(nil)

// NewCollector returns a Collector of the mirrors snapshot reads (none if
// it is nil) and of watch's counters (none if it is nil).
func NewCollector(snapshot Snapshot, watch *Watch, opts Options) *Collector {
	return &Collector{snapshot: snapshot, watch: watch, opts: opts.withDefaults(), d: newDescs()}
}

// Describe sends the descriptions of every metric Collect may send.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.d.all() {
		ch <- d
	}
}

// Collect reads a snapshot and sends its metrics, then the Watch's. A
// snapshot that fails is reported as resync_dest_scrape_error 1, not as a
// failed scrape: the mirrors it did return are still sent, and so are the
// Watch's counters. A mirror whose dest repeats an earlier one, or a set
// whose Capability List repeats one of its mirror, is left out and
// reported the same way.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	e := &emitter{ch: ch, seen: map[string]bool{}}
	if c.snapshot != nil {
		ctx, cancel := context.WithTimeout(context.Background(), c.opts.Timeout)
		mirrors, err := c.snapshot(ctx)
		cancel()
		if err != nil {
			e.failed = true
		}
		now := c.opts.Now()
		dests := map[string]bool{}
		for _, m := range mirrors {
			dest := labelValue(m.Dest)
			if dests[dest] {
				e.failed = true
				continue
			}
			dests[dest] = true
			c.mirror(e, now, dest, m)
		}
	}
	c.watchCounters(e)
	e.send(c.d.scrapeError, prometheus.GaugeValue, bool01(e.failed))
}

func (c *Collector) mirror(e *emitter, now time.Time, dest string, m Mirror) {
	d := &c.d
	type kindStatus struct{ kind, status string }
	runs := map[kindStatus]int64{}
	unfinished := map[string]int64{}
	var created, updated, deleted, failed, bytes int64
	for _, t := range m.Runs {
		if t.Status == RunRunning {
			unfinished[t.Kind] += t.Runs
		} else {
			runs[kindStatus{t.Kind, t.Status}] += t.Runs
		}
		created += t.Created
		updated += t.Updated
		deleted += t.Deleted
		failed += t.Failed
		bytes += t.Bytes
	}
	for k, n := range runs {
		e.send(d.runs, prometheus.CounterValue, float64(n), dest, labelValue(k.kind), labelValue(k.status))
	}
	for kind, n := range unfinished {
		e.send(d.runsUnfinished, prometheus.GaugeValue, float64(n), dest, labelValue(kind))
	}
	e.send(d.resources, prometheus.CounterValue, float64(created), dest, "created")
	e.send(d.resources, prometheus.CounterValue, float64(updated), dest, "updated")
	e.send(d.resources, prometheus.CounterValue, float64(deleted), dest, "deleted")
	e.send(d.resources, prometheus.CounterValue, float64(failed), dest, "failed")
	e.send(d.bytes, prometheus.CounterValue, float64(bytes), dest)

	if r := m.LastRun; r != nil {
		if r.Ended.IsZero() {
			e.send(d.lastRunTime, prometheus.GaugeValue, seconds(r.Started), dest, labelValue(r.Kind))
		} else {
			e.send(d.lastRunTime, prometheus.GaugeValue, seconds(r.Ended), dest, labelValue(r.Kind))
			e.send(d.lastRunExitCode, prometheus.GaugeValue, float64(r.ExitCode), dest)
			e.send(d.lastRunDuration, prometheus.GaugeValue, r.Ended.Sub(r.Started).Seconds(), dest)
		}
	}
	e.send(d.lastSuccess, prometheus.GaugeValue, seconds(m.LastSuccess), dest)

	sets := map[string]bool{}
	for _, s := range m.Sets {
		cl := labelValue(s.CapabilityList)
		if sets[cl] {
			e.failed = true
			continue
		}
		sets[cl] = true
		e.send(d.held, prometheus.GaugeValue, float64(s.Held), dest, cl)
		e.send(d.failures, prometheus.GaugeValue, float64(s.Failures), dest, cl)
		e.send(d.baseline, prometheus.GaugeValue, seconds(s.Baseline), dest, cl)
		if !s.Cursor.IsZero() {
			e.send(d.cursor, prometheus.GaugeValue, seconds(s.Cursor), dest, cl)
			e.send(d.cursorLag, prometheus.GaugeValue, now.Sub(s.Cursor).Seconds(), dest, cl)
		}
	}
}

func (c *Collector) watchCounters(e *emitter) {
	if c.watch == nil {
		return
	}
	v := c.watch.values()
	for k, n := range v.notifications {
		e.send(c.d.notifications, prometheus.CounterValue, float64(n), labelValue(k[0]), labelValue(k[1]))
	}
	for k, n := range v.syncs {
		e.send(c.d.syncs, prometheus.CounterValue, float64(n), labelValue(k[0]), labelValue(k[1]))
	}
	for dest, n := range v.subscriptions {
		e.send(c.d.subscriptions, prometheus.GaugeValue, float64(n), labelValue(dest))
	}
}

// emitter sends const metrics, once per name and label values: a repeat
// (two label values made equal by labelValue) would fail the whole
// scrape, so it is dropped and reported as a scrape error instead.
type emitter struct {
	ch     chan<- prometheus.Metric
	seen   map[string]bool
	failed bool
}

func (e *emitter) send(d *prometheus.Desc, t prometheus.ValueType, v float64, labels ...string) {
	key := d.String() + "\xff" + strings.Join(labels, "\xff")
	if e.seen[key] {
		e.failed = true
		return
	}
	e.seen[key] = true
	m, err := prometheus.NewConstMetric(d, t, v, labels...)
	if err != nil {
		// Only a bug gets here (a label count that does not match); the
		// registry reports it.
		m = prometheus.NewInvalidMetric(d, err)
	}
	e.ch <- m
}

// labelValue makes s a valid label value: Prometheus takes only UTF-8, and
// a mirror's path need not be.
func labelValue(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// seconds is t as Unix seconds, 0 for the zero time (never).
func seconds(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	// Not UnixNano: it overflows outside 1678-2262, and these times can
	// come from a Source.
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
