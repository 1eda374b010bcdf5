package state

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Condition is what runs found of one kind of condition on one host: the
// entries a Source lists run after run with the same fault (a lastmod
// that is not a datetime, a misdated change), which a Destination can only
// note. Entries out of scope have their own record (OutOfScope).
type Condition struct {
	Kind      string
	Host      string    // host[:port] as the URIs give it; "" for URIs without one
	Reason    string    // what the first entry showed
	Entries   int64     // how many the last run that saw it found
	FirstSeen time.Time // the run that first saw it
	LastSeen  time.Time // the last run that saw it
}

// RecordConditions records the conditions of kind a run found, host by
// host: one seen before keeps its first sighting. When complete is set (a
// run that read every entry the condition can be found in), the hosts of
// kind it did not see are forgotten: the condition is over, and news again
// if it comes back. Returns ErrReadOnly in read-only mode. Safe for
// concurrent use.
func (db *DB) RecordConditions(ctx context.Context, kind string, seen []Condition, complete bool) error {
	w, err := db.writer("record conditions")
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record conditions: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	now := formatTime(db.now())
	if complete {
		if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS seen_conditions (host TEXT PRIMARY KEY)`); err != nil {
			return fmt.Errorf("record conditions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM seen_conditions`); err != nil {
			return fmt.Errorf("record conditions: %w", err)
		}
		for _, c := range seen {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO seen_conditions (host) VALUES (?)`, c.Host); err != nil {
				return fmt.Errorf("record conditions: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM conditions WHERE kind = ? AND host NOT IN (SELECT host FROM seen_conditions)`, kind); err != nil {
			return fmt.Errorf("record conditions: forget the hosts not seen: %w", err)
		}
	}
	for _, c := range seen {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO conditions (kind, host, reason, entries, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (kind, host) DO UPDATE SET reason = excluded.reason, entries = excluded.entries, last_seen = excluded.last_seen`,
			kind, c.Host, c.Reason, c.Entries, now, now); err != nil {
			return fmt.Errorf("record condition %s on %q: %w", kind, c.Host, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record conditions: %w", err)
	}
	return nil
}

// Conditions returns the conditions recorded, by kind and host. A state
// older than the record has none. Safe for concurrent use.
func (db *DB) Conditions(ctx context.Context) ([]Condition, error) {
	if db.schema != 0 && db.schema < 4 {
		return nil, nil
	}
	rows, err := db.read.QueryContext(ctx, `SELECT kind, host, reason, entries, first_seen, last_seen FROM conditions ORDER BY kind, host`)
	if err != nil {
		return nil, fmt.Errorf("read conditions: %w", err)
	}
	defer rows.Close()
	var out []Condition
	for rows.Next() {
		var c Condition
		var first, last sql.NullString
		if err := rows.Scan(&c.Kind, &c.Host, &c.Reason, &c.Entries, &first, &last); err != nil {
			return nil, fmt.Errorf("read conditions: %w", err)
		}
		if c.FirstSeen, err = parseTime(first); err == nil {
			c.LastSeen, err = parseTime(last)
		}
		if err != nil {
			return nil, fmt.Errorf("read condition %s on %q: %w", c.Kind, c.Host, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
