package state

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// OutOfScope is what runs found out of scope on one host: the entries a
// Source lists that this Destination does not fetch.
type OutOfScope struct {
	Host      string    // host[:port] as the URIs give it; "" for URIs without one
	Reason    string    // the cause given for one entry, as an example
	Entries   int64     // how many the last run that saw the host found
	FirstSeen time.Time // the run that first saw it
	LastSeen  time.Time // the last run that saw it
	URIs      []string  // a sample of the entries, in URI order
}

// RecordOutOfScope records what a run found out of scope, host by host:
// a host seen before keeps its first sighting, and its sample of entries
// is replaced. When complete is set (a run that read every set's lists),
// the hosts it did not see are forgotten: the condition is over, and it is
// new again if it comes back. Returns ErrReadOnly in read-only mode. Safe
// for concurrent use.
func (db *DB) RecordOutOfScope(ctx context.Context, seen []OutOfScope, complete bool) error {
	w, err := db.writer("record out of scope")
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record out of scope: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	now := formatTime(db.now())
	if complete {
		if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS seen_hosts (host TEXT PRIMARY KEY)`); err != nil {
			return fmt.Errorf("record out of scope: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM seen_hosts`); err != nil {
			return fmt.Errorf("record out of scope: %w", err)
		}
		for _, s := range seen {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO seen_hosts (host) VALUES (?)`, s.Host); err != nil {
				return fmt.Errorf("record out of scope: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM out_of_scope WHERE host NOT IN (SELECT host FROM seen_hosts)`); err != nil {
			return fmt.Errorf("record out of scope: forget the hosts not seen: %w", err)
		}
	}
	for _, s := range seen {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO out_of_scope (host, reason, entries, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (host) DO UPDATE SET reason = excluded.reason, entries = excluded.entries, last_seen = excluded.last_seen`,
			s.Host, s.Reason, s.Entries, now, now); err != nil {
			return fmt.Errorf("record out of scope on %q: %w", s.Host, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM out_of_scope_entries WHERE host = ?`, s.Host); err != nil {
			return fmt.Errorf("record out of scope on %q: %w", s.Host, err)
		}
		for _, u := range s.URIs {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO out_of_scope_entries (host, uri) VALUES (?, ?)`, s.Host, u); err != nil {
				return fmt.Errorf("record out of scope %s: %w", u, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record out of scope: %w", err)
	}
	return nil
}

// OutOfScopeHosts returns what is recorded out of scope, host by host in
// host order, each with up to sample of its entries (none when sample is
// 0). A state older than the record has none. Safe for concurrent use.
func (db *DB) OutOfScopeHosts(ctx context.Context, sample int) ([]OutOfScope, error) {
	if db.schema != 0 && db.schema < 3 {
		return nil, nil
	}
	rows, err := db.read.QueryContext(ctx, `SELECT host, reason, entries, first_seen, last_seen FROM out_of_scope ORDER BY host`)
	if err != nil {
		return nil, fmt.Errorf("read out of scope: %w", err)
	}
	var out []OutOfScope
	for rows.Next() {
		var o OutOfScope
		var first, last sql.NullString
		if err := rows.Scan(&o.Host, &o.Reason, &o.Entries, &first, &last); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read out of scope: %w", err)
		}
		if o.FirstSeen, err = parseTime(first); err == nil {
			o.LastSeen, err = parseTime(last)
		}
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("read out of scope on %q: %w", o.Host, err)
		}
		out = append(out, o)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("read out of scope: %w", err)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read out of scope: %w", err)
	}
	if sample <= 0 {
		return out, nil
	}
	for i := range out {
		if out[i].URIs, err = db.outOfScopeURIs(ctx, out[i].Host, sample); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (db *DB) outOfScopeURIs(ctx context.Context, host string, limit int) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT uri FROM out_of_scope_entries WHERE host = ? ORDER BY uri LIMIT ?`, host, limit)
	if err != nil {
		return nil, fmt.Errorf("read out of scope on %q: %w", host, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return nil, fmt.Errorf("read out of scope on %q: %w", host, err)
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
