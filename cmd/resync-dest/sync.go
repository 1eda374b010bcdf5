package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func syncCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:      "sync",
		Usage:     "keep a mirror in step (the cron entry point): baseline a set never synced, else apply its changes",
		ArgsUsage: "URL",
		Description: `For each set of the Source: when this mirror never synced it, makes a baseline (as the
baseline command does); afterwards applies the changes published since (as incremental
does). A set without a Change List gets a baseline every time. Run it from cron or a systemd
timer; every run is recorded in the state and the exit status says how it went.

With --checksum every set gets a baseline that re-hashes the local files: the repair for
local damage, which the Source's changes cannot reveal.`,
		Flags: append(syncFlags(), rebaselineOnGapFlag()),
		Action: func(c *cli.Context) error {
			o, err := parseSyncFlags(c, "sync")
			if err != nil {
				return err
			}
			return runSync(c.Context, o, c.Bool("rebaseline-on-gap"), d)
		},
	}
}

// runSync is the sync command.
func runSync(ctx context.Context, o syncOptions, rebaselineOnGap bool, d *deps) error {
	e, err := openEnv(ctx, o, d)
	if err != nil {
		return err
	}
	defer e.close()
	disc, err := agent.Discover(ctx, e.client, o.url, agent.DefaultDiscoverOptions())
	if err != nil {
		return err
	}
	for _, w := range disc.Warnings {
		d.log.Warn().Msg(w)
	}
	rec := startRun(ctx, e, "sync", o.dryRun, d)
	prog := &resourcesync.Progress{}
	stop := startProgress(d, progressMode(o, d), prog)
	rep, err := agent.Sync(ctx, disc, e.agentDeps(d), agent.SyncOptions{
		Baseline:        baselineWorkerOptions(o, d, prog),
		Incremental:     incrementalWorkerOptions(o, d, prog),
		CapabilityList:  o.capabilityList,
		AllowHosts:      o.allowHosts,
		RebaselineOnGap: rebaselineOnGap,
		Checksum:        o.checksum,
		Via:             o.via,
	})
	stop()
	err = outcome(rep, err)
	printReport(d, o.json, "sync", rep, err)
	rec.finish(rep, err)
	return err
}
