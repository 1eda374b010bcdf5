package pgstate

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/resync-dest/resync-dest/state"
)

// RecordOutOfScope records what a run found out of scope, host by host,
// as state.DB.RecordOutOfScope does: a host seen before keeps its first
// sighting and has its sample of entries replaced; with complete (a run
// that read every set's lists) the hosts it did not see are forgotten.
func (db *DB) RecordOutOfScope(ctx context.Context, seen []state.OutOfScope, complete bool) error {
	return db.writeTx(ctx, "record out of scope", func(tx pgx.Tx) error {
		ctx := context.WithoutCancel(ctx)
		now := formatTime(db.now())
		if complete {
			hosts := make([]string, 0, len(seen))
			for _, s := range seen {
				hosts = append(hosts, s.Host)
			}
			if _, err := tx.Exec(ctx, `DELETE FROM out_of_scope WHERE NOT (host = ANY($1))`, hosts); err != nil {
				return fmt.Errorf("forget the hosts not seen: %w", err)
			}
		}
		for _, s := range seen {
			if _, err := tx.Exec(ctx, `
				INSERT INTO out_of_scope (host, reason, entries, first_seen, last_seen) VALUES ($1, $2, $3, $4, $4)
				ON CONFLICT (host) DO UPDATE SET reason = excluded.reason, entries = excluded.entries, last_seen = excluded.last_seen`,
				s.Host, s.Reason, s.Entries, now); err != nil {
				return fmt.Errorf("on %q: %w", s.Host, err)
			}
			if _, err := tx.Exec(ctx, `DELETE FROM out_of_scope_entries WHERE host = $1`, s.Host); err != nil {
				return fmt.Errorf("on %q: %w", s.Host, err)
			}
			if len(s.URIs) > 0 {
				if _, err := tx.Exec(ctx, `INSERT INTO out_of_scope_entries (host, uri) SELECT $1, u FROM unnest($2::text[]) AS u
					ON CONFLICT DO NOTHING`, s.Host, s.URIs); err != nil {
					return fmt.Errorf("on %q: %w", s.Host, err)
				}
			}
		}
		return nil
	})
}

// OutOfScopeHosts returns what is recorded out of scope, host by host in
// host order, each with up to sample of its entries (none when sample is
// 0).
func (db *DB) OutOfScopeHosts(ctx context.Context, sample int) ([]state.OutOfScope, error) {
	if db.absent {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT host, reason, entries, first_seen, last_seen FROM out_of_scope ORDER BY host`)
	if err != nil {
		return nil, fmt.Errorf("read out of scope: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (state.OutOfScope, error) {
		var o state.OutOfScope
		var first, last string
		if err := r.Scan(&o.Host, &o.Reason, &o.Entries, &first, &last); err != nil {
			return o, err
		}
		var err error
		if o.FirstSeen, err = parseTime(&first); err == nil {
			o.LastSeen, err = parseTime(&last)
		}
		return o, err
	})
	if err != nil {
		return nil, fmt.Errorf("read out of scope: %w", err)
	}
	if sample <= 0 {
		return out, nil
	}
	for i := range out {
		rows, err := db.pool.Query(ctx, `SELECT uri FROM out_of_scope_entries WHERE host = $1 ORDER BY uri LIMIT $2`, out[i].Host, sample)
		if err != nil {
			return nil, fmt.Errorf("read out of scope on %q: %w", out[i].Host, err)
		}
		if out[i].URIs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return nil, fmt.Errorf("read out of scope on %q: %w", out[i].Host, err)
		}
	}
	return out, nil
}
