package pgstate

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/resync-dest/resync-dest/state"
)

// RecordConditions records the conditions of kind a run found, host by
// host, as state.DB.RecordConditions does: one seen before keeps its first
// sighting; with complete, the hosts of kind it did not see are forgotten.
func (db *DB) RecordConditions(ctx context.Context, kind string, seen []state.Condition, complete bool) error {
	return db.writeTx(ctx, "record conditions", func(tx pgx.Tx) error {
		ctx := context.WithoutCancel(ctx)
		now := formatTime(db.now())
		if complete {
			hosts := make([]string, 0, len(seen))
			for _, c := range seen {
				hosts = append(hosts, c.Host)
			}
			if _, err := tx.Exec(ctx, `DELETE FROM conditions WHERE kind = $1 AND NOT (host = ANY($2))`, kind, hosts); err != nil {
				return fmt.Errorf("forget the hosts not seen: %w", err)
			}
		}
		for _, c := range seen {
			if _, err := tx.Exec(ctx, `
				INSERT INTO conditions (kind, host, reason, entries, first_seen, last_seen) VALUES ($1, $2, $3, $4, $5, $5)
				ON CONFLICT (kind, host) DO UPDATE SET reason = excluded.reason, entries = excluded.entries, last_seen = excluded.last_seen`,
				kind, c.Host, c.Reason, c.Entries, now); err != nil {
				return fmt.Errorf("condition %s on %q: %w", kind, c.Host, err)
			}
		}
		return nil
	})
}

// Conditions returns the conditions recorded, by kind and host.
func (db *DB) Conditions(ctx context.Context) ([]state.Condition, error) {
	if db.absent {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT kind, host, reason, entries, first_seen, last_seen FROM conditions ORDER BY kind, host`)
	if err != nil {
		return nil, fmt.Errorf("read conditions: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (state.Condition, error) {
		var c state.Condition
		var first, last string
		if err := r.Scan(&c.Kind, &c.Host, &c.Reason, &c.Entries, &first, &last); err != nil {
			return c, err
		}
		var err error
		if c.FirstSeen, err = parseTime(&first); err == nil {
			c.LastSeen, err = parseTime(&last)
		}
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("read conditions: %w", err)
	}
	return out, nil
}
