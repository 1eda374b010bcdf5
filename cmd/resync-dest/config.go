package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/s3mirror"
)

// A --config file lists the Sources one `sync` (from cron) or one `watch`
// keeps in step, each into its own mirror:
//
//	defaults:              # options for every Source (optional)
//	  workers: 16
//	  poll-interval: 30m
//	sources:
//	  - url: https://example.org/
//	    dest: /srv/mirror/example
//	    delete: true
//	    max-delete: 5%
//	    map: ["https://example.org/data/=data"]
//	    header: ["Authorization: Bearer ..."]
//
// An option's key is its flag's long name, its value what the flag takes
// (a list for a repeatable flag). What the command line says wins - a flag,
// or its RESYNC_DEST_ environment variable - then the Source's entry, then
// the defaults, then the flag's default. Every Source names its own url
// and dest. Relative paths (dest, state, ca-cert, metrics-textfile) are
// relative to the file's directory, so that the file means the same from
// any directory.

// configSource is one Source of a config file: its URL and where its
// options are read.
type configSource struct {
	url    string
	values flagValues
}

// configFile is the file's shape; unknown top-level keys are refused.
type configFile struct {
	Defaults yaml.Node   `yaml:"defaults"`
	Sources  []yaml.Node `yaml:"sources"`
}

// configFlags are the options a config file may set, for sync and watch
// alike (one file serves both; sync does not poll, so it ignores
// poll-interval): a Source's own options, not the process's (logging,
// --listen, --callback-url) and not another file.
func configFlags() []cli.Flag {
	return append(syncFlags(), rebaselineOnGapFlag(), pollIntervalFlag())
}

// loadConfig reads the config file at path for the command of c. A file
// that cannot be read, is not YAML of the shape above, sets an option a
// Source cannot have or a value of the wrong type, or lists a Source
// without url or dest or two Sources into one mirror, is a usage error
// naming the file and the line.
func loadConfig(c *cli.Context, path string) ([]configSource, error) {
	if c.IsSet("dest") || c.IsSet("state") {
		return nil, usageErrorf("--config %s: each Source of the file names its own dest (and state); do not give --dest or --state (or RESYNC_DEST_DEST, RESYNC_DEST_STATE) with --config", path)
	}
	entries, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	out := make([]configSource, len(entries))
	for i, e := range entries {
		out[i] = configSource{url: e.url, values: configValues{c: c, layers: []map[string]any{e.opts, e.defaults}}}
	}
	return out, nil
}

// configEntry is one Source of a config file: its URL, its own options and
// the file's defaults (relative paths resolved, values checked).
type configEntry struct {
	url            string
	opts, defaults map[string]any
}

// readConfig reads and checks the config file at path (see loadConfig).
func readConfig(path string) ([]configEntry, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErrorf("--config: %v", err)
	}
	var f configFile
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, usageErrorf("--config %s: %v", path, err)
	}
	if len(f.Sources) == 0 {
		return nil, usageErrorf("--config %s: no sources listed", path)
	}
	kinds := flagKinds(configFlags())
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, usageErrorf("--config %s: %v", path, err)
	}
	dir := filepath.Dir(abs)
	defaults, err := configOptions(path, "defaults", &f.Defaults, kinds, false)
	if err != nil {
		return nil, err
	}
	resolvePaths(dir, defaults)
	var out []configEntry
	dests := map[string]int{}
	for i := range f.Sources {
		n := &f.Sources[i]
		what := fmt.Sprintf("source %d (line %d)", i+1, n.Line)
		opts, err := configOptions(path, what, n, kinds, true)
		if err != nil {
			return nil, err
		}
		resolvePaths(dir, opts)
		url, _ := opts["url"].(string)
		dest, _ := opts["dest"].(string)
		if url == "" || dest == "" {
			return nil, usageErrorf("--config %s: %s needs a url and a dest", path, what)
		}
		abs, err := absDest(dest)
		if err != nil {
			return nil, usageErrorf("--config %s: %s: dest %s: %v", path, what, dest, err)
		}
		if j, dup := dests[abs]; dup {
			return nil, usageErrorf("--config %s: sources %d and %d both go into %s; each Source needs its own mirror", path, j, i+1, abs)
		}
		dests[abs] = i + 1
		out = append(out, configEntry{url: url, opts: opts, defaults: defaults})
	}
	return out, nil
}

// resolvePaths makes the relative paths among opts relative to dir, the
// config file's directory.
func resolvePaths(dir string, opts map[string]any) {
	for _, k := range []string{"dest", "state", "ca-cert", "metrics-textfile"} {
		if p, ok := opts[k].(string); ok && p != "" && !filepath.IsAbs(p) && !s3mirror.IsURL(p) && !pgstate.IsURL(p) {
			opts[k] = filepath.Join(dir, p)
		}
	}
}

// flagKinds maps the long name of each flag a config file may set to the
// kind of value it takes.
func flagKinds(flags []cli.Flag) map[string]string {
	kinds := map[string]string{}
	for _, f := range flags {
		var k string
		switch f.(type) {
		case *cli.StringFlag:
			k = "string"
		case *cli.BoolFlag, boolFlag:
			k = "bool"
		case *cli.IntFlag:
			k = "int"
		case *cli.DurationFlag:
			k = "duration"
		case *cli.StringSliceFlag:
			k = "list"
		default:
			continue
		}
		kinds[f.Names()[0]] = k
	}
	return kinds
}

// configOptions decodes one mapping of options and checks each against
// the kind its flag takes; url is allowed in a Source's entry.
func configOptions(path, what string, n *yaml.Node, kinds map[string]string, isSource bool) (map[string]any, error) {
	opts := map[string]any{}
	if n.Kind == 0 { // absent
		return opts, nil
	}
	if err := n.Decode(&opts); err != nil {
		return nil, usageErrorf("--config %s: %s: want a mapping of options: %v", path, what, err)
	}
	for k, v := range opts {
		kind, ok := kinds[k]
		if k == "url" && isSource {
			kind, ok = "string", true
		}
		if !ok {
			return nil, usageErrorf("--config %s: %s: unknown option %q (keys are the command's long flag names)", path, what, k)
		}
		if err := checkKind(kind, v); err != nil {
			return nil, usageErrorf("--config %s: %s: %s: %v", path, what, k, err)
		}
		if kind == "list" {
			opts[k] = asList(v)
		}
	}
	return opts, nil
}

// checkKind reports whether a YAML value suits a flag of the given kind.
func checkKind(kind string, v any) error {
	switch kind {
	case "string":
		switch v.(type) {
		case string, int, float64:
			return nil
		}
		return fmt.Errorf("want a string, not %v", v)
	case "bool":
		if _, ok := v.(bool); ok {
			return nil
		}
		return fmt.Errorf("want true or false, not %v", v)
	case "int":
		if _, ok := v.(int); ok {
			return nil
		}
		return fmt.Errorf("want a whole number, not %v", v)
	case "duration":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a duration such as 30m or 1h, not %v", v)
		}
		if _, err := time.ParseDuration(s); err != nil {
			return fmt.Errorf("want a duration such as 30m or 1h: %v", err)
		}
		return nil
	case "list":
		if _, ok := v.(string); ok {
			return nil
		}
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want a list of strings, not %v", v)
		}
		for _, x := range l {
			if _, ok := x.(string); !ok {
				return fmt.Errorf("want a list of strings, not %v", x)
			}
		}
		return nil
	}
	return fmt.Errorf("unknown kind %s", kind)
}

// asList makes a list value (one string, or a list of them) a []string.
func asList(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// configValues reads one Source's options: the command line where it set
// them, else the Source's entry, then the file's defaults, then the flags'
// defaults. The values were checked by loadConfig.
type configValues struct {
	c      *cli.Context
	layers []map[string]any // the Source's entry, then the defaults
}

func (v configValues) lookup(name string) (any, bool) {
	if v.c.IsSet(name) {
		return nil, false
	}
	for _, l := range v.layers {
		if x, ok := l[name]; ok {
			return x, true
		}
	}
	return nil, false
}

func (v configValues) String(name string) string {
	if x, ok := v.lookup(name); ok {
		return strings.TrimSpace(fmt.Sprint(x))
	}
	return v.c.String(name)
}

func (v configValues) StringSlice(name string) []string {
	if x, ok := v.lookup(name); ok {
		return x.([]string)
	}
	return v.c.StringSlice(name)
}

func (v configValues) Int(name string) int {
	if x, ok := v.lookup(name); ok {
		return x.(int)
	}
	return v.c.Int(name)
}

func (v configValues) Bool(name string) bool {
	if x, ok := v.lookup(name); ok {
		return x.(bool)
	}
	return v.c.Bool(name)
}

func (v configValues) Duration(name string) time.Duration {
	if x, ok := v.lookup(name); ok {
		d, _ := time.ParseDuration(x.(string))
		return d
	}
	return v.c.Duration(name)
}
