package pgstate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Fence is a job's hold on a key: the epoch its lease had when taken.
type Fence struct {
	Key   string
	Epoch int64
}

var (
	// ErrFenced: the lease of the key is no longer this epoch's - its
	// holder stalled past it and another took it over - so the write was
	// refused and nothing was recorded.
	ErrFenced = errors.New("the lease was taken over: write refused")
	// ErrLeaseHeld: another owner holds the lease and it has not run out.
	ErrLeaseHeld = errors.New("the lease is held by another owner")
)

// Fenced returns a DB sharing db's connections whose every write checks,
// in its transaction, that f is still the lease of f.Key (ErrFenced
// otherwise). Closing it does not close db.
func (db *DB) Fenced(f Fence) *DB {
	c := *db
	c.fence = &f
	c.owned = false
	return &c
}

// checkFence holds the lease row for the rest of the transaction and
// refuses when its epoch moved on.
func (db *DB) checkFence(ctx context.Context, tx pgx.Tx) error {
	if db.fence == nil {
		return nil
	}
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM leases WHERE key = $1 AND epoch = $2 FOR SHARE`,
		db.fence.Key, db.fence.Epoch).Scan(&one)
	if noRows(err) {
		return fmt.Errorf("%w (%s, epoch %d)", ErrFenced, db.fence.Key, db.fence.Epoch)
	}
	return err
}

// AcquireLease takes the lease of key for owner for ttl, by the server's
// clock: it is free, ran out, or is owner's already. Each acquisition
// raises the epoch, which fences every earlier holder's writes. It fails
// with ErrLeaseHeld, naming the holder and the expiry, otherwise.
func (db *DB) AcquireLease(ctx context.Context, key, owner string, ttl time.Duration) (Fence, error) {
	if db.readOnly {
		return Fence{}, fmt.Errorf("acquire lease %s: read-only state", key)
	}
	var epoch int64
	err := db.pool.QueryRow(ctx, `
		INSERT INTO leases (key, epoch, owner, expires) VALUES ($1, 1, $2, now() + make_interval(secs => $3))
		ON CONFLICT (key) DO UPDATE SET epoch = leases.epoch + 1, owner = excluded.owner, expires = excluded.expires
		WHERE leases.expires < now() OR leases.owner = excluded.owner
		RETURNING epoch`, key, owner, ttl.Seconds()).Scan(&epoch)
	if noRows(err) {
		var holder string
		var until time.Time
		if err := db.pool.QueryRow(ctx, `SELECT owner, expires FROM leases WHERE key = $1`, key).Scan(&holder, &until); err != nil {
			return Fence{}, fmt.Errorf("acquire lease %s: %w", key, err)
		}
		return Fence{}, fmt.Errorf("acquire lease %s: %w: %s until %s", key, ErrLeaseHeld, holder, until.UTC().Format(time.RFC3339))
	}
	if err != nil {
		return Fence{}, fmt.Errorf("acquire lease %s: %w", key, err)
	}
	return Fence{Key: key, Epoch: epoch}, nil
}

// RenewLease extends f's lease to ttl from now; ErrFenced when it was
// taken over.
func (db *DB) RenewLease(ctx context.Context, f Fence, ttl time.Duration) error {
	tag, err := db.pool.Exec(ctx, `UPDATE leases SET expires = now() + make_interval(secs => $3) WHERE key = $1 AND epoch = $2`,
		f.Key, f.Epoch, ttl.Seconds())
	if err != nil {
		return fmt.Errorf("renew lease %s: %w", f.Key, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("renew lease %s: %w (epoch %d)", f.Key, ErrFenced, f.Epoch)
	}
	return nil
}

// ReleaseLease ends f's lease now, keeping its epoch (the next holder
// raises it). Releasing a lease taken over is no error.
func (db *DB) ReleaseLease(ctx context.Context, f Fence) error {
	_, err := db.pool.Exec(ctx, `UPDATE leases SET expires = now() - interval '1 microsecond' WHERE key = $1 AND epoch = $2`,
		f.Key, f.Epoch)
	if err != nil {
		return fmt.Errorf("release lease %s: %w", f.Key, err)
	}
	return nil
}
