package main

import (
	"context"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// runJob is one job of baseline, incremental or sync (kind) over an open
// env: the Source discovered (its warnings logged), the run recorded in
// the state and its progress shown while run does the work, the deletions
// logged, and the report handed to report before the run is recorded as
// finished. It returns what discovery found (nil if nothing) and the
// job's error, as outcome makes it.
func runJob(ctx context.Context, e *env, o syncOptions, d *deps, kind string,
	run func(disc *agent.Discovery, rec *runRecord, prog *resourcesync.Progress) (*agent.Report, error),
	report func(*agent.Report, error)) (*agent.Discovery, error) {
	disc, err := discoverSource(ctx, e, o)
	if err != nil {
		return nil, err
	}
	for _, w := range disc.Warnings {
		d.log.Warn().Msg(w)
	}
	rec := startRun(ctx, e, kind, o, d)
	prog := &resourcesync.Progress{}
	stop := startProgress(d, progressMode(o, d), prog, syncing)
	rep, err := run(disc, rec, prog)
	stop()
	logDeletions(d, rep)
	err = outcome(rep, err)
	report(rep, err)
	rec.finish(rep, err)
	return disc, err
}
