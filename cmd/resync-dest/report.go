package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// printReport prints the final summary: with --json it is the result of
// the command's envelope (envelope.go), else a few lines for a person -
// none when the run got no report (the error says why, on stderr).
func printReport(d *deps, asJSON bool, command string, rep *agent.Report, err error) {
	if asJSON {
		d.jsonResult(rep)
		return
	}
	if rep == nil {
		return
	}
	if d.quiet && err == nil {
		return // --quiet: a cron job mails only when something went wrong
	}
	w := d.io.out
	title := command
	if rep.DryRun {
		title += " (dry run: nothing was written)"
	}
	fmt.Fprintf(w, "%s of %s\n", title, rep.Source)
	for _, s := range rep.Sets {
		fmt.Fprintf(w, "  %s\n    ", s.CapabilityList)
		if b := s.Baseline; b != nil && b.Plan != nil {
			fmt.Fprint(w, "baseline from ", b.ResourceList+b.ResourceDump, "\n")
			writePlan(w, "    ", b.Plan)
		} else if b != nil {
			writeCounts(w, b.Counts)
			fmt.Fprintf(w, " in %s\n", b.Ended.Sub(b.Started).Round(time.Millisecond))
			if b.BadLastMod > 0 {
				fmt.Fprintf(w, "    %s a lastmod that is not a W3C datetime (read as none; resync-dest status counts them)\n", plural(b.BadLastMod, "entry has", "entries have"))
			}
			if b.WouldDelete > 0 {
				fmt.Fprintf(w, "    %s no longer listed by the Source (use --delete to remove them)\n", plural(b.WouldDelete, "local file is", "local files are"))
			}
			for _, f := range b.Failures {
				fmt.Fprintf(w, "    ! %s: %s\n", f.URI, f.Cause)
			}
			if b.Failed > int64(len(b.Failures)) {
				fmt.Fprintf(w, "    ! ... and %s more (resync-dest status lists them)\n", plural(b.Failed-int64(len(b.Failures)), "failure", "failures"))
			}
		} else if s.Incremental == nil {
			fmt.Fprintln(w, "nothing done")
		}
		if s.Incremental != nil {
			writeIncremental(w, s.Incremental, s.Baseline == nil)
		}
		if s.Err != nil {
			fmt.Fprintf(w, "    error: %v\n", s.Err)
		}
	}
	for _, r := range rep.Retired {
		verb := "retired"
		if rep.DryRun {
			verb = "would retire"
		}
		fmt.Fprintf(w, "  %s %s: %s\n", verb, r.CapabilityList, retiredWhy(r))
	}
	if len(rep.Sets) > 1 && rep.Plan != nil {
		fmt.Fprintln(w, "  total:")
		writePlan(w, "    ", rep.Plan)
	} else if len(rep.Sets) > 1 {
		fmt.Fprint(w, "  total: ")
		writeCounts(w, rep.Counts)
		fmt.Fprintln(w)
	}
}

// logDeletions logs, per set, how many files the run deleted and how many
// it kept though the Source no longer has them: one line each at info,
// where a line per file (at debug) would flood a log with hundreds.
func logDeletions(d *deps, rep *agent.Report) {
	if rep == nil {
		return
	}
	for _, s := range rep.Sets {
		var deleted, kept int64
		if b := s.Baseline; b != nil {
			deleted, kept = deleted+b.Deleted, kept+b.WouldDelete
		}
		if i := s.Incremental; i != nil {
			deleted, kept = deleted+i.Deleted, kept+i.WouldDelete
		}
		log := d.log.With().Str("capability_list", s.CapabilityList).Logger()
		if deleted > 0 {
			log.Info().Int64("deleted", deleted).Msgf("%s deleted (each one at debug level)", plural(deleted, "file", "files"))
		}
		if kept > 0 {
			log.Info().Int64("kept", kept).Msgf("%s that the Source no longer has kept locally (runs with --delete apply deletions; each one at debug level)", plural(kept, "file", "files"))
		}
	}
}

// retiredWhy says why a set was retired and where its files are.
func retiredWhy(r agent.RetiredSet) string {
	where := "the mirror"
	if len(r.Tree) > 0 && r.Tree[0] != "" {
		where = strings.Join(r.Tree, ", ")
	}
	return fmt.Sprintf("the Source Description %s no longer names it; its %s kept in %s (nothing deleted)",
		r.Source, plural(r.Files, "file is", "files are"), where)
}

// plural is n with the noun that goes with it: "1 resource", "2
// resources".
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func were(n int64) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// runRecord records a run in the state (not in a dry run), and what it
// found out of scope.
type runRecord struct {
	e   *env
	id  int64
	d   *deps
	ctx context.Context
	// scope gathers the entries skipped as out of scope; allLists says
	// that the run reads every set's Resource List (a baseline without
	// --capability-list), so that a host it does not see is no longer
	// listed - a run of Change Lists sees only what changed.
	scope    *scopeReport
	dryRun   bool
	allLists bool
}

func startRun(ctx context.Context, e *env, kind string, o syncOptions, d *deps) *runRecord {
	r := &runRecord{e: e, d: d, ctx: context.WithoutCancel(ctx), scope: newScopeReport(), dryRun: o.dryRun,
		allLists: kind == "baseline" && o.capabilityList == ""}
	if o.dryRun {
		return r
	}
	id, err := e.store.StartRun(r.ctx, kind)
	if err != nil {
		d.log.Warn().Err(err).Msg("cannot record the run in the state")
		return r
	}
	r.id = id
	return r
}

// finish records how the run ended. A failure to record it is logged: the
// run's own outcome matters more.
func (r *runRecord) finish(rep *agent.Report, err error) {
	r.scope.finish(r.ctx, r.e.store, r.d.log, !r.dryRun, r.allLists && err == nil)
	if r.id == 0 {
		return
	}
	// A run stopped by a signal is recorded with the signal's status,
	// whatever error the stop surfaced as (a cancelled transfer).
	code := exitCode(err, signalOf(r.d.drain))
	status := runStatus(code)
	var counts resourcesync.Counts
	if rep != nil {
		counts = rep.Counts
	}
	var msgs []string
	if err != nil {
		msgs = append(msgs, err.Error())
	}
	if rep != nil {
		for _, s := range rep.Retired {
			msgs = append(msgs, "retired set "+s.CapabilityList+": "+retiredWhy(s))
		}
		for _, s := range rep.Sets {
			if i := s.Incremental; i != nil && i.Archive != "" {
				msgs = append(msgs, fmt.Sprintf("set %s caught up from the archive %s (%s)",
					s.CapabilityList, i.Archive, plural(int64(i.ArchiveLists), "list or package", "lists or packages")))
			}
		}
	}
	msg := strings.Join(msgs, "; ")
	if ferr := r.e.store.FinishRun(r.ctx, r.id, status, code, counts, msg); ferr != nil {
		r.d.log.Warn().Err(ferr).Msg("cannot record the end of the run in the state")
	}
}

func runStatus(code int) string {
	switch code {
	case exitOK:
		return "ok"
	case exitPartial:
		return "partial"
	case exitUnavailable:
		return "unavailable"
	case exitSafetyStop:
		return "safety-stop"
	case exitSIGINT, exitSIGTERM:
		return "interrupted"
	}
	return "failed"
}
