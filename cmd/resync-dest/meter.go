package main

import (
	"sync"
	"time"

	"github.com/VividCortex/ewma"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// sampleEvery is how often a meter feeds its rates; rateAge is their
// memory, in samples: a change of pace shows within about half a minute.
const (
	sampleEvery = time.Second
	rateAge     = 20
)

// meter turns a run's counters into what a person wants to read: rates
// (exponentially weighted moving averages, so that the first set's pace
// does not linger and a pause does not read as zero for ever), an ETA and
// the elapsed time, all counted from the start of the whole run (never
// from the start of the set in progress). Both displays - the live bar and
// the periodic stats line - read the same meter. Safe for concurrent use.
type meter struct {
	p     *resourcesync.Progress
	start time.Time
	what  activity

	mu         sync.Mutex
	last       time.Time
	lastDone   int64
	lastBytes  int64
	res, bytes ewma.MovingAverage
}

func newMeter(p *resourcesync.Progress, start time.Time, what activity) *meter {
	return &meter{p: p, start: start, what: what, last: start, res: ewma.NewMovingAverage(rateAge), bytes: ewma.NewMovingAverage(rateAge)}
}

// sample feeds the rates with the pace since the previous sample.
func (m *meter) sample(now time.Time) {
	c, _, _ := m.p.Snapshot()
	m.mu.Lock()
	defer m.mu.Unlock()
	dt := now.Sub(m.last).Seconds()
	if dt <= 0 {
		return
	}
	m.res.Add(float64(c.Done()-m.lastDone) / dt)
	m.bytes.Add(float64(c.Bytes-m.lastBytes) / dt)
	m.last, m.lastDone, m.lastBytes = now, c.Done(), c.Bytes
}

// reading is one look at a run: what both displays show.
type reading struct {
	What     activity
	Counts   resourcesync.Counts
	Done     int64  // resources dealt with (Counts.Done)
	Expected int64  // entries expected by the end of the set in progress; 0 = no idea yet
	Exact    bool   // Expected is the number listed, not an estimate
	Set      string // the set in progress (its Capability List)
	Elapsed  time.Duration
	ResRate  float64 // resources per second; 0 until there is a rate
	ByteRate float64 // bytes written per second
	ETA      time.Duration
	HasETA   bool
}

// read looks at the run now.
func (m *meter) read(now time.Time) reading {
	c, _, _ := m.p.Snapshot()
	expected, exact, set := m.p.Expected()
	r := reading{What: m.what, Counts: c, Done: c.Done(), Expected: expected, Exact: exact, Set: set, Elapsed: now.Sub(m.start)}
	m.mu.Lock()
	r.ResRate, r.ByteRate = m.res.Value(), m.bytes.Value()
	m.mu.Unlock()
	if r.ResRate == 0 && r.Elapsed >= sampleEvery {
		// The moving averages warm up over their first samples: until
		// then, the average since the start.
		s := r.Elapsed.Seconds()
		r.ResRate, r.ByteRate = float64(r.Done)/s, float64(c.Bytes)/s
	}
	if r.Expected > r.Done && r.ResRate > 0 {
		r.ETA = time.Duration(float64(r.Expected-r.Done) / r.ResRate * float64(time.Second))
		r.HasETA = true
	}
	return r
}
