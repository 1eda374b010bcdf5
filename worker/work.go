package worker

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/resync-dest/resync-dest/pgstate"
)

// jobs is what the three workers share.
type jobs struct {
	db    *pgstate.DB
	s     Syncer
	o     Options
	cl    *river.Client[pgx.Tx]
	drain context.Context // Run's: done at the first signal
}

// The workers take River's defaults (the client's retry policy, no
// middleware) but never time out: a sync takes as long as it takes.
type (
	sourceWorker struct {
		river.WorkerDefaults[SourceArgs]
		*jobs
	}
	setWorker struct {
		river.WorkerDefaults[SetArgs]
		*jobs
	}
	partWorker struct {
		river.WorkerDefaults[PartArgs]
		*jobs
	}
)

func (sourceWorker) Timeout(*river.Job[SourceArgs]) time.Duration { return -1 }
func (setWorker) Timeout(*river.Job[SetArgs]) time.Duration       { return -1 }
func (partWorker) Timeout(*river.Job[PartArgs]) time.Duration     { return -1 }

// retryDelay is how soon a Source whose discovery failed is tried again.
const retryDelay = time.Minute

// Work discovers the Source's sets, inserts a job for each and sleeps
// until the next poll.
func (w sourceWorker) Work(ctx context.Context, job *river.Job[SourceArgs]) error {
	src, ok, err := w.db.Source(ctx, job.Args.Source)
	if err != nil {
		return err
	}
	if !ok {
		return river.JobCancel(fmt.Errorf("source %s is not registered", job.Args.Source))
	}
	stop := w.heartbeat(ctx, job.ID, nil, time.Now(), nil)
	defer stop()
	log := w.o.Log.With().Str("source", src.Key).Logger()
	cls, err := w.s.Sets(ctx, src)
	if err != nil {
		log.Warn().Err(err).Msg("discovery failed; trying again later")
		return river.JobSnooze(min(w.o.PollInterval, retryDelay))
	}
	for _, cl := range cls {
		if _, err := w.cl.Insert(ctx, SetArgs{Source: src.Key, CapabilityList: cl}, unique); err != nil {
			return fmt.Errorf("insert the job of set %s: %w", cl, err)
		}
	}
	log.Info().Int("sets", len(cls)).Dur("next", w.o.PollInterval).Msg("sets queued")
	return river.JobSnooze(w.o.PollInterval)
}

// Work syncs one set: it splits a baseline by a Resource List Index into
// part jobs and waits for them, then finishes it; otherwise it syncs the
// set itself.
func (w setWorker) Work(ctx context.Context, job *river.Job[SetArgs]) error {
	a := job.Args
	log := w.o.Log.With().Str("capability", a.CapabilityList).Logger()
	if n, err := w.partsLeft(ctx, a.CapabilityList); err != nil {
		return err
	} else if n > 0 {
		return river.JobSnooze(w.waitParts())
	}
	return w.owned(ctx, job.ID, a.Source, "set:"+a.CapabilityList, func(ctx context.Context, src pgstate.Source, st *pgstate.DB) error {
		split, err := st.Split(ctx, a.CapabilityList)
		if err != nil {
			return err
		}
		if !split {
			parts, err := w.s.Parts(ctx, src, a.CapabilityList, st)
			if err != nil {
				return err
			}
			if len(parts) > 1 {
				// The split first: stopped before the parts are queued, the
				// set's job finds none left and copies the whole set itself.
				if err := st.MarkSplit(ctx, a.CapabilityList, len(parts)); err != nil {
					return err
				}
				for _, p := range parts {
					if _, err := w.cl.Insert(ctx, PartArgs{Source: a.Source, CapabilityList: a.CapabilityList, Part: p}, unique); err != nil {
						return fmt.Errorf("insert the job of %s: %w", p.Doc, err)
					}
				}
				log.Info().Int("parts", len(parts)).Bool("dump", parts[0].Dump != "").Msg("baseline split into one job per Resource List or dump package")
				return river.JobSnooze(w.waitParts())
			}
		}
		if err := w.s.SyncSet(ctx, src, a.CapabilityList, st); err != nil {
			return err
		}
		if split {
			return st.ClearSplit(ctx, a.CapabilityList)
		}
		return nil
	})
}

// waitParts is how long a set job waits before it looks at its parts
// again.
func (w setWorker) waitParts() time.Duration { return min(2*time.Second, w.o.Lease/2) }

// partsLeft counts the set's part jobs not finished.
func (w *jobs) partsLeft(ctx context.Context, capabilityList string) (int, error) {
	var n int
	err := w.db.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = $1 AND args->>'capability_list' = $2
		AND state IN ('available', 'pending', 'running', 'scheduled', 'retryable')`, KindPart, capabilityList).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count the parts of %s: %w", capabilityList, err)
	}
	return n, nil
}

// Work copies one Resource List or dump package of a split baseline.
func (w partWorker) Work(ctx context.Context, job *river.Job[PartArgs]) error {
	a := job.Args
	return w.owned(ctx, job.ID, a.Source, "part:"+a.Doc, func(ctx context.Context, src pgstate.Source, st *pgstate.DB) error {
		return w.s.BaselinePart(ctx, src, a.CapabilityList, a.Part, st)
	})
}

// owned runs fn holding the lease of key and a slot of the Source's host,
// with the state fenced by the lease. A lease another worker holds, or a
// host whose slots are all taken, snoozes the job; fn's ErrBusy too.
func (w *jobs) owned(ctx context.Context, jobID int64, key, lease string, fn func(context.Context, pgstate.Source, *pgstate.DB) error) error {
	src, ok, err := w.db.Source(ctx, key)
	if err != nil {
		return err
	}
	if !ok {
		return river.JobCancel(fmt.Errorf("source %s is not registered", key))
	}
	asked := time.Now()
	fence, err := w.db.AcquireLease(ctx, lease, w.o.Owner, w.o.Lease)
	if errors.Is(err, pgstate.ErrLeaseHeld) {
		return river.JobSnooze(w.o.Lease / 2)
	}
	if err != nil {
		return err
	}
	release := func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		w.db.ReleaseLease(rctx, fence)
	}
	slot, err := w.hostSlot(ctx, hostOf(key))
	if err != nil {
		release()
		if errors.Is(err, errNoSlot) {
			return river.JobSnooze(time.Second)
		}
		return err
	}
	defer slot.release()
	jctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := w.heartbeat(jctx, jobID, &fence, asked, cancel)
	err = fn(jctx, src, w.db.Fenced(fence))
	stop()
	if cause := context.Cause(jctx); cause != nil && !errors.Is(cause, context.Canceled) {
		err = errors.Join(err, cause)
	}
	if errors.Is(err, pgstate.ErrFenced) {
		// Another worker owns the job now: this attempt is over, and
		// nothing it did after losing the lease was recorded. The job's
		// row may be the other worker's attempt by now: whatever this one
		// says of it must not end it - at worst it runs once more, later,
		// and finds the set in step.
		w.o.Log.Warn().Str("lease", lease).Err(err).Msg("lost the lease; the job goes on elsewhere")
		return river.JobSnooze(w.o.Lease)
	}
	release()
	if errors.Is(err, ErrBusy) {
		return river.JobSnooze(w.o.Lease / 2)
	}
	if err != nil && (ctx.Err() != nil || w.drain.Err() != nil) {
		// Stopped by a signal - the first lets the transfers in flight
		// finish and records them, the second cancels them: the job is
		// no failure, and runs again first thing, on another worker.
		return river.JobSnooze(0)
	}
	return err
}

func hostOf(key string) string {
	u, err := url.Parse(key)
	if err != nil || u.Host == "" {
		return key
	}
	return u.Host
}
