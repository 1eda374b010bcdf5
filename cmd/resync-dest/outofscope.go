package main

import (
	"container/heap"
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// Bounds of what a run keeps of the entries it skipped as out of scope: a
// Source may list millions of them, on as many hosts.
const (
	maxScopeHosts  = 1000 // hosts told apart; the others are counted under otherHosts
	maxScopeSample = 1000 // entries kept per host for status
)

// otherHosts is the host under which the entries on hosts past
// maxScopeHosts are counted.
const otherHosts = "(other hosts)"

// scopeReport gathers what a run skipped as out of scope, host by host, in
// bounded memory: the run reports it in one line per host instead of one
// per entry, warns only about hosts the state did not know (a condition
// nobody can fix is not news on every run) and records it for status.
// The workers finish entries in no fixed order, so what it keeps of a host
// is chosen by URI, not by arrival: the example is the cause of the least
// URI and the sample the maxScopeSample least ones - the same from run to
// run, and the entries status lists (in URI order) are its first ones.
// Safe for concurrent use.
type scopeReport struct {
	mu    sync.Mutex
	hosts map[string]*hostScope
	order []string // hosts in the order first seen
	// conds gathers the other conditions a Source repeats entry by
	// entry, reported and recorded alike.
	conds *conditionReport
}

// hostScope is what a run gathered of one host: the record, the URI whose
// cause is its Reason, and the sample as a max-heap of URIs, so that the
// greatest is the one a lesser URI replaces.
type hostScope struct {
	rec     state.OutOfScope
	example string
	sample  uriHeap
}

func newScopeReport() *scopeReport {
	return &scopeReport{hosts: map[string]*hostScope{}, conds: newConditionReport()}
}

// reportHost is the host a report counts uri under: the lower-case host,
// with its port only when it is not the scheme's default. The port is the
// one resourcesync.HostPort reads, so that "h:0443" and "h" - one server to
// the scope check - are one row here too.
func reportHost(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if p := resourcesync.Port(u); p != resourcesync.DefaultPort(u.Scheme) {
		host += ":" + p
	}
	return host
}

// add counts one entry skipped as out of scope (transfer.RunOptions.OutOfScope).
func (s *scopeReport) add(uri string, cause error) {
	host := reportHost(uri)
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.hosts[host]
	if !ok && len(s.hosts) >= maxScopeHosts {
		host = otherHosts
		h, ok = s.hosts[host]
	}
	if !ok {
		h = &hostScope{rec: state.OutOfScope{Host: host, Reason: cause.Error()}, example: uri}
		s.hosts[host] = h
		s.order = append(s.order, host)
	}
	h.rec.Entries++
	if uri < h.example {
		h.rec.Reason, h.example = cause.Error(), uri
	}
	switch {
	case len(h.sample) < maxScopeSample:
		heap.Push(&h.sample, uri)
	case uri < h.sample[0]:
		h.sample[0] = uri
		heap.Fix(&h.sample, 0)
	}
}

// seen returns what was gathered, hosts in the order first seen, each
// host's sample in URI order.
func (s *scopeReport) seen() []state.OutOfScope {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]state.OutOfScope, 0, len(s.order))
	for _, host := range s.order {
		h := s.hosts[host]
		rec := h.rec
		rec.URIs = slices.Sorted(slices.Values(h.sample))
		out = append(out, rec)
	}
	return out
}

// uriHeap is a max-heap of URIs (container/heap).
type uriHeap []string

func (h uriHeap) Len() int           { return len(h) }
func (h uriHeap) Less(i, j int) bool { return h[i] > h[j] }
func (h uriHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *uriHeap) Push(x any)        { *h = append(*h, x.(string)) }
func (h *uriHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// scopeStore is the state as the out-of-scope report reads and records it.
type scopeStore interface {
	OutOfScopeHosts(ctx context.Context, sample int) ([]state.OutOfScope, error)
	RecordOutOfScope(ctx context.Context, seen []state.OutOfScope, complete bool) error
	Conditions(ctx context.Context) ([]state.Condition, error)
	RecordConditions(ctx context.Context, kind string, seen []state.Condition, complete bool) error
}

// finish logs one line per host - a warning for a host the state did not
// know, an INFO line (which --quiet hides) for a known one - and, unless
// record is false (a dry run), records them; complete says that the run
// read every set's lists, so that hosts it did not see are forgotten.
func (s *scopeReport) finish(ctx context.Context, db scopeStore, log zerolog.Logger, record, complete bool) {
	defer s.conds.finish(ctx, db, log, record, complete)
	seen := s.seen()
	known := map[string]bool{}
	if before, err := db.OutOfScopeHosts(ctx, 0); err != nil {
		log.Warn().Err(err).Msg("cannot read what the state knows out of scope")
	} else {
		for _, h := range before {
			known[h.Host] = true
		}
	}
	for _, h := range seen {
		ev := log.Warn()
		msg := "entries out of scope, not fetched (new since the last run; listed by resync-dest status --out-of-scope)"
		if known[h.Host] {
			ev, msg = log.Info(), "entries out of scope, not fetched, as in earlier runs (resync-dest status --out-of-scope)"
		}
		ev.Str("host", h.Host).Int64("entries", h.Entries).Str("example", h.Reason).Msg(msg)
	}
	if !record {
		return
	}
	if err := db.RecordOutOfScope(ctx, seen, complete); err != nil {
		log.Warn().Err(err).Msg("cannot record in the state what is out of scope")
	}
}
