package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/worker"
)

// workerOptions are the parsed flags of worker.
type workerOptions struct {
	state  string
	config string
	run    worker.Options
}

func workerCommand(d *deps) *cli.Command {
	def := worker.DefaultOptions()
	return &cli.Command{
		Name:  "worker",
		Usage: "run sync jobs from a PostgreSQL state, one of several workers sharing it (scale-out)",
		Description: `Works the jobs of the Sources recorded in the PostgreSQL state given by --state: one
periodic job per Source discovers its sets, one job per set syncs it (a baseline while it has
none, else its changes, by one owner at a time), and a baseline by a Resource List Index is
split into one job per Resource List (by a Resource Dump, one per package). Start as many workers as you like, on as many machines:
they share the jobs through the database (River queues), each job held by a lease that another
worker takes over when its holder dies or loses the database, whose late writes are then
refused.

--config FILE records the Sources it lists (the YAML of sync --config; dest may be
s3://BUCKET/PREFIX; the state is this worker's) and queues their jobs; any worker of the
database then runs them. With --until-idle the worker exits (0) once no job is runnable; else it
runs until stopped: the first SIGTERM or SIGINT finishes the jobs in flight, a second cancels
them (their state keeps what they made durable).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "state", Usage: "the PostgreSQL state the workers share: `postgres://...` (required)", EnvVars: []string{"RESYNC_DEST_STATE"}},
			configFlag(),
			pollIntervalFlag(),
			&cli.BoolFlag{Name: "until-idle", Usage: "exit (0) once no job is runnable"},
			&cli.DurationFlag{Name: "lease", Value: def.Lease, Usage: "how long a job is owned without renewal: a dead worker's jobs are taken over after it", EnvVars: []string{"RESYNC_DEST_LEASE"}},
			&cli.IntFlag{Name: "jobs", Value: def.Jobs, Usage: "how many jobs this worker runs at once", EnvVars: []string{"RESYNC_DEST_JOBS"}},
			&cli.IntFlag{Name: "host-budget", Value: def.HostBudget, Usage: "how many jobs may fetch from one host at once, over all workers", EnvVars: []string{"RESYNC_DEST_HOST_BUDGET"}},
		},
		Action: func(c *cli.Context) error {
			o, err := parseWorkerFlags(c, d)
			if err != nil {
				return err
			}
			return runWorker(c, o, d)
		},
	}
}

func parseWorkerFlags(c *cli.Context, d *deps) (workerOptions, error) {
	o := workerOptions{state: c.String("state"), config: c.String("config"), run: worker.DefaultOptions()}
	if c.NArg() != 0 {
		return o, usageErrorf("worker takes no URL: the Sources are those recorded in the state (--config FILE records more)")
	}
	if !pgstate.IsURL(o.state) {
		return o, usageErrorf("worker needs --state postgres://... (the database the workers share)")
	}
	o.run.UntilIdle = c.Bool("until-idle")
	o.run.Lease, o.run.Jobs, o.run.HostBudget = c.Duration("lease"), c.Int("jobs"), c.Int("host-budget")
	o.run.PollInterval = c.Duration("poll-interval")
	o.run.Check = min(time.Second, o.run.Lease/4)
	o.run.Log = d.log
	switch {
	case o.run.Lease < 100*time.Millisecond:
		return o, usageErrorf("--lease %s: want at least 100ms", o.run.Lease)
	case o.run.Jobs < 1 || o.run.Jobs > 64:
		return o, usageErrorf("--jobs %d: want 1 to 64", o.run.Jobs)
	case o.run.HostBudget < 1:
		return o, usageErrorf("--host-budget %d: want at least 1", o.run.HostBudget)
	case o.run.PollInterval <= 0:
		return o, usageErrorf("--poll-interval %s: want a positive duration", o.run.PollInterval)
	}
	return o, nil
}

// storedSource is a Source as the worker records it in the state: the
// options of its entry in the config file and the file's defaults.
type storedSource struct {
	URL      string         `json:"url"`
	Options  map[string]any `json:"options"`
	Defaults map[string]any `json:"defaults"`
}

func runWorker(c *cli.Context, o workerOptions, d *deps) error {
	ctx := c.Context
	po := pgstate.DefaultOptions()
	po.URL = o.state
	po.MaxConns = int32(3*o.run.Jobs + 8) // the jobs' syncs and host slots, and River's own
	db, err := pgstate.Open(ctx, po)
	if err != nil {
		return err
	}
	defer db.Close()
	if o.config != "" {
		srcs, err := registeredSources(o.config)
		if err != nil {
			return err
		}
		if err := worker.Migrate(ctx, db); err != nil {
			return err
		}
		if err := worker.Register(ctx, db, srcs); err != nil {
			return err
		}
		d.log.Info().Int("sources", len(srcs)).Str("config", o.config).Msg("sources registered")
	}
	ws := &workerSyncer{d: d, state: o.state}
	if err := worker.Run(ctx, d.drain, db, ws, o.run); err != nil {
		return err
	}
	if d.drain.Err() != nil {
		return &exitError{code: exitCode(fmt.Errorf("worker stopped: %w", context.Canceled), signalOf(d.drain)), silent: true, err: fmt.Errorf("worker stopped")}
	}
	return nil
}

// registeredSources reads the config file's Sources as the worker records
// them; each is checked as sync --config would check it.
func registeredSources(path string) ([]pgstate.Source, error) {
	entries, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	var out []pgstate.Source
	for i, e := range entries {
		if _, ok := e.opts["state"]; ok {
			return nil, usageErrorf("--config %s: source %d (%s) names a state: a worker's Sources keep theirs in the worker's --state", path, i+1, e.url)
		}
		ss := storedSource{URL: e.url, Options: e.opts, Defaults: e.defaults}
		if _, err := ss.syncOptions(); err != nil {
			return nil, usageErrorf("--config %s: source %d (%s): %v", path, i+1, e.url, err)
		}
		b, err := json.Marshal(ss)
		if err != nil {
			return nil, err
		}
		out = append(out, pgstate.Source{Key: e.url, Options: b})
	}
	return out, nil
}

// syncOptions parses the recorded options as sync --config would.
func (s storedSource) syncOptions() (syncOptions, error) {
	return parseSyncOptions(storedValues{layers: []map[string]any{s.Options, s.Defaults}, defaults: flagDefaults(configFlags())}, s.URL, "worker")
}

// storedValues reads a recorded Source's options: its entry, then the
// file's defaults, then the flags' defaults. JSON made the numbers
// float64 and the lists []any.
type storedValues struct {
	layers   []map[string]any
	defaults map[string]any
}

func (v storedValues) lookup(name string) any {
	for _, l := range v.layers {
		if x, ok := l[name]; ok {
			return x
		}
	}
	return v.defaults[name]
}

func (v storedValues) String(name string) string {
	switch x := v.lookup(name).(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return fmt.Sprint(x)
	default:
		return fmt.Sprint(x)
	}
}

func (v storedValues) StringSlice(name string) []string {
	switch x := v.lookup(name).(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, s := range x {
			out = append(out, fmt.Sprint(s))
		}
		return out
	case string:
		return []string{x}
	}
	return nil
}

func (v storedValues) Int(name string) int {
	switch x := v.lookup(name).(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

func (v storedValues) Bool(name string) bool {
	b, _ := v.lookup(name).(bool)
	return b
}

func (v storedValues) Duration(name string) time.Duration {
	switch x := v.lookup(name).(type) {
	case time.Duration:
		return x
	case string:
		d, _ := time.ParseDuration(x)
		return d
	}
	return 0
}

// flagDefaults are the default values of flags, by long name.
func flagDefaults(flags []cli.Flag) map[string]any {
	out := map[string]any{}
	for _, f := range flags {
		name := f.Names()[0]
		switch f := f.(type) {
		case *cli.StringFlag:
			out[name] = f.Value
		case *cli.IntFlag:
			out[name] = f.Value
		case *cli.BoolFlag:
			out[name] = f.Value
		case *cli.DurationFlag:
			out[name] = f.Value
		case *cli.StringSliceFlag:
			if f.Value != nil {
				out[name] = f.Value.Value()
			}
		}
	}
	return out
}
