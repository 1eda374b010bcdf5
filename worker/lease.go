package worker

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/resync-dest/resync-dest/pgstate"
)

// errFenceLost ends a job whose lease was taken over or could not be
// renewed before it ran out.
var errFenceLost = errors.New("the job's lease was lost")

// heartbeat renews the job's lease (if any) and marks the River job alive
// every sixth of the lease until stop is called. since is when the lease
// was asked for. When the lease is taken over, or none of its renewals got
// through for two thirds of it (the database is unreachable), it calls
// cancel with an error wrapping pgstate.ErrFenced. Counted from when the
// last renewal that got through was sent - before the server started the
// lease's new term - the job stops with a third of the lease to spare
// before another worker may take the job over: time for its requests in
// flight to be cancelled, so that a replaced job writes nothing after its
// successor starts (the bucket cannot check an epoch; the state does).
func (w *jobs) heartbeat(ctx context.Context, jobID int64, fence *pgstate.Fence, since time.Time, cancel context.CancelCauseFunc) (stop func()) {
	if cancel == nil {
		cancel = func(error) {}
	}
	giveUp := w.o.Lease * 2 / 3
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(w.o.Lease / 6)
		defer t.Stop()
		renewed := since
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// A renewal may take until the job gives up: on a loaded
			// server a slow one still counts.
			var (
				rctx    context.Context
				rcancel context.CancelFunc
			)
			if fence != nil {
				rctx, rcancel = context.WithDeadline(ctx, renewed.Add(giveUp))
			} else {
				rctx, rcancel = context.WithTimeout(ctx, w.o.Lease/3)
			}
			sent := time.Now()
			err := w.renew(rctx, jobID, fence)
			rcancel()
			switch {
			case err == nil:
				renewed = sent
			case errors.Is(err, pgstate.ErrFenced):
				cancel(err)
				return
			case fence != nil && !time.Now().Before(renewed.Add(giveUp)):
				cancel(fmt.Errorf("%w: %w: not renewed for %s: %w", errFenceLost, pgstate.ErrFenced, giveUp, err))
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// renew renews the lease of fence (if any), then marks the job alive.
func (w *jobs) renew(ctx context.Context, jobID int64, fence *pgstate.Fence) error {
	if fence != nil {
		if err := w.db.RenewLease(ctx, *fence, w.o.Lease); err != nil {
			return err
		}
	}
	_, err := w.db.Pool().Exec(ctx, `UPDATE river_job SET attempted_at = now() WHERE id = $1 AND state = 'running'`, jobID)
	return err
}

// errNoSlot: every slot of the host is taken.
var errNoSlot = errors.New("every slot of the host is taken")

// slot is a host slot held: an advisory lock on a connection of its own.
type slot struct {
	conn *pgxpool.Conn
	key  [2]int32
}

// hostSlot takes one of the host's HostBudget slots, or fails with
// errNoSlot.
func (w *jobs) hostSlot(ctx context.Context, host string) (*slot, error) {
	conn, err := w.db.Pool().Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("take a slot of %s: %w", host, err)
	}
	h := fnv.New32a()
	h.Write([]byte("resync-dest host " + host))
	hk := int32(h.Sum32())
	for i := range w.o.HostBudget {
		var ok bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, hk, int32(i)).Scan(&ok); err != nil {
			conn.Release()
			return nil, fmt.Errorf("take a slot of %s: %w", host, err)
		}
		if ok {
			return &slot{conn: conn, key: [2]int32{hk, int32(i)}}, nil
		}
	}
	conn.Release()
	return nil, errNoSlot
}

func (s *slot) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.conn.Exec(ctx, `SELECT pg_advisory_unlock($1, $2)`, s.key[0], s.key[1]); err != nil {
		// The lock's fate is unknown: drop the connection, and the lock
		// with it.
		s.conn.Conn().Close(ctx)
	}
	s.conn.Release()
}
