package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
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
		Flags: append(syncFlags(),
			&cli.StringFlag{Name: "via", Value: agent.ViaAuto, Usage: "copy from the Resource List (`list`), the Resource Dump (dump), or auto: the dump for a set that holds nothing yet"},
			&cli.StringFlag{Name: "max-dump-size", Value: "10GiB", Usage: "refuse a dump package that downloads or inflates to more than `SIZE` (bytes, or with K, M, G, T: KiB...; KB, MB, GB, TB: powers of 1000)"},
		),
		Action: func(c *cli.Context) error {
			o, err := parseSyncFlags(c, "baseline")
			if err != nil {
				return err
			}
			bf, err := parseBaselineFlags(c)
			if err != nil {
				return err
			}
			return runBaseline(c.Context, o, bf, d)
		},
	}
}

// baselineFlags are the options of the baseline command alone.
type baselineFlags struct {
	via         string // agent.ViaList, ViaDump or ViaAuto
	maxDumpSize int64
}

func defaultBaselineFlags() baselineFlags {
	return baselineFlags{via: agent.ViaAuto, maxDumpSize: dumpzip.DefaultOptions().MaxSize}
}

func parseBaselineFlags(c *cli.Context) (baselineFlags, error) {
	bf := baselineFlags{via: c.String("via")}
	switch bf.via {
	case agent.ViaList, agent.ViaDump, agent.ViaAuto:
	default:
		return bf, usageErrorf("--via %q: want list, dump or auto", bf.via)
	}
	n, err := parseSize(c.String("max-dump-size"))
	if err != nil || n < 1 {
		return bf, usageErrorf("--max-dump-size %q: want a positive size such as 10GiB or 500MB", c.String("max-dump-size"))
	}
	bf.maxDumpSize = n
	return bf, nil
}

// parseSize reads a byte count with an optional unit: K, M, G, T and
// KiB... are powers of 1024, KB... powers of 1000, B is bytes.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("size %q: not a number of bytes", s)
	}
	mult := map[string]float64{"": 1, "b": 1,
		"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12}[strings.ToLower(unit)]
	if mult == 0 {
		return 0, fmt.Errorf("size %q: unknown unit %q", s, unit)
	}
	if f*mult >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return int64(f * mult), nil
}

// runBaseline is the baseline command.
func runBaseline(ctx context.Context, o syncOptions, bf baselineFlags, d *deps) error {
	e, err := openEnv(ctx, o, d)
	if err != nil {
		return err
	}
	defer e.close()
	return baselineWith(ctx, o, bf, d, e)
}

// baselineIn is the baseline command over an open env (tests open one over
// a fault-injecting mirror), with the baseline flags' defaults.
func baselineIn(ctx context.Context, o syncOptions, d *deps, e *env) error {
	return baselineWith(ctx, o, defaultBaselineFlags(), d, e)
}

// baselineWith is the baseline command over an open env.
func baselineWith(ctx context.Context, o syncOptions, bf baselineFlags, d *deps, e *env) error {
	disc, err := agent.Discover(ctx, e.client, o.url, agent.DefaultDiscoverOptions())
	if err != nil {
		return err
	}
	for _, w := range disc.Warnings {
		d.log.Warn().Msg(w)
	}
	rec := startRun(ctx, e, "baseline", o.dryRun, d)
	prog := &resourcesync.Progress{}
	stop := startProgress(d, progressMode(o, d), prog)
	rep, err := agent.Baseline(ctx, disc, e.agentDeps(d), agent.BaselineOptions{
		Worker:         baselineWorkerOptions(o, bf, d, prog),
		CapabilityList: o.capabilityList,
		AllowHosts:     o.allowHosts,
		Via:            bf.via,
	})
	stop()
	err = outcome(rep, err)
	printReport(d, o.json, "baseline", rep, err)
	rec.finish(rep, err)
	return err
}

func baselineWorkerOptions(o syncOptions, bf baselineFlags, d *deps, prog *resourcesync.Progress) baseline.Options {
	wo := baseline.DefaultOptions()
	wo.Dump.MaxSize = bf.maxDumpSize
	wo.Workers = o.workers
	wo.Checksum = o.checksum
	wo.Delete = o.delete
	wo.MaxDelete = o.maxDelete
	wo.DryRun = o.dryRun
	wo.Drain = d.drain
	wo.Progress = prog
	wo.Failpoint = d.failpoint
	if o.dryRun {
		wo.Plan = d.io.out
	}
	return wo
}

func progressMode(o syncOptions, d *deps) string {
	if o.json && o.progress == "auto" {
		return "never" // stdout is for the JSON document; keep stderr quiet too
	}
	return o.progress
}

// outcome turns a finished job into the command's error: the job's own
// error, else exit 3 when some resources failed.
func outcome(rep *agent.Report, err error) error {
	if err != nil || rep == nil {
		return err
	}
	if rep.Counts.Failed > 0 {
		return &exitError{code: exitPartial, silent: true, err: fmt.Errorf(
			"%d resources failed; they are recorded and retried on the next run", rep.Counts.Failed)}
	}
	return nil
}
