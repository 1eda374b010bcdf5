package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// auditOptions are the parsed flags of audit.
type auditOptions struct {
	env     syncOptions // the Source, the mirror and the state (only what audit reads)
	maps    []string    // --map as given, for the repair command
	workers int
	fast    bool
	json    bool
	html    string
}

func auditCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "compare the mirror with the Source's current state and report every difference",
		ArgsUsage: "URL",
		Description: `Builds each set's current state from its Resource List brought forward with the Change
Lists published since, and compares the mirror with it: a resource is missing (the Source
has it, the mirror does not), changed (its length or a hash differs from the Source's; the
report says which) or in sync; a file in the set's tree that the Source does not list is
extra. Local files are re-hashed with every algorithm the Source gives (--fast is a quick
check: it re-hashes only files whose size or modification time differs from the state's
record, and trusts the digests recorded for the rest). Resources without a hash are
compared by length and lastmod and counted as unverifiable.

Nothing is written: neither the mirror nor the state (the audit is not recorded as a run).
The report ends with the command that repairs every difference: baseline --checksum --delete.

Exits 0 when the mirror is in sync, 4 when differences were found, 5 when the Source could
not be reached, 1 on other errors (a set or a file that could not be compared).`,
		Flags: slices.Concat([]cli.Flag{
			&cli.StringFlag{Name: "dest", Usage: "mirror root `DIR` (required)", EnvVars: []string{"RESYNC_DEST_DEST"}},
			&cli.StringFlag{Name: "state", Usage: "the state: a SQLite `FILE` (default: DIR/.resync-dest/state.db) or postgres://...", EnvVars: []string{"RESYNC_DEST_STATE"}},
			&cli.StringSliceFlag{Name: "map", Usage: "resources whose URI starts with URI_PREFIX are under LOCAL_DIR: `URI_PREFIX=LOCAL_DIR` (repeatable; as given to the sync commands)"},
			&cli.StringFlag{Name: "capability-list", Usage: "only the set of resources of this Capability List `URL` (default: every set)"},
			&cli.IntFlag{Name: "workers", Value: audit.DefaultOptions().Workers, DefaultText: "one per CPU, at least 2", Usage: "how many files are hashed at once"},
			&cli.StringSliceFlag{Name: "allow-host", Usage: "also compare resources on `HOST` (repeatable; as given to the sync commands)"},
			&cli.StringSliceFlag{Name: "alternate", Usage: "also compare each resource's alternate of media `TYPE` (repeatable; as given to the sync commands)"},
			&cli.BoolFlag{Name: "with-metadata", Usage: "also compare each resource's metadata record (rel=\"describedby\"; as given to the sync commands)"},
			&cli.BoolFlag{Name: "fast", Usage: "quick check: re-hash only files whose size or mtime differs from the state's record"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as one JSON document on stdout, also when the audit fails (an envelope with exit_code and error)"},
			&cli.StringFlag{Name: "html", Usage: "also write the report as a self-contained HTML page to `FILE`"},
			&cli.StringFlag{Name: "progress", Value: "auto", Usage: "auto, always or never: a live progress bar on stderr", EnvVars: []string{"RESYNC_DEST_PROGRESS"}},
		}, filterFlags(), httpFlags(), scaleFlags()),
		Action: withJSON(d, func(c *cli.Context) error {
			o, err := parseAuditFlags(c, d)
			if err != nil {
				return err
			}
			return runAudit(c.Context, o, d)
		}),
	}
}

func parseAuditFlags(c *cli.Context, d *deps) (auditOptions, error) {
	o := auditOptions{
		env: syncOptions{
			dest: c.String("dest"), statePath: c.String("state"), capabilityList: c.String("capability-list"),
			allowHosts: c.StringSlice("allow-host"), json: c.Bool("json"), progress: c.String("progress"),
			alternates: c.StringSlice("alternate"), withMetadata: c.Bool("with-metadata"),
		},
		maps: c.StringSlice("map"), workers: c.Int("workers"), fast: c.Bool("fast"), json: c.Bool("json"),
		html: c.String("html"),
	}
	switch o.env.progress {
	case "auto", "always", "never":
	default:
		return o, usageErrorf("--progress %q: want auto, always or never", o.env.progress)
	}
	if c.NArg() != 1 {
		return o, usageErrorf("audit takes one URL (the Source, or one of its documents)")
	}
	o.env.url = c.Args().First()
	if o.env.dest == "" {
		return o, usageErrorf("audit needs --dest DIR")
	}
	abs, err := absDest(o.env.dest)
	if err != nil {
		return o, usageErrorf("--dest %s: %v", o.env.dest, err)
	}
	o.env.dest, o.env.scale = abs, parseScaleFlags(c)
	d.jsonDest(abs)
	if o.env.maps, err = parseMaps(o.maps, o.env.dest); err != nil {
		return o, err
	}
	if o.workers < 1 || o.workers > 256 {
		return o, usageErrorf("--workers %d: want 1 to 256", o.workers)
	}
	for _, h := range o.env.allowHosts {
		if strings.ContainsAny(h, "/ ") || h == "" {
			return o, usageErrorf("--allow-host %q: want a host name, optionally with :port", h)
		}
	}
	if o.env.filter, err = parseFilter(c); err != nil {
		return o, err
	}
	o.env.filterArgs = filterArgs(c)
	if o.env.http, err = parseHTTPFlags(c); err != nil {
		return o, err
	}
	o.env.http.allowHosts = o.env.allowHosts
	// The page is written after the audit, which may take hours: a
	// directory that is not there is said now.
	if o.html != "" {
		dir := filepath.Dir(o.html)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return o, usageErrorf("--html %s: the directory %s does not exist", o.html, dir)
		}
	}
	return o, nil
}

// runAudit is the audit command.
func runAudit(ctx context.Context, o auditOptions, d *deps) error {
	// An audit changes nothing: the first signal may stop it at once.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(d.drain, cancel)()
	started := time.Now()
	e, err := openReadOnlyEnv(ctx, o.env, d)
	if err != nil {
		return err
	}
	defer e.close()
	warnOlderNames(ctx, e, d)
	disc, err := discoverSource(ctx, e, o.env)
	if err != nil {
		return err
	}
	for _, w := range disc.Warnings {
		d.log.Warn().Msg(w)
	}
	ad := e.agentDeps(d)
	ad.NewAuditListing = func() (audit.Listing, error) { return state.NewListing(e.tmpDir) }
	wo := audit.DefaultOptions()
	wo.Workers, wo.Fast = o.workers, o.fast
	wo.Filter = o.env.filter
	wo.Alternates, wo.WithMetadata = o.env.alternates, o.env.withMetadata
	wo.Limits = o.env.http.limits()
	wo.Progress = &resourcesync.Progress{}
	stop := startProgress(d, progressMode(o.env, d), wo.Progress, auditing)
	rep, err := agent.Audit(ctx, disc, ad, agent.AuditOptions{
		Worker: wo, CapabilityList: o.env.capabilityList, AllowHosts: o.env.allowHosts,
	})
	stop()
	if rep == nil || ctx.Err() != nil {
		return err // interrupted: a report of half the sets would mislead
	}
	if werr := writeAuditReport(d, o, rep, started); werr != nil {
		return errors.Join(err, werr)
	}
	return auditOutcome(rep, err)
}

// writeAuditReport prints the report (JSON or text) and writes the HTML
// page when asked.
func writeAuditReport(d *deps, o auditOptions, rep *audit.Report, started time.Time) error {
	repair := repairCommand(o, rep)
	if o.html != "" {
		var page bytes.Buffer
		p := audit.Page{Repair: repair, Mirror: o.env.dest, Created: started, Tool: "resync-dest " + build().Version}
		if err := rep.WriteHTML(&page, p); err != nil {
			return err
		}
		if err := os.WriteFile(o.html, page.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write the HTML report: %w", err)
		}
	}
	switch {
	case o.json:
		d.jsonResult(rep)
		return nil
	case d.quiet && rep.InSync:
		return nil // --quiet: say nothing when there is nothing to say
	}
	return rep.WriteText(d.io.out, repair)
}

// auditOutcome is the command's error for a finished audit: the job's own
// error, else exit 1 when something could not be compared, else exit 4
// when differences were found. The report has said it all already.
func auditOutcome(rep *audit.Report, err error) error {
	c := rep.Counts
	switch {
	case err != nil:
		return err
	case c.Errors > 0:
		return &exitError{code: exitFatal, silent: true, err: fmt.Errorf("%s: the audit is incomplete", plural(c.Errors, "error", "errors"))}
	case c.Differences() > 0:
		return &exitError{code: exitDifferences, silent: true, err: fmt.Errorf("%s", plural(c.Differences(), "difference", "differences"))}
	}
	return nil
}

// repairCommand is the baseline command line that repairs what the audit
// found, with the options that say where the mirror is and what it holds.
// Header values may be secrets: they are not repeated.
func repairCommand(o auditOptions, rep *audit.Report) string {
	args := []string{"resync-dest", "baseline", "--checksum", "--delete", "--dest", o.env.dest}
	if o.env.statePath != "" {
		args = append(args, "--state", o.env.statePath)
	}
	for _, m := range o.maps {
		args = append(args, "--map", m)
	}
	if o.env.capabilityList != "" {
		args = append(args, "--capability-list", o.env.capabilityList)
	}
	for _, h := range o.env.allowHosts {
		args = append(args, "--allow-host", h)
	}
	args = append(args, o.env.filterArgs...)
	if o.env.http.caCert != "" {
		args = append(args, "--ca-cert", o.env.http.caCert)
	}
	if o.env.http.insecure {
		args = append(args, "--insecure-skip-tls-verify")
	}
	if n := rep.Counts.Extra; n > 0 {
		// Exactly the deletions the audit found: the default guard (10% of
		// a set) could refuse them, and a larger number would not be
		// checked against anything.
		args = append(args, "--max-delete", strconv.FormatInt(n, 10))
	}
	args = append(args, o.env.url)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	cmd := strings.Join(args, " ")
	if len(o.env.http.headers) > 0 {
		cmd += "   # plus your --header options"
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
