package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/s3mirror"
	"github.com/resync-dest/resync-dest/transfer"
)

func baselineCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:      "baseline",
		Usage:     "make (or bring up to date) a verified copy of a Source from its Resource Lists (or Dumps)",
		ArgsUsage: "URL",
		Description: `Streams each set's Resource List (and its index parts), fetches every resource the
mirror does not already hold with --workers concurrent requests, verifies length and every
hash the Source gives, writes each file atomically and records it in the state once it is
durable. What is already held is skipped: same hash; else same length and lastmod; else a
conditional GET. An interrupted baseline resumes where it stopped.

With --delete, local files of a set that its Resource List no longer names are deleted
(after every part of the list was read, and within --max-delete); without it they are
reported.

--via dump copies from the set's Resource Dump instead: its ZIP packages are downloaded
(verified), and each bitstream is verified against its manifest and written where its URI
maps - the names inside a package never decide where anything goes. A package whose
manifest copy shows every entry already held is not downloaded. --via auto (the default)
uses the Resource Dump for a set that holds nothing yet, when the Source offers one, and
the Resource List otherwise.`,
		Flags: syncFlags(),
		Action: withJSON(d, func(c *cli.Context) error {
			o, err := parseSyncFlags(c, "baseline")
			if err != nil {
				return err
			}
			d.jsonDest(o.dest)
			return runBaseline(c.Context, o, d)
		}),
	}
}

// runBaseline is the baseline command.
func runBaseline(ctx context.Context, o syncOptions, d *deps) error {
	e, err := openEnv(ctx, o, d)
	if err != nil {
		return err
	}
	defer writeMetricsTextfiles(d, o)
	defer e.close()
	return baselineIn(ctx, o, d, e)
}

// baselineIn is the baseline command over an open env (tests open one over
// a fault-injecting mirror).
func baselineIn(ctx context.Context, o syncOptions, d *deps, e *env) error {
	_, err := runJob(ctx, e, o, d, "baseline", func(disc *agent.Discovery, rec *runRecord, prog *resourcesync.Progress) (*agent.Report, error) {
		// One set, or a filtered run, does not see every host the Source uses.
		rec.allLists = rec.allLists && disc.Selected == "" && o.filter.Empty()
		return agent.Baseline(ctx, disc, e.agentDeps(d), agent.BaselineOptions{
			Worker:         baselineWorkerOptions(o, d, prog, rec.scope),
			CapabilityList: o.capabilityList,
			AllowHosts:     o.allowHosts,
			Via:            o.via,
		})
	}, func(rep *agent.Report, err error) { printReport(d, o.json, "baseline", rep, err) })
	return err
}

func baselineWorkerOptions(o syncOptions, d *deps, prog *resourcesync.Progress, scope *scopeReport) baseline.Options {
	wo := baseline.DefaultOptions()
	wo.RunOptions = runOptions(wo.RunOptions, o, d, prog, scope)
	wo.Checksum = o.checksum
	return wo
}

// runOptions sets what the sync commands' options say of any job's run.
func runOptions(ro transfer.RunOptions, o syncOptions, d *deps, prog *resourcesync.Progress, scope *scopeReport) transfer.RunOptions {
	ro.OutOfScope, ro.Condition = scope.add, scope.conds.add
	ro.Filter = o.filter
	ro.Dump.MaxSize = o.maxDumpSize
	if !o.dryRun && !s3mirror.IsURL(o.dest) {
		// Kept in the mirror's directory; a bucket mirror keeps none.
		ro.Dump.PartialDir = packagePartials(o.dest)
	}
	ro.Limits = o.http.limits()
	ro.Workers = o.workers
	ro.Mirrors = o.mirrors
	ro.Alternates, ro.WithMetadata = o.alternates, o.withMetadata
	if o.versionsDir != "" {
		ro.Versions = mirror.Versions{Dir: o.versionsDir}
	}
	ro.DryRun = o.dryRun
	ro.Delete, ro.MaxDelete = o.delete, o.maxDelete
	ro.Drain = d.drain
	ro.Progress = prog
	ro.Failpoint = d.failpoint
	if o.dryRun {
		ro.Plan = planOutput(o, d)
	}
	return ro
}

func progressMode(o syncOptions, d *deps) string {
	if o.json && o.progress == "auto" {
		return "never" // stdout is for the JSON document; keep stderr quiet too
	}
	return o.progress
}

// outcome turns a finished job into the command's error: the job's own
// error (exit 3 rather than 5 when the mirror changed before the Source
// became unavailable: see changedBeforeUnavailable), else exit 3 when
// some resources failed.
func outcome(rep *agent.Report, err error) error {
	if rep == nil {
		return err
	}
	if err != nil {
		return changedBeforeUnavailable(err, rep.Counts, rep.DryRun)
	}
	if rep.Counts.Failed > 0 {
		return &exitError{code: exitPartial, silent: true, err: fmt.Errorf(
			"%s failed; recorded and retried on the next run", plural(rep.Counts.Failed, "resource", "resources"))}
	}
	return nil
}
