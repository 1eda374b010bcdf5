package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ChangeStatus reports whether the change ch of uri at time t was recorded
// as processed for set setID and, if so, whether it failed (and is to be
// retried). Records before the set's cursor may have been pruned: the
// cursor, not this, says those are done. Safe for concurrent use; a point
// lookup like Held, ctx is checked before it, not during it.
func (db *DB) ChangeStatus(ctx context.Context, setID int64, uri string, ch resourcesync.Change, t time.Time) (recorded, failed bool, err error) {
	if ctx, err = pointCtx(ctx); err != nil {
		return false, false, fmt.Errorf("read change %s of %s: %w", ch, uri, err)
	}
	err = db.read.QueryRowContext(ctx,
		`SELECT failed FROM changes WHERE set_id = ? AND uri = ? AND time = ? AND change = ?`,
		setID, uri, keyTime(t), string(ch)).Scan(&failed)
	if errors.Is(err, sql.ErrNoRows) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("read change %s %s of %s: %w", ch, resourcesync.FormatDatetime(t), uri, err)
	}
	return true, failed, nil
}

// ListDone reports whether the closed Change List or Change Dump package
// at url was recorded as fully processed for set setID. Safe for concurrent
// use.
func (db *DB) ListDone(ctx context.Context, setID int64, url string) (bool, error) {
	ctx, err := pointCtx(ctx)
	if err != nil {
		return false, fmt.Errorf("read list done %s: %w", url, err)
	}
	var one int
	err = db.read.QueryRowContext(ctx, `SELECT 1 FROM lists_done WHERE set_id = ? AND url = ?`, setID, url).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read list done %s: %w", url, err)
	}
	return true, nil
}

// PruneChanges deletes the successful change records of set setID older
// than before and than the set's cursor (the cursor covers them), and
// returns how many it deleted. Failed records are kept: they are still to
// be retried. A set without a cursor prunes nothing. Returns ErrReadOnly in
// read-only mode. Safe for concurrent use.
func (db *DB) PruneChanges(ctx context.Context, setID int64, before time.Time) (int64, error) {
	w, err := db.writer("prune changes")
	if err != nil {
		return 0, err
	}
	// "time < NULL" is never true, so an unset cursor protects everything.
	res, err := w.ExecContext(ctx, `
		DELETE FROM changes WHERE set_id = ? AND failed = 0 AND time < ?
			AND time < (SELECT cursor FROM sets WHERE id = ?)`,
		setID, keyTime(before), setID)
	if err != nil {
		return 0, fmt.Errorf("prune changes of set %d: %w", setID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("prune changes of set %d: %w", setID, err)
	}
	return n, nil
}

// changesPage is how many records EachApplied reads per query.
const changesPage = 1024

// EachApplied calls fn for every change of set setID recorded as applied
// whose time is at or after since (the records a resumed run must skip),
// in the order of the table's key (URI, time, change), and stops at fn's
// first error, which it returns unwrapped. It reads in pages, each a range
// of the key - no page sorts the records, which a run reading every record
// kept for an open list read again (thousands) would pay per page - and
// holds nothing open while fn runs. Safe for concurrent use.
func (db *DB) EachApplied(ctx context.Context, setID int64, since time.Time, fn func(uri string, ch resourcesync.Change, t time.Time) error) error {
	const q = `SELECT uri, change, time FROM changes
		WHERE set_id = ? AND failed = 0 AND time >= ? AND (uri, time, change) > (?, ?, ?)
		ORDER BY uri, time, change LIMIT ?`
	type rec struct{ uri, change, time string }
	from := keyTime(since)
	var last rec // the empty key is before every record
	page := make([]rec, 0, changesPage)
	for {
		rows, err := db.read.QueryContext(ctx, q, setID, from, last.uri, last.time, last.change, changesPage)
		if err != nil {
			return fmt.Errorf("read changes of set %d: %w", setID, err)
		}
		page = page[:0]
		for rows.Next() {
			var r rec
			if err := rows.Scan(&r.uri, &r.change, &r.time); err != nil {
				rows.Close()
				return fmt.Errorf("read changes of set %d: %w", setID, err)
			}
			page = append(page, r)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("read changes of set %d: %w", setID, err)
		}
		for _, r := range page {
			t, err := parseTime(sql.NullString{String: r.time, Valid: true})
			if err != nil {
				return fmt.Errorf("read changes of set %d: %w", setID, err)
			}
			if err := fn(r.uri, resourcesync.Change(r.change), t); err != nil {
				return err
			}
		}
		if len(page) < changesPage {
			return nil
		}
		last = page[len(page)-1]
	}
}
