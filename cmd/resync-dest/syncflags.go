package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// syncOptions are the options common to the commands that write a mirror.
type syncOptions struct {
	url            string
	dest           string
	statePath      string
	maps           []mirror.Map
	capabilityList string
	workers        int
	delete         bool
	maxDelete      transfer.DeleteLimit
	dryRun         bool
	checksum       bool
	allowHosts     []string
	filter         resourcesync.Filter
	// filterArgs are the --exclude and --include flags again.
	filterArgs   []string
	json         bool
	progress     string
	via          resourcesync.Via
	maxDumpSize  int64
	mirrors      transfer.MirrorMode
	alternates   []string
	withMetadata bool
	// versionsDir is where --keep-versions keeps the versions replaced
	// or deleted; "" when they are not kept.
	versionsDir string
	// metricsTextfile is where the run's metrics go, for node_exporter's
	// textfile collector; "" for none.
	metricsTextfile string
	http            httpOptions
	scale           scaleOptions // --dest s3://...
}

// syncFlags are the flags of baseline, incremental and sync.
func syncFlags() []cli.Flag {
	return slices.Concat([]cli.Flag{
		&cli.StringFlag{Name: "dest", Usage: "mirror root `DIR` (required)", EnvVars: []string{"RESYNC_DEST_DEST"}},
		&cli.StringFlag{Name: "state", Usage: "the state: a SQLite `FILE` (default: DIR/.resync-dest/state.db) or postgres://...", EnvVars: []string{"RESYNC_DEST_STATE"}},
		&cli.StringSliceFlag{Name: "map", Usage: "store resources whose URI starts with URI_PREFIX under LOCAL_DIR (relative to --dest, or absolute at or below it; . is the mirror's root, and then the only map): `URI_PREFIX=LOCAL_DIR` (repeatable)"},
		&cli.StringFlag{Name: "capability-list", Usage: "only the set of resources of this Capability List `URL` (default: every set)", EnvVars: []string{"RESYNC_DEST_CAPABILITY_LIST"}},
		&cli.IntFlag{Name: "workers", Value: 8, Usage: "concurrent fetches", EnvVars: []string{"RESYNC_DEST_WORKERS"}},
		envBool(&cli.BoolFlag{Name: "delete", Usage: "apply deletions (without it they are reported, not done)", EnvVars: []string{"RESYNC_DEST_DELETE"}}),
		&cli.StringFlag{Name: "max-delete", Value: "10%", Usage: "refuse (exit 7) a run that would delete more than `N or P%` of a set", EnvVars: []string{"RESYNC_DEST_MAX_DELETE"}},
		&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "say what would be done; write nothing, state included"},
		&cli.BoolFlag{Name: "checksum", Aliases: []string{"c"}, Usage: "re-hash local files instead of trusting the state; re-fetch those that differ"},
		&cli.StringSliceFlag{Name: "allow-host", Usage: "also fetch resources from `HOST` (repeatable; default: the Source's own hosts only)", EnvVars: []string{"RESYNC_DEST_ALLOW_HOST"}},
		&cli.StringFlag{Name: "mirrors", Value: string(transfer.MirrorsPrefer), Usage: "`WHEN` to fetch from the mirrors a Source names for a resource (rel=\"duplicate\", verified against the resource's hash; their hosts must be allowed by --allow-host): prefer (before <loc>), fallback (once <loc> failed) or off", EnvVars: []string{"RESYNC_DEST_MIRRORS"}},
		&cli.StringSliceFlag{Name: "alternate", Usage: "also fetch each resource's alternate representation (rel=\"alternate\") of media `TYPE`, such as application/pdf, stored under its own URI and kept in step with the resource (repeatable)", EnvVars: []string{"RESYNC_DEST_ALTERNATE"}},
		envBool(&cli.BoolFlag{Name: "keep-versions", Usage: "keep each version an update replaces or a deletion removes, under DIR/.resync-dest/versions (or --versions-dir), named by its path in the mirror and its time", EnvVars: []string{"RESYNC_DEST_KEEP_VERSIONS"}}),
		&cli.StringFlag{Name: "versions-dir", Usage: "where --keep-versions keeps versions: `DIR` (default: DIR/.resync-dest/versions of the mirror)", EnvVars: []string{"RESYNC_DEST_VERSIONS_DIR"}},
		envBool(&cli.BoolFlag{Name: "with-metadata", Usage: "also fetch the metadata record each resource's rel=\"describedby\" link names, even when the Source does not list it", EnvVars: []string{"RESYNC_DEST_WITH_METADATA"}}),
		&cli.BoolFlag{Name: "json", Usage: "print the final summary as one JSON document on stdout, also when the run fails (an envelope with exit_code and error; watch: one line a sync)"},
		&cli.StringFlag{Name: "progress", Value: "auto", Usage: "auto, always or never: a live progress line on stderr", EnvVars: []string{"RESYNC_DEST_PROGRESS"}},
		&cli.StringFlag{Name: "via", Value: string(resourcesync.ViaAuto), Usage: "`HOW` to copy: list (from the Resource/Change Lists), dump (from the Resource/Change Dumps) or auto: a baseline into a set that holds nothing uses the Resource Dump, incremental the Change List, each when offered", EnvVars: []string{"RESYNC_DEST_VIA"}},
		&cli.StringFlag{Name: "metrics-textfile", Usage: "after the run, write the mirror's metrics to `FILE` (Prometheus text format, atomically), for node_exporter's textfile collector", EnvVars: []string{"RESYNC_DEST_METRICS_TEXTFILE"}},
		&cli.StringFlag{Name: "max-size", Value: "4GiB", Usage: "refuse a resource whose list gives no length once it passes `SIZE` (a listed length is the cap otherwise)", EnvVars: []string{"RESYNC_DEST_MAX_SIZE"}},
		&cli.StringFlag{Name: "max-dump-size", Value: "10GiB", Usage: "refuse a dump package that downloads or inflates to more than `SIZE` (bytes, or with K, M, G, T: KiB...; KB, MB, GB, TB: powers of 1000)", EnvVars: []string{"RESYNC_DEST_MAX_DUMP_SIZE"}},
	}, filterFlags(), httpFlags(), scaleFlags())
}

// parseMaps reads the --map values for the mirror at dest (absolute) and
// checks them together: one that is invalid, or a set that cannot be
// used at once (a map onto the root beside another, two maps with the same
// prefix or nested directories), is a usage error naming them.
func parseMaps(values []string, dest string) ([]mirror.Map, error) {
	var maps []mirror.Map
	for _, v := range values {
		mp, err := mirror.ParseMap(v, dest)
		if err != nil {
			return nil, usageErrorf("--map %s: %v", v, err)
		}
		maps = append(maps, mp)
	}
	if _, err := mirror.NewMapper(maps); err != nil {
		return nil, usageErrorf("--map: %v", err)
	}
	return maps, nil
}

// flagValues is where options are read from: the command line
// (*cli.Context), or one Source of a --config file under it
// (configValues).
type flagValues interface {
	String(name string) string
	StringSlice(name string) []string
	Int(name string) int
	Bool(name string) bool
	Duration(name string) time.Duration
}

// parseSyncFlags reads the options of a sync command given one URL on
// its command line.
func parseSyncFlags(c *cli.Context, verb string) (syncOptions, error) {
	if c.NArg() != 1 {
		return syncOptions{}, usageErrorf("%s takes one URL (the Source, or one of its documents), or --config FILE", verb)
	}
	return parseSyncOptions(c, c.Args().First(), verb)
}

// parseSyncOptions reads and checks the options of a sync command for the
// Source at url.
func parseSyncOptions(c flagValues, url, verb string) (syncOptions, error) {
	o := syncOptions{
		dest: c.String("dest"), statePath: c.String("state"), capabilityList: c.String("capability-list"),
		workers: c.Int("workers"), delete: c.Bool("delete"), dryRun: c.Bool("dry-run"), checksum: c.Bool("checksum"),
		allowHosts: c.StringSlice("allow-host"), json: c.Bool("json"), progress: c.String("progress"),
		metricsTextfile: c.String("metrics-textfile"), alternates: c.StringSlice("alternate"), withMetadata: c.Bool("with-metadata"),
	}
	o.url = url
	if o.dest == "" {
		return o, usageErrorf("%s needs --dest DIR", verb)
	}
	abs, err := absDest(o.dest)
	if err != nil {
		return o, usageErrorf("--dest %s: %v", o.dest, err)
	}
	o.dest, o.scale = abs, parseScaleFlags(c)
	if o.maps, err = parseMaps(c.StringSlice("map"), o.dest); err != nil {
		return o, err
	}
	if o.workers < 1 || o.workers > 256 {
		return o, usageErrorf("--workers %d: want 1 to 256", o.workers)
	}
	if o.maxDelete, err = transfer.ParseDeleteLimit(c.String("max-delete")); err != nil {
		return o, usageErrorf("--%v", err)
	}
	switch o.progress {
	case "":
		o.progress = "auto" // a command without --progress (watch)
	case "auto", "always", "never":
	default:
		return o, usageErrorf("--progress %q: want auto, always or never", o.progress)
	}
	for _, h := range o.allowHosts {
		if strings.ContainsAny(h, "/ ") || h == "" {
			return o, usageErrorf("--allow-host %q: want a host name, optionally with :port", h)
		}
	}
	if o.filter, err = parseFilter(c); err != nil {
		return o, err
	}
	o.filterArgs = filterArgs(c)
	for _, t := range o.alternates {
		if typ, sub, ok := strings.Cut(t, "/"); !ok || typ == "" || sub == "" || strings.ContainsAny(t, " ,") {
			return o, usageErrorf("--alternate %q: want a media type such as application/pdf", t)
		}
	}
	switch vd := c.String("versions-dir"); {
	case c.Bool("keep-versions") && strings.Contains(c.String("dest"), "://"):
		return o, usageErrorf("--keep-versions: a mirror in a bucket cannot keep versions")
	case vd != "" && !c.Bool("keep-versions"):
		return o, usageErrorf("--versions-dir %s: only with --keep-versions", vd)
	case vd != "":
		if o.versionsDir, err = filepath.Abs(vd); err != nil {
			return o, usageErrorf("--versions-dir %s: %v", vd, err)
		}
	case c.Bool("keep-versions"):
		o.versionsDir = filepath.Join(mirror.StateDirIn(o.dest), "versions")
	}
	if o.mirrors, err = transfer.ParseMirrorMode(c.String("mirrors")); err != nil {
		return o, usageErrorf("%v", err)
	}
	switch o.via = resourcesync.Via(c.String("via")); o.via {
	case resourcesync.ViaList, resourcesync.ViaDump, resourcesync.ViaAuto:
	default:
		return o, usageErrorf("--via %q: want list, dump or auto", o.via)
	}
	if o.maxDumpSize, err = parseSize(c.String("max-dump-size")); err != nil || o.maxDumpSize < 1 {
		return o, usageErrorf("--max-dump-size %q: want a positive size such as 10GiB or 500MB", c.String("max-dump-size"))
	}
	if o.http, err = parseHTTPFlags(c); err != nil {
		return o, err
	}
	if o.http.maxSize, err = parseSize(c.String("max-size")); err != nil || o.http.maxSize < 1 {
		return o, usageErrorf("--max-size %q: want a positive size such as 4GiB or 500MB", c.String("max-size"))
	}
	o.http.perHost = o.workers
	o.http.allowHosts = o.allowHosts
	return o, nil
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

// planOutput is where a dry run prints its plan: stdout, unless stdout is
// for the --json document.
func planOutput(o syncOptions, d *deps) io.Writer {
	if o.json {
		return d.io.err
	}
	return d.io.out
}
