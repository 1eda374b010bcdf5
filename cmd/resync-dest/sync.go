package main

import (
	"context"
	"errors"
	"fmt"

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
local damage, which the Source's changes cannot reveal.

With --config FILE (and no URL) it keeps every Source the YAML file lists, one after the
other, each into its own mirror; the exit status is the gravest of theirs.`,
		Flags: append(syncFlags(), rebaselineOnGapFlag(), configFlag()),
		Action: withJSON(d, func(c *cli.Context) error {
			if path := c.String("config"); path != "" {
				return syncConfig(c, path, d)
			}
			o, err := parseSyncFlags(c, "sync")
			if err != nil {
				return err
			}
			d.jsonDest(o.dest)
			return runSync(c.Context, o, c.Bool("rebaseline-on-gap"), d)
		}),
	}
}

func configFlag() cli.Flag {
	return &cli.StringFlag{Name: "config", Usage: "keep every Source listed in this YAML `FILE` (see the README), instead of one URL", EnvVars: []string{"RESYNC_DEST_CONFIG"}}
}

// syncConfig is sync --config: each Source of the file in turn.
func syncConfig(c *cli.Context, path string, d *deps) error {
	srcs, err := configSyncOptions(c, path, "sync")
	if err != nil {
		return err
	}
	var errs []error
	var done []syncOptions
	defer func() { writeMetricsTextfiles(d, done...) }()
	// With --json, each Source's envelope is one of the sources of the
	// command's own.
	docs := configResult{Config: path, Sources: []*envelope{}}
	d.jsonResult(&docs)
	for i, s := range srcs {
		if d.drain.Err() != nil {
			break // stopped by a signal: the next Sources wait for the next run
		}
		done = append(done, s.opts)
		doc, err := d.eachJSON("sync", s.opts.dest, func() error {
			return syncAndReport(c.Context, s.opts, s.values.Bool("rebaseline-on-gap"), d)
		})
		if doc != nil {
			docs.Sources = append(docs.Sources, doc)
		}
		if err != nil {
			if !isSilent(err) {
				d.sayError(fmt.Errorf("%s (source %d of %s): %w", s.opts.url, i+1, path, err), map[string]any{"exit_code": exitCode(err, signalOf(d.drain)), "dest": s.opts.dest})
			}
			errs = append(errs, err)
		}
	}
	if len(done) < len(srcs) {
		errs = append(errs, fmt.Errorf("sync --config %s: %d of %d Sources not synced: %w", path, len(srcs)-len(done), len(srcs), resourcesync.ErrInterrupted))
	}
	if len(errs) == 0 {
		return nil
	}
	return &exitError{code: gravest(errs, signalOf(d.drain)), silent: len(done) == len(srcs), err: errors.Join(errs...)}
}

// configResult is the result of sync --config --json: the file and the
// envelope of each Source synced, in the file's order.
type configResult struct {
	Config  string      `json:"config"`
	Sources []*envelope `json:"sources"`
}

// configSync is one Source of a --config file with its parsed options.
type configSync struct {
	configSource
	opts syncOptions
}

// configSyncOptions loads the config file and parses each Source's
// options; a Source whose options are wrong is a usage error naming it.
func configSyncOptions(c *cli.Context, path, verb string) ([]configSync, error) {
	if c.NArg() != 0 {
		return nil, usageErrorf("%s --config %s lists the Sources: give no URL", verb, path)
	}
	srcs, err := loadConfig(c, path)
	if err != nil {
		return nil, err
	}
	out := make([]configSync, len(srcs))
	for i, s := range srcs {
		o, err := parseSyncOptions(s.values, s.url, verb)
		if err != nil {
			return nil, usageErrorf("--config %s: source %d (%s): %v", path, i+1, s.url, err)
		}
		out[i] = configSync{configSource: s, opts: o}
	}
	return out, nil
}

// runSync is the sync command.
func runSync(ctx context.Context, o syncOptions, rebaselineOnGap bool, d *deps) error {
	err := syncAndReport(ctx, o, rebaselineOnGap, d)
	writeMetricsTextfiles(d, o)
	return err
}

// syncAndReport is one sync of one mirror with its summary printed.
func syncAndReport(ctx context.Context, o syncOptions, rebaselineOnGap bool, d *deps) error {
	_, err := syncOnce(ctx, o, rebaselineOnGap, d, func(rep *agent.Report, err error) {
		printReport(d, o.json, "sync", rep, err)
	})
	return err
}

// syncOnce is one sync of one mirror: it returns what discovery found (nil
// if nothing) and the run's error, and hands the report to report before
// the run is recorded as finished. watch runs it again and again.
func syncOnce(ctx context.Context, o syncOptions, rebaselineOnGap bool, d *deps, report func(*agent.Report, error)) (*agent.Discovery, error) {
	e, err := openEnv(ctx, o, d)
	if err != nil {
		return nil, err
	}
	defer e.close()
	return runJob(ctx, e, o, d, "sync", func(disc *agent.Discovery, rec *runRecord, prog *resourcesync.Progress) (*agent.Report, error) {
		return agent.Sync(ctx, disc, e.agentDeps(d), agent.SyncOptions{
			Baseline:        baselineWorkerOptions(o, d, prog, rec.scope),
			Incremental:     incrementalWorkerOptions(o, d, prog, rec.scope),
			CapabilityList:  o.capabilityList,
			AllowHosts:      o.allowHosts,
			RebaselineOnGap: rebaselineOnGap,
			Checksum:        o.checksum,
			Via:             o.via,
		})
	}, report)
}
