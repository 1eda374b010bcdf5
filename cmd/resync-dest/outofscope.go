package main

import (
	"context"
	"net/url"
	"strings"
	"sync"

	"github.com/rs/zerolog"

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
// Safe for concurrent use.
type scopeReport struct {
	mu    sync.Mutex
	hosts map[string]*state.OutOfScope
	order []string // hosts in the order first seen
}

func newScopeReport() *scopeReport {
	return &scopeReport{hosts: map[string]*state.OutOfScope{}}
}

// add counts one entry skipped as out of scope (transfer.RunOptions.OutOfScope).
func (s *scopeReport) add(uri string, cause error) {
	host := ""
	if u, err := url.Parse(uri); err == nil {
		host = strings.ToLower(u.Host)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.hosts[host]
	if !ok && len(s.hosts) >= maxScopeHosts {
		host = otherHosts
		h, ok = s.hosts[host]
	}
	if !ok {
		h = &state.OutOfScope{Host: host, Reason: cause.Error()}
		s.hosts[host] = h
		s.order = append(s.order, host)
	}
	h.Entries++
	if len(h.URIs) < maxScopeSample {
		h.URIs = append(h.URIs, uri)
	}
}

// seen returns what was gathered, hosts in the order first seen.
func (s *scopeReport) seen() []state.OutOfScope {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]state.OutOfScope, 0, len(s.order))
	for _, h := range s.order {
		out = append(out, *s.hosts[h])
	}
	return out
}

// scopeStore is the state as the out-of-scope report reads and records it.
type scopeStore interface {
	OutOfScopeHosts(ctx context.Context, sample int) ([]state.OutOfScope, error)
	RecordOutOfScope(ctx context.Context, seen []state.OutOfScope, complete bool) error
}

// finish logs one line per host - a warning for a host the state did not
// know, an INFO line (which --quiet hides) for a known one - and, unless
// record is false (a dry run), records them; complete says that the run
// read every set's lists, so that hosts it did not see are forgotten.
func (s *scopeReport) finish(ctx context.Context, db scopeStore, log zerolog.Logger, record, complete bool) {
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
