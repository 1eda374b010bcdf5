package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/state"
	"github.com/resync-dest/resync-dest/transfer"
)

// conditionKind is a condition a Source repeats entry by entry
// (transfer.RunOptions.Condition), with what a run says of it; complete
// says whether a baseline of every set sees every entry of the kind, so
// that one that no longer finds it can forget it.
type conditionKind struct {
	kind, what string
	complete   bool
}

// conditionKinds are the kinds reported, in the order of their lines.
func conditionKinds() []conditionKind {
	return []conditionKind{
		{transfer.ConditionLastMod, "entries whose lastmod is not a W3C datetime, treated as if they had none", true},
		{transfer.ConditionMisdated, "changes dated outside their list's interval or after the run's time, applied with the cursor kept to the list's bound", false},
		{transfer.ConditionChangeKind, "changes whose change attribute is none of created, updated, deleted, applied as updated", false},
		{transfer.ConditionListAt, "Resource Lists or Dumps without at, or dated after the run's time: the baseline point is the run's time", true},
	}
}

// conditionKey is a condition on a host.
type conditionKey struct{ kind, host string }

// conditionReport gathers the conditions a run found, kind by kind and
// host by host, in bounded memory, as scopeReport does for the entries out
// of scope: the run reports them in one line per kind and host instead of
// one per entry, warns only about those the state did not know, and
// records them for status. Safe for concurrent use.
type conditionReport struct {
	mu    sync.Mutex
	seen  map[conditionKey]*state.Condition
	order []conditionKey
}

func newConditionReport() *conditionReport {
	return &conditionReport{seen: map[conditionKey]*state.Condition{}}
}

// add counts one entry showing a condition (transfer.RunOptions.Condition).
func (r *conditionReport) add(kind, uri, detail string) {
	host := reportHost(uri)
	r.mu.Lock()
	defer r.mu.Unlock()
	k := conditionKey{kind, host}
	c, ok := r.seen[k]
	if !ok && len(r.seen) >= maxScopeHosts {
		k.host = otherHosts
		c, ok = r.seen[k]
	}
	if !ok {
		c = &state.Condition{Kind: kind, Host: k.host, Reason: uri + ": " + detail}
		r.seen[k] = c
		r.order = append(r.order, k)
	}
	c.Entries++
}

// of returns what was gathered of kind, hosts in the order first seen.
func (r *conditionReport) of(kind string) []state.Condition {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []state.Condition
	for _, k := range r.order {
		if k.kind == kind {
			out = append(out, *r.seen[k])
		}
	}
	return out
}

// finish logs one line per kind and host - a warning for a condition the
// state did not know, an INFO line (which --quiet hides) for a known one -
// and, unless record is false (a dry run), records them; complete says
// that the run read every set's lists.
func (r *conditionReport) finish(ctx context.Context, db scopeStore, log zerolog.Logger, record, complete bool) {
	known := map[conditionKey]bool{}
	if before, err := db.Conditions(ctx); err != nil {
		log.Warn().Err(err).Msg("cannot read the conditions the state knows")
	} else {
		for _, c := range before {
			known[conditionKey{c.Kind, c.Host}] = true
		}
	}
	for _, k := range conditionKinds() {
		seen := r.of(k.kind)
		for _, c := range seen {
			ev, msg := log.Warn(), k.what+" (new since the last run; counted by resync-dest status)"
			if known[conditionKey{c.Kind, c.Host}] {
				ev, msg = log.Info(), k.what+", as in earlier runs (resync-dest status)"
			}
			ev.Str("condition", c.Kind).Str("host", c.Host).Int64("entries", c.Entries).Str("example", c.Reason).Msg(msg)
		}
		if !record || (len(seen) == 0 && !(complete && k.complete)) {
			continue
		}
		if err := db.RecordConditions(ctx, k.kind, seen, complete && k.complete); err != nil {
			log.Warn().Err(err).Msg("cannot record in the state the conditions found")
		}
	}
}

// conditionStatus is a condition on a host, as status shows it.
type conditionStatus struct {
	Kind      string    `json:"kind"`
	Host      string    `json:"host"`
	Entries   int64     `json:"entries"`
	Example   string    `json:"example"`
	FirstSeen time.Time `json:"first_seen,omitzero"`
	LastSeen  time.Time `json:"last_seen,omitzero"`
}

func readConditions(ctx context.Context, db readStore) ([]conditionStatus, error) {
	cs, err := db.Conditions(ctx)
	if err != nil {
		return nil, err
	}
	out := []conditionStatus{}
	for _, c := range cs {
		out = append(out, conditionStatus{Kind: c.Kind, Host: c.Host, Entries: c.Entries, Example: c.Reason, FirstSeen: c.FirstSeen, LastSeen: c.LastSeen})
	}
	return out, nil
}

// printConditions counts the conditions known, kind by kind and host by
// host (at most maxHostsShown).
func printConditions(w io.Writer, cs []conditionStatus) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "\nknown conditions of the Source's entries, warned about when they first appeared\n")
	for i, c := range cs {
		if i == maxHostsShown {
			fmt.Fprintf(w, "  ... and %d more (--json lists them all)\n", len(cs)-i)
			break
		}
		name := c.Host
		if name == "" {
			name = "(no host)"
		}
		fmt.Fprintf(w, "  %s  %s  %s in the last run that saw it, since %s; e.g. %s\n", c.Kind, name, plural(c.Entries, "entry", "entries"), clock(c.FirstSeen), oneLine(c.Example))
	}
}
