package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/metrics"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/websub"
)

func watchCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:      "watch",
		Usage:     "stay in step: sync now, then on every WebSub notification and every --poll-interval, until stopped",
		ArgsUsage: "URL",
		Description: `A long-running agent. It syncs each mirror at once (as sync does), then again every
--poll-interval (jittered by a tenth either way) and soon after each notification on the
Source's notification channels: the framework-notification and change-notification
channels its Capability Lists advertise, with their WebSub hub (rel="hub"). It subscribes
to them with a random secret, at a callback under --callback-url that it serves on
--listen; it answers a hub's verification only for subscriptions it asked for, renews them
before their lease runs out, and ignores deliveries whose X-Hub-Signature does not match.
A notification is only a trigger: what changed is read from the Source. Notifications that
arrive while a mirror syncs make one more sync; a mirror never has two at once.

--listen also serves /metrics (Prometheus text format). With --config FILE (and no URL)
it keeps every Source of the file. The first SIGINT/SIGTERM lets the syncs running finish,
unsubscribes, and exits 130/143; a second exits at once.`,
		// No --dry-run (it would watch nothing) and no --progress (runs
		// overlap: each sync is logged instead).
		Flags: append(omitFlags(syncFlags(), "dry-run", "progress"), rebaselineOnGapFlag(), configFlag(),
			&cli.StringFlag{Name: "listen", Usage: "serve the WebSub callbacks and /metrics on `ADDR` (host:port)", EnvVars: []string{"RESYNC_DEST_LISTEN"}},
			&cli.StringFlag{Name: "callback-url", Usage: "the public `URL` hubs reach --listen at (default http://ADDR/websub/)", EnvVars: []string{"RESYNC_DEST_CALLBACK_URL"}},
			pollIntervalFlag(),
		),
		Action: func(c *cli.Context) error {
			targets, err := watchTargets(c)
			if err != nil {
				return err
			}
			wo := watchOptions{listen: c.String("listen"), callbackURL: c.String("callback-url")}
			if wo.listen == "" {
				return usageErrorf("watch needs --listen ADDR: the WebSub callbacks and /metrics are served there")
			}
			return runWatch(c.Context, targets, wo, d)
		},
	}
}

func pollIntervalFlag() cli.Flag {
	return &cli.DurationFlag{Name: "poll-interval", Value: time.Hour, Usage: "time between syncs without notifications (a safety net with them)", EnvVars: []string{"RESYNC_DEST_POLL_INTERVAL"}}
}

// watchTarget is one mirror watch keeps in step.
type watchTarget struct {
	o               syncOptions
	poll            time.Duration
	rebaselineOnGap bool
}

// watchOptions are the options of the watch process itself.
type watchOptions struct {
	listen      string
	callbackURL string
}

// watchTargets reads the mirrors to watch: one from the command line, or
// each Source of --config.
func watchTargets(c *cli.Context) ([]watchTarget, error) {
	var out []watchTarget
	add := func(v flagValues, o syncOptions) error {
		t := watchTarget{o: o, poll: v.Duration("poll-interval"), rebaselineOnGap: v.Bool("rebaseline-on-gap")}
		if t.poll < time.Minute {
			return usageErrorf("--poll-interval %s: want a minute or more", t.poll)
		}
		// Runs overlap in one process: a live progress line would be
		// garbled, and --dry-run would watch nothing.
		t.o.progress = "never"
		if t.o.dryRun {
			return usageErrorf("watch does not take --dry-run: run sync --dry-run to see what it would do")
		}
		out = append(out, t)
		return nil
	}
	if path := c.String("config"); path != "" {
		srcs, err := configSyncOptions(c, path, "watch")
		if err != nil {
			return nil, err
		}
		for i, s := range srcs {
			if err := add(s.values, s.opts); err != nil {
				return nil, usageErrorf("--config %s: source %d (%s): %v", path, i+1, s.url, err)
			}
		}
		return out, nil
	}
	o, err := parseSyncFlags(c, "watch")
	if err != nil {
		return nil, err
	}
	return out, add(c, o)
}

// runWatch is the watch command: the HTTP server for callbacks and
// metrics, the WebSub subscriber, and agent.Watch over the mirrors.
func runWatch(ctx context.Context, targets []watchTarget, wo watchOptions, d *deps) error {
	queued := make([]func(context.Context) (*agent.Discovery, error), len(targets))
	for i, t := range targets {
		qs, closeDB, ok, err := queuedSync(ctx, t.o, d)
		if err != nil {
			return err
		}
		if ok {
			defer closeDB()
			queued[i] = qs
		}
	}
	ln, err := net.Listen("tcp", wo.listen)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", wo.listen, err)
	}
	defer ln.Close()
	callback := wo.callbackURL
	if callback == "" {
		callback = "http://" + ln.Addr().String() + "/websub/"
	}
	cu, err := url.Parse(callback)
	if err != nil || (cu.Scheme != "http" && cu.Scheme != "https") || cu.Host == "" {
		return usageErrorf("--callback-url %q: want an http or https URL", callback)
	}
	if !strings.HasSuffix(cu.Path, "/") {
		cu.Path += "/"
	}
	if cu.Path == "/metrics/" {
		return usageErrorf("--callback-url %q: /metrics is taken by the metrics", callback)
	}
	so := websub.DefaultOptions()
	so.CallbackURL = cu.String()
	sub, err := websub.New(&http.Client{Timeout: so.RequestTimeout}, so, d.log.With().Str("component", "websub").Logger())
	if err != nil {
		return usageErrorf("--callback-url %q: %v", callback, err)
	}
	counters := &metrics.Watch{}
	collector := metrics.NewCollector(watchSnapshot(targets), counters, metrics.DefaultOptions())
	mux := http.NewServeMux()
	// The subscriber knows a callback by its last path segment, so a proxy
	// in front of --listen may strip or change the --callback-url prefix.
	mux.Handle("/", sub)
	mux.Handle("/metrics", metrics.Handler(collector))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() {
		err := srv.Serve(ln)
		if !errors.Is(err, http.ErrServerClosed) {
			d.log.Error().Err(err).Msg("the callbacks and /metrics are no longer served; notifications cannot arrive (polling goes on)")
		}
		served <- err
	}()
	d.log.Info().Str("listen", ln.Addr().String()).Str("callback_url", so.CallbackURL).Int("mirrors", len(targets)).Msg("watching")

	// Renewals stop at the first signal: one in flight would hold up the
	// unsubscriptions that follow.
	renewCtx, stopRenewing := context.WithCancel(ctx)
	defer context.AfterFunc(d.drain, stopRenewing)()
	renewed := make(chan error, 1)
	go func() { renewed <- sub.Run(renewCtx) }()

	notifier := newWebsubNotifier(sub)
	all := make([]syncOptions, len(targets))
	for i, t := range targets {
		all[i] = t.o
	}
	var stdout sync.Mutex // mirrors sync at once; their --json lines must not mix
	mirrors := make([]agent.Watched, len(targets))
	for i, t := range targets {
		mirrors[i] = agent.Watched{Name: t.o.dest, PollInterval: t.poll, Sync: func(ctx context.Context) (*agent.Discovery, error) {
			doc := newJSONDoc("watch")
			doc.dest = t.o.dest
			disc, err := syncOnce(ctx, t.o, t.rebaselineOnGap, d, func(rep *agent.Report, err error) {
				doc.result = rep
				watchReport(d, t.o, rep, err)
			})
			if t.o.json {
				stdout.Lock()
				_ = writeJSON(d.io.out, doc.envelope(err, exitCode(err, signalOf(d.drain))), true)
				stdout.Unlock()
			}
			writeMetricsTextfiles(d, all...) // a file shared by several mirrors holds them all
			return disc, err
		}}
		if queued[i] != nil { // a Source the workers keep: its syncs are their jobs
			mirrors[i].Sync = queued[i]
		}
	}
	werr := agent.Watch(ctx, d.drain, mirrors, notifier, agent.WatchOptions{
		Log: d.log,
		Events: agent.WatchEvents{
			Sync:          counters.Sync,
			Notification:  counters.Notification,
			Subscriptions: counters.Subscriptions,
		},
	})

	notifier.stop()
	stopRenewing()
	<-renewed
	// Unsubscribe what is left while the callbacks are still served (hubs
	// verify unsubscriptions too), then stop serving.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := sub.Close(sctx); err != nil {
		d.log.Warn().Err(err).Msg("unsubscribing at shutdown")
	}
	hctx, cancelShutdown := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancelShutdown()
	if err := srv.Shutdown(hctx); err != nil {
		d.log.Warn().Err(err).Msg("stopping the HTTP server")
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		werr = errors.Join(werr, fmt.Errorf("serve %s: %w", ln.Addr(), err))
	}
	if werr == nil && d.drain.Err() != nil {
		werr = fmt.Errorf("watch: %w", resourcesync.ErrInterrupted)
	}
	return werr
}

// watchReport tells how one sync of a watched mirror went, with a log
// line per set (a long-running process speaks through its log; with
// --json, the sync's envelope is a line on stdout besides).
func watchReport(d *deps, o syncOptions, rep *agent.Report, err error) {
	if o.json {
		return
	}
	log := d.log.With().Str("dest", o.dest).Logger()
	if rep != nil {
		for _, s := range rep.Sets {
			ev := log.Info()
			if s.Err != nil {
				ev = log.Warn().Str("error", s.Error)
			}
			var c resourcesync.Counts
			if s.Baseline != nil {
				c.Add(s.Baseline.Counts)
			}
			if s.Incremental != nil {
				c.Add(s.Incremental.Counts)
			}
			ev.Str("capability_list", s.CapabilityList).Int64("created", c.Created).Int64("updated", c.Updated).
				Int64("deleted", c.Deleted).Int64("unchanged", c.Unchanged).Int64("failed", c.Failed).Int64("bytes", c.Bytes).Msg("synced")
		}
	}
	if err != nil {
		log.Warn().Err(err).Int("exit_code", exitCode(err, signalOf(d.drain))).Msg("sync did not fully succeed")
	}
}
