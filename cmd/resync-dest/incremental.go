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

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func incrementalCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:      "incremental",
		Usage:     "apply the changes a Source published since the last sync, from its Change Lists",
		ArgsUsage: "URL",
		Description: `Reads each set's Change List (a Change List Index in index order; closed lists already
processed are not fetched again, the open list always is) from the cursor on - the time of
the first change not yet processed - and brings every resource a change names to the state
of its last change: created and updated resources are fetched, verified and written
atomically; deleted ones are removed only with --delete (and within --max-delete),
otherwise reported. Every change is recorded in the state with its effect, once the effect
is durable, so an interrupted run resumes exactly where it stopped; failed changes are
recorded and retried by the next run (exit 3).

The set must have been synced before (baseline, or sync), which sets the cursor; --from
DATETIME starts from a given time instead. When the Source's history no longer reaches back
to the cursor, nothing is changed and the run stops with exit 7: a new baseline is needed
(--rebaseline-on-gap makes it).`,
		Flags: append(omitFlags(syncFlags(), "checksum"), fromFlag(), rebaselineOnGapFlag()),
		Action: withJSON(d, func(c *cli.Context) error {
			o, err := parseSyncFlags(c, "incremental")
			if err != nil {
				return err
			}
			d.jsonDest(o.dest)
			f := incrementalFlags{rebaselineOnGap: c.Bool("rebaseline-on-gap")}
			if s := c.String("from"); s != "" {
				if f.from, err = resourcesync.ParseDatetime(s); err != nil {
					return usageErrorf("--from %q: %v", s, err)
				}
			}
			return runIncremental(c.Context, o, f, d)
		}),
	}
}

func fromFlag() cli.Flag {
	return &cli.StringFlag{Name: "from", Usage: "start at the changes of this W3C `DATETIME` instead of the cursor (needed for a set never synced)"}
}

func rebaselineOnGapFlag() cli.Flag {
	return &cli.BoolFlag{Name: "rebaseline-on-gap", Usage: "when the Source's change history no longer reaches back to the cursor, make a new baseline instead of stopping (exit 7)"}
}

// incrementalFlags are the options of the incremental command alone.
type incrementalFlags struct {
	from            time.Time
	rebaselineOnGap bool
}

// runIncremental is the incremental command.
func runIncremental(ctx context.Context, o syncOptions, f incrementalFlags, d *deps) error {
	if err := checkEverSynced(o, f); err != nil {
		return err
	}
	e, err := openEnv(ctx, o, d)
	if err != nil {
		return err
	}
	defer writeMetricsTextfiles(d, o)
	defer e.close()
	return incrementalIn(ctx, o, f, d, e)
}

// incrementalIn is the incremental command over an open env (tests open
// one over a fault-injecting mirror).
func incrementalIn(ctx context.Context, o syncOptions, f incrementalFlags, d *deps, e *env) error {
	_, err := runJob(ctx, e, o, d, "incremental", func(disc *agent.Discovery, rec *runRecord, prog *resourcesync.Progress) (*agent.Report, error) {
		return agent.Incremental(ctx, disc, e.agentDeps(d), agent.IncrementalOptions{
			Worker:          incrementalWorkerOptions(o, d, prog, rec.scope),
			Baseline:        baselineWorkerOptions(o, d, prog, rec.scope),
			CapabilityList:  o.capabilityList,
			AllowHosts:      o.allowHosts,
			From:            f.from,
			RebaselineOnGap: f.rebaselineOnGap,
			Via:             o.via,
		})
	}, func(rep *agent.Report, err error) {
		if rep != nil || o.json {
			printReport(d, o.json, "incremental", rep, err)
		}
	})
	return err
}

// checkEverSynced refuses, before anything is made or asked of the
// Source, an incremental sync of a mirror that has no state at all: no set
// of it has a cursor to start from (--from gives one).
func checkEverSynced(o syncOptions, f incrementalFlags) error {
	if !f.from.IsZero() {
		return nil
	}
	statePath := o.statePath
	if statePath == "" {
		statePath = filepath.Join(mirror.StateDirIn(o.dest), "state.db")
	}
	if _, err := os.Stat(statePath); errors.Is(err, fs.ErrNotExist) {
		return &exitError{code: exitUsage, err: fmt.Errorf("%w: %s was never synced (no state at %s); make a baseline first (baseline, or sync, which makes one when needed), or give --from DATETIME, the time of the first change to apply",
			agent.ErrNoStartingPoint, o.dest, statePath)}
	}
	return nil
}

func incrementalWorkerOptions(o syncOptions, d *deps, prog *resourcesync.Progress, scope *scopeReport) incremental.Options {
	wo := incremental.DefaultOptions()
	wo.RunOptions = runOptions(wo.RunOptions, o, d, prog, scope)
	return wo
}

// writeIncremental prints an incremental summary for a person; indent
// tells whether the line is already indented.
func writeIncremental(w io.Writer, s *incremental.Summary, indented bool) {
	if !indented {
		fmt.Fprint(w, "    ")
	}
	applied := fmt.Sprintf("%d applied", s.Applied)
	if s.Plan != nil {
		fmt.Fprint(w, "changes from ", s.ChangeList+s.ChangeDump, "\n")
		writePlan(w, "    ", s.Plan)
		applied = fmt.Sprintf("%d to apply", s.Applied)
	} else {
		writeCounts(w, s.Counts)
		fmt.Fprintf(w, " in %s\n", s.Ended.Sub(s.Started).Round(time.Millisecond))
	}
	lists := fmt.Sprintf("%s read, %d skipped as done", plural(int64(s.ListsRead), "list", "lists"), s.ListsSkipped)
	if s.Via == resourcesync.ViaDump {
		lists = fmt.Sprintf("%s read (%d downloaded), %d skipped as done", plural(int64(s.ListsRead), "Change Dump package", "Change Dump packages"), s.Packages, s.ListsSkipped)
	}
	fmt.Fprintf(w, "    changes since %s: %d read (%d applied before), %s, %d failed; %s; cursor %s\n",
		resourcesync.FormatDatetime(s.From), s.Changes, s.AlreadyDone, applied, s.ChangesFailed,
		lists, resourcesync.FormatDatetime(s.Cursor))
	if s.Retried > 0 {
		fmt.Fprintf(w, "    %s that failed before %s tried again\n", plural(s.Retried, "resource", "resources"), were(s.Retried))
	}
	if s.Misdated > 0 {
		fmt.Fprintf(w, "    %d changes dated outside their list's interval or after this run's time were applied; the cursor stays within the Source's bounds (the warnings name them)\n", s.Misdated)
	}
	if s.UnknownChanges > 0 {
		fmt.Fprintf(w, "    %d changes of no known kind (none of created, updated, deleted) were applied as updated\n", s.UnknownChanges)
	}
	if s.Archive != "" {
		fmt.Fprintf(w, "    the change history no longer reached back to the cursor: caught up from the archive %s (%s read)\n", s.Archive, plural(int64(s.ArchiveLists), "list or package", "lists or packages"))
	}
	if s.HistoryUnknown {
		fmt.Fprintf(w, "    the Change List gives no from: where the Source's history starts is unknown (its changes reach back to the cursor)\n")
	}
	if s.OutOfOrder > 0 {
		fmt.Fprintf(w, "    %s dated before the cursor, listed out of order, %s applied (the warnings name them)\n", plural(s.OutOfOrder, "change", "changes"), were(s.OutOfOrder))
	}
	if s.Ignored > 0 {
		fmt.Fprintf(w, "    %s dated before the cursor, listed out of order, %s ignored: a later change was applied already, or the copy held is newer (the warnings name them)\n", plural(s.Ignored, "change", "changes"), were(s.Ignored))
	}
	if s.WouldDelete > 0 && s.Plan == nil {
		fmt.Fprintf(w, "    %s deleted at the Source %s kept locally (runs with --delete apply deletions; baseline --delete removes these)\n", plural(s.WouldDelete, "resource", "resources"), were(s.WouldDelete))
	}
	for _, f := range s.Failures {
		fmt.Fprintf(w, "    ! %s: %s\n", f.URI, f.Cause)
	}
	if s.Failed > int64(len(s.Failures)) {
		fmt.Fprintf(w, "    ! ... and %s more (resync-dest status lists them)\n", plural(s.Failed-int64(len(s.Failures)), "failure", "failures"))
	}
}
