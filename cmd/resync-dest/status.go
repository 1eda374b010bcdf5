package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/s3mirror"
	"github.com/resync-dest/resync-dest/state"
)

// statusOptions are the parsed flags of status.
type statusOptions struct {
	dest      string
	statePath string
	json      bool
	runs      int
	// outOfScope lists the entries kept of each host out of scope.
	outOfScope bool
	// resource, when set, asks about this one resource instead.
	resource string
}

// maxFailuresShown bounds the failures per set the text output lists;
// --json lists them all. maxHostsShown bounds the hosts out of scope it
// lists without --out-of-scope.
const (
	maxFailuresShown = 20
	maxHostsShown    = 20
)

func statusCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show what the state knows: sets, last runs, failures to retry (no network)",
		Description: `Reads the state of the mirror, without touching the network and without writing
anything (it can run while a sync is under way): each set of resources with its Source, the
baseline it was made from, the cursor (the time of the first change not yet processed), the
resources held and the failures waiting to be retried; then the last runs with their
outcome and counts.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dest", Usage: "mirror root `DIR` (required)", EnvVars: []string{"RESYNC_DEST_DEST"}},
			&cli.StringFlag{Name: "state", Usage: "the state: a SQLite `FILE` (default: DIR/.resync-dest/state.db) or postgres://...", EnvVars: []string{"RESYNC_DEST_STATE"}},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON document on stdout, also when the command fails (an envelope with exit_code and error)"},
			&cli.IntFlag{Name: "runs", Value: 10, Usage: "how many of the last runs to show"},
			&cli.BoolFlag{Name: "out-of-scope", Usage: "list every host out of scope with the entries kept of it (up to 1,000 each)"},
			&cli.StringFlag{Name: "resource", Usage: "show what the state records of the resource `URI` instead: its record in each set (path, lastmod, hashes, the links of its entry, where it was republished from) and its failures"},
		},
		Action: withJSON(d, func(c *cli.Context) error {
			if c.NArg() != 0 {
				return usageErrorf("status takes no arguments")
			}
			o := statusOptions{dest: c.String("dest"), statePath: c.String("state"), json: c.Bool("json"), runs: c.Int("runs"),
				outOfScope: c.Bool("out-of-scope"), resource: c.String("resource")}
			if o.dest == "" {
				return usageErrorf("status needs --dest DIR")
			}
			if abs, err := filepath.Abs(o.dest); err == nil {
				d.jsonDest(abs)
			}
			if o.runs < 1 {
				return usageErrorf("--runs %d: want at least 1", o.runs)
			}
			return runStatusCommand(c.Context, o, d)
		}),
	}
}

// statusReport is what status shows; its JSON form is the --json document.
type statusReport struct {
	State      string        `json:"state"`
	Sets       []setStatus   `json:"sets"`
	OutOfScope []scopeStatus `json:"out_of_scope"`
	// Conditions are the other faults the Source repeats entry by entry.
	Conditions []conditionStatus `json:"conditions"`
	Runs       []runInfo         `json:"runs"`
	// Writer is the run holding the mirror's write lock now, from the lock
	// file; null when none does.
	Writer *writerInfo `json:"writer"`
}

type writerInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host,omitempty"`
	Started time.Time `json:"started,omitzero"`
}

// scopeStatus is a host out of scope: the Source lists entries on it that
// are not fetched. URIs is the sample kept (with --out-of-scope).
type scopeStatus struct {
	Host      string    `json:"host"`
	Entries   int64     `json:"entries"`
	Reason    string    `json:"reason"`
	FirstSeen time.Time `json:"first_seen,omitzero"`
	LastSeen  time.Time `json:"last_seen,omitzero"`
	URIs      []string  `json:"uris,omitempty"`
}

type setStatus struct {
	CapabilityList string    `json:"capability_list"`
	Source         string    `json:"source,omitempty"`
	Created        time.Time `json:"created,omitzero"`
	BaselineAt     time.Time `json:"baseline_list_at,omitzero"` // the Resource List's (or Dump's) at
	// BaselineCompleted is when the baseline run finished (wall clock),
	// as "completed" means everywhere in the JSON documents.
	BaselineCompleted time.Time        `json:"baseline_completed,omitzero"`
	Via               resourcesync.Via `json:"via,omitempty"`
	Cursor            time.Time        `json:"cursor,omitzero"` // the time of the first unprocessed change
	Held              int64            `json:"held"`
	Failures          []failureStatus  `json:"failures"`
	// Republished counts, by origin host, the resources held whose entry
	// says they were republished from another Source (§14.8: via).
	Republished []state.Origin `json:"republished"`
}

type failureStatus struct {
	URI      string    `json:"uri"`
	Cause    string    `json:"cause"`
	At       time.Time `json:"at,omitzero"`
	Attempts int64     `json:"attempts"`
}

type runInfo struct {
	ID       int64               `json:"id"`
	Kind     string              `json:"kind"`
	Sets     []string            `json:"sets,omitempty"` // Capability Lists
	Started  time.Time           `json:"started,omitzero"`
	Ended    time.Time           `json:"ended,omitzero"`
	Status   string              `json:"status"`
	ExitCode int                 `json:"exit_code"`
	Counts   resourcesync.Counts `json:"counts"`
	Message  string              `json:"message,omitempty"`
	// Running is true for the run without an end that holds the mirror's
	// lock now; a run without an end that is not running died.
	Running bool `json:"running"`
}

// runStatusCommand is the status command. It opens the state read-only
// and never the mirror's lock, so that it works while a run is going.
func runStatusCommand(ctx context.Context, o statusOptions, d *deps) error {
	mo := mirror.DefaultOptions()
	mo.ReadOnly = true
	m, err := mirror.Open(o.dest, mo)
	if err != nil {
		return err
	}
	statePath := o.statePath
	if statePath == "" && s3mirror.IsURL(o.dest) {
		return usageErrorf("--dest %s keeps no state in the bucket: give --state", o.dest)
	}
	if statePath == "" {
		statePath = filepath.Join(m.StateDir(), "state.db")
	}
	// Whether a run holds the mirror now tells a run in progress from one
	// that died without recording its end.
	holder, held, herr := m.WriteHolder()
	if err := m.Close(); err != nil {
		return err
	}
	if herr != nil {
		d.log.Warn().Err(herr).Msg("cannot tell whether a run holds the mirror now")
	}
	if _, err := os.Stat(statePath); !pgstate.IsURL(statePath) && errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no state at %s: nothing was synced into %s yet", statePath, o.dest)
	}
	db, err := openReadState(ctx, statePath)
	if err != nil {
		return err
	}
	defer db.Close()
	if o.resource != "" {
		rep, err := readResource(ctx, db, o.resource)
		if err != nil {
			return err
		}
		if o.json {
			d.jsonResult(rep)
		} else {
			printResource(d.io.out, rep)
		}
		return nil
	}
	st, err := readStatus(ctx, db, o.runs, o.outOfScope)
	if err != nil {
		return err
	}
	if held {
		st.Writer = &writerInfo{PID: holder.PID, Host: holder.Host, Started: holder.Started}
		// Newest first: the newest run without an end is the one running,
		// unless it started before the holder took the lock (the holder
		// has not recorded its run yet, and that one died).
		for i := range st.Runs {
			if r := &st.Runs[i]; r.Ended.IsZero() {
				r.Running = holder.Started.IsZero() || !r.Started.Before(holder.Started.Truncate(time.Second))
				break
			}
		}
	}
	if o.json {
		d.jsonResult(st)
		return nil
	}
	printStatus(d.io.out, st, o.outOfScope)
	return nil
}

func readStatus(ctx context.Context, db readStore, runs int, entries bool) (*statusReport, error) {
	st := &statusReport{State: db.Path(), Sets: []setStatus{}, OutOfScope: []scopeStatus{}, Conditions: []conditionStatus{}, Runs: []runInfo{}}
	sample := 0
	if entries {
		sample = maxScopeSample
	}
	hosts, err := db.OutOfScopeHosts(ctx, sample)
	if err != nil {
		return nil, err
	}
	for _, h := range hosts {
		st.OutOfScope = append(st.OutOfScope, scopeStatus{Host: h.Host, Entries: h.Entries, Reason: h.Reason, FirstSeen: h.FirstSeen, LastSeen: h.LastSeen, URIs: h.URIs})
	}
	if st.Conditions, err = readConditions(ctx, db); err != nil {
		return nil, err
	}
	sets, err := db.Sets(ctx)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	for _, s := range sets {
		names[s.ID] = s.CapabilityList
		ss := setStatus{
			CapabilityList: s.CapabilityList, Source: s.Source, Created: s.Created, BaselineAt: s.BaselineAt,
			BaselineCompleted: s.BaselineCompleted, Via: s.Via, Cursor: s.Cursor, Failures: []failureStatus{},
		}
		if ss.Held, err = db.HeldCount(ctx, s.ID); err != nil {
			return nil, err
		}
		if ss.Republished, err = db.Provenance(ctx, s.ID); err != nil {
			return nil, err
		}
		fails, err := db.FailureRecords(ctx, s.ID)
		if err != nil {
			return nil, err
		}
		for _, f := range fails {
			ss.Failures = append(ss.Failures, failureStatus{URI: f.URI, Cause: f.Cause, At: f.At, Attempts: f.Attempts})
		}
		st.Sets = append(st.Sets, ss)
	}
	rs, err := db.Runs(ctx, runs)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		ri := runInfo{ID: r.ID, Kind: r.Kind, Started: r.Started, Ended: r.Ended, Status: r.Status,
			ExitCode: r.ExitCode, Counts: r.Counts, Message: r.Message}
		for _, id := range r.Sets {
			ri.Sets = append(ri.Sets, names[id])
		}
		st.Runs = append(st.Runs, ri)
	}
	return st, nil
}

func printStatus(w io.Writer, st *statusReport, entries bool) {
	fmt.Fprintf(w, "state  %s\n", st.State)
	if len(st.Sets) == 0 {
		fmt.Fprintf(w, "\nno set of resources recorded yet\n")
	}
	for _, s := range st.Sets {
		fmt.Fprintf(w, "\nset %s\n", s.CapabilityList)
		if s.Source != "" {
			fmt.Fprintf(w, "  source    %s\n", s.Source)
		}
		if s.BaselineAt.IsZero() {
			fmt.Fprintf(w, "  baseline  none complete yet\n")
		} else {
			fmt.Fprintf(w, "  baseline  as of %s (from the Resource %s), completed %s\n",
				datetime(s.BaselineAt), viaName(s.Via), clock(s.BaselineCompleted))
		}
		if s.Cursor.IsZero() {
			fmt.Fprintf(w, "  cursor    none\n")
		} else {
			fmt.Fprintf(w, "  cursor    %s (the first change not yet processed)\n", datetime(s.Cursor))
		}
		fmt.Fprintf(w, "  held      %s\n", plural(s.Held, "resource", "resources"))
		printRepublished(w, s.Republished)
		if len(s.Failures) == 0 {
			fmt.Fprintf(w, "  failures  none\n")
			continue
		}
		fmt.Fprintf(w, "  failures  %d waiting to be retried by the next run\n", len(s.Failures))
		for i, f := range s.Failures {
			if i == maxFailuresShown {
				fmt.Fprintf(w, "    ... and %d more (--json lists them all)\n", len(s.Failures)-i)
				break
			}
			fmt.Fprintf(w, "    ! %s: %s (%s, last %s)\n", f.URI, oneLine(f.Cause), plural(f.Attempts, "attempt", "attempts"), clock(f.At))
		}
	}
	printOutOfScope(w, st.OutOfScope, entries)
	printConditions(w, st.Conditions)
	if len(st.Runs) == 0 {
		fmt.Fprintf(w, "\nno run recorded yet\n")
		return
	}
	fmt.Fprintf(w, "\nlast runs, newest first\n")
	for _, r := range st.Runs {
		switch {
		case !r.Ended.IsZero():
			fmt.Fprintf(w, "  #%d %s  %s, took %s: %s (exit %d)\n", r.ID, r.Kind, clock(r.Started),
				r.Ended.Sub(r.Started).Round(time.Millisecond), r.Status, r.ExitCode)
		case r.Running:
			fmt.Fprintf(w, "  #%d %s  %s, running now (%s)\n", r.ID, r.Kind, clock(r.Started), writerString(st.Writer))
		default:
			fmt.Fprintf(w, "  #%d %s  %s, died without recording an end (no run holds the mirror)\n", r.ID, r.Kind, clock(r.Started))
		}
		for _, s := range r.Sets {
			fmt.Fprintf(w, "      %s\n", s)
		}
		fmt.Fprintf(w, "      ")
		writeCounts(w, r.Counts)
		fmt.Fprintln(w)
		if r.Message != "" {
			fmt.Fprintf(w, "      %s\n", oneLine(r.Message))
		}
	}
}

func writerString(w *writerInfo) string {
	return mirror.Holder{PID: w.PID, Host: w.Host, Started: w.Started}.String()
}

func viaName(via resourcesync.Via) string {
	if via == resourcesync.ViaDump {
		return "Dump"
	}
	return "List"
}

// clock is a time of this program's own (a run, a failure) to the
// second; datetime is an instant the Source gave, exactly.
func clock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func datetime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return resourcesync.FormatDatetime(t)
}

func oneLine(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '\r' || c == '\t' {
			b[i] = ' '
		}
	}
	return string(b)
}

// printOutOfScope lists the hosts out of scope: at most maxHostsShown of
// them, or, when entries is set, all of them with the entries kept.
func printOutOfScope(w io.Writer, hosts []scopeStatus, entries bool) {
	if len(hosts) == 0 {
		return
	}
	var total int64
	for _, h := range hosts {
		total += h.Entries
	}
	fmt.Fprintf(w, "\nout of scope  %s on %s, listed by the Source and not fetched (--allow-host lets a host in)\n",
		plural(total, "entry", "entries"), plural(int64(len(hosts)), "host", "hosts"))
	for i, h := range hosts {
		if i == maxHostsShown && !entries {
			fmt.Fprintf(w, "  ... and %d more hosts (--out-of-scope lists them all)\n", len(hosts)-i)
			break
		}
		name := h.Host
		if name == "" {
			name = "(no host)"
		}
		fmt.Fprintf(w, "  %s  %s, since %s; e.g. %s\n", name, plural(h.Entries, "entry", "entries"), clock(h.FirstSeen), oneLine(h.Reason))
		if !entries {
			continue
		}
		for _, u := range h.URIs {
			fmt.Fprintf(w, "    %s\n", u)
		}
		if n := h.Entries - int64(len(h.URIs)); n > 0 {
			fmt.Fprintf(w, "    ... and %d more (the state keeps %d per host)\n", n, maxScopeSample)
		}
	}
}
