package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/resync-dest/resync-dest/pgstate"
)

// migrateLock is the advisory lock key under which the queue's tables are
// migrated, so that workers starting together migrate once.
const migrateLock = 0x7269_7665_72 // "river"

// Migrate creates or upgrades River's tables in the state's schema, under
// a session advisory lock so that workers starting together migrate once
// (River's migrations each need a transaction of their own).
func Migrate(ctx context.Context, db *pgstate.DB) error {
	conn, err := db.Pool().Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate the job queue: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrateLock); err != nil {
		return fmt.Errorf("migrate the job queue: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrateLock) //nolint:errcheck // the session ends with the pool otherwise
	m, err := rivermigrate.New(riverpgxv5.New(db.Pool()), &rivermigrate.Config{Logger: quiet()})
	if err != nil {
		return fmt.Errorf("migrate the job queue: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate the job queue: %w", err)
	}
	return nil
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

func newClient(db *pgstate.DB, cfg *river.Config) (*river.Client[pgx.Tx], error) {
	cfg.Logger = quiet()
	cl, err := river.NewClient(riverpgxv5.New(db.Pool()), cfg)
	if err != nil {
		return nil, fmt.Errorf("job queue: %w", err)
	}
	return cl, nil
}

// Run works jobs until ctx ends (every job in flight is cancelled; its
// state keeps what it made durable) or drain ends (no job is started any
// more and those in flight finish: the first SIGTERM), or - with
// Options.UntilIdle - until no job is runnable. It returns nil then, and
// an error when the queue cannot be used.
func Run(ctx, drain context.Context, db *pgstate.DB, s Syncer, o Options) error {
	o = o.withDefaults()
	if err := Migrate(ctx, db); err != nil {
		return err
	}
	w := &jobs{db: db, s: s, o: o, drain: drain}
	workers := river.NewWorkers()
	river.AddWorker[SourceArgs](workers, &sourceWorker{jobs: w})
	river.AddWorker[SetArgs](workers, &setWorker{jobs: w})
	river.AddWorker[PartArgs](workers, &partWorker{jobs: w})
	cl, err := newClient(db, &river.Config{
		ID:      o.Owner,
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: o.Jobs}},
		Workers: workers,
		// A sync takes as long as it takes; a job stalled is noticed by its
		// lease, not by a timeout.
		JobTimeout: -1,
		// Jobs alive renew their mark (jobs.heartbeat); River's own rescue
		// is a backstop behind this package's (rescue).
		RescueStuckJobsAfter: 2 * o.Lease,
		FetchCooldown:        50 * time.Millisecond,
		FetchPollInterval:    min(time.Second, o.Check),
	})
	if err != nil {
		return err
	}
	w.cl = cl
	if err := cl.Start(ctx); err != nil {
		return fmt.Errorf("start the job queue: %w", err)
	}
	err = w.watch(ctx, drain)
	// Finish the jobs in flight (a cancelled ctx cancels them instead).
	stopCtx := context.WithoutCancel(ctx)
	if ctx.Err() != nil {
		if serr := cl.StopAndCancel(stopCtx); serr != nil && !errors.Is(serr, context.Canceled) {
			o.Log.Warn().Err(serr).Msg("stopping the job queue")
		}
		return err
	}
	stopped := make(chan error, 1)
	go func() { stopped <- cl.Stop(stopCtx) }()
	select {
	case serr := <-stopped:
		if serr != nil {
			o.Log.Warn().Err(serr).Msg("stopping the job queue")
		}
	case <-ctx.Done(): // a second signal: cancel what still runs
		cl.StopAndCancel(stopCtx)
		<-stopped
	}
	return err
}

// watch returns when ctx or drain ends, or (UntilIdle) when two checks in
// a row find no job runnable; meanwhile it makes the jobs of workers that
// stopped renewing their lease available again.
func (w *jobs) watch(ctx, drain context.Context) error {
	t := time.NewTicker(w.o.Check)
	defer t.Stop()
	idleOnce := false
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-drain.Done():
			return nil
		case <-t.C:
		}
		if err := w.rescue(ctx); err != nil && ctx.Err() == nil {
			w.o.Log.Warn().Err(err).Msg("cannot look for abandoned jobs")
		}
		if !w.o.UntilIdle {
			continue
		}
		idle, err := w.idle(ctx)
		if err != nil {
			w.o.Log.Warn().Err(err).Msg("cannot tell whether the queue is idle")
			idleOnce = false
			continue
		}
		if idle && idleOnce {
			return nil
		}
		idleOnce = idle
	}
}

// idle reports whether no job is runnable: none available or running, and
// no set or part job due within a minute (a set job waiting for its parts,
// or for a lease to run out, is work in progress; a Source's next poll is
// not).
func (w *jobs) idle(ctx context.Context) (bool, error) {
	var n int
	err := w.db.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job
		WHERE state IN ('available', 'pending', 'running')
			OR (state IN ('scheduled', 'retryable') AND kind IN ($1, $2) AND scheduled_at < now() + interval '1 minute')
			OR (state IN ('scheduled', 'retryable') AND scheduled_at <= now())`, KindSet, KindPart).Scan(&n)
	return n == 0, err
}

// rescue makes available again the running jobs whose worker has not
// renewed their mark for longer than the lease: it died or lost the
// database. Their lease has run out too, so the next worker takes them.
func (w *jobs) rescue(ctx context.Context) error {
	tag, err := w.db.Pool().Exec(ctx, `UPDATE river_job SET state = 'available', scheduled_at = now(),
			errors = array_append(errors, jsonb_build_object('at', now(), 'attempt', attempt,
				'error', 'its worker stopped renewing its lease', 'trace', ''))
		WHERE state = 'running' AND kind IN ($1, $2, $3) AND attempted_at < now() - make_interval(secs => $4)`,
		KindSource, KindSet, KindPart, w.o.Lease.Seconds())
	if err == nil && tag.RowsAffected() > 0 {
		w.o.Log.Info().Int64("jobs", tag.RowsAffected()).Msg("took over the jobs of a worker that stopped renewing their leases")
	}
	return err
}
