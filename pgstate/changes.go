package pgstate

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ChangeStatus reports whether the change ch of uri at time t was recorded
// as processed for set setID and, if so, whether it failed.
func (db *DB) ChangeStatus(ctx context.Context, setID int64, uri string, ch resourcesync.Change, t time.Time) (recorded, failed bool, err error) {
	if db.absent {
		return false, false, nil
	}
	err = db.pool.QueryRow(ctx, `SELECT failed FROM changes WHERE set_id = $1 AND uri = $2 AND time = $3 AND change = $4`,
		setID, uri, keyTime(t), string(ch)).Scan(&failed)
	if noRows(err) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("read change %s %s of %s: %w", ch, resourcesync.FormatDatetime(t), uri, err)
	}
	return true, failed, nil
}

// ListDone reports whether the closed change document at url was recorded
// as fully processed for set setID.
func (db *DB) ListDone(ctx context.Context, setID int64, url string) (bool, error) {
	if db.absent {
		return false, nil
	}
	var one int
	err := db.pool.QueryRow(ctx, `SELECT 1 FROM lists_done WHERE set_id = $1 AND url = $2`, setID, url).Scan(&one)
	if noRows(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read list done %s: %w", url, err)
	}
	return true, nil
}

// PruneChanges deletes the successful change records of set setID older
// than before and than the set's cursor, and returns how many it deleted.
func (db *DB) PruneChanges(ctx context.Context, setID int64, before time.Time) (int64, error) {
	var n int64
	err := db.writeTx(ctx, fmt.Sprintf("prune changes of set %d", setID), func(tx pgx.Tx) error {
		tag, err := tx.Exec(context.WithoutCancel(ctx), `
			DELETE FROM changes WHERE set_id = $1 AND NOT failed AND time < $2
				AND time < (SELECT cursor FROM sets WHERE id = $1)`, setID, keyTime(before))
		n = tag.RowsAffected()
		return err
	})
	return n, err
}

// changesPage is how many records EachApplied reads per query.
const changesPage = 2048

// EachApplied calls fn for every change of set setID recorded as applied
// whose time is at or after since, in the order of the table's key (URI,
// time, change), reading in pages, and stops at fn's first error, which it
// returns unwrapped.
func (db *DB) EachApplied(ctx context.Context, setID int64, since time.Time, fn func(uri string, ch resourcesync.Change, t time.Time) error) error {
	if db.absent {
		return nil
	}
	type rec struct{ uri, change, time string }
	from := keyTime(since)
	var last rec // the empty key is before every record
	for {
		rows, err := db.pool.Query(ctx, `SELECT uri, change, time FROM changes
			WHERE set_id = $1 AND NOT failed AND time >= $2 AND (uri, time, change) > ($3, $4, $5)
			ORDER BY uri, time, change LIMIT $6`, setID, from, last.uri, last.time, last.change, changesPage)
		if err != nil {
			return fmt.Errorf("read changes of set %d: %w", setID, err)
		}
		page, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (rec, error) {
			var x rec
			err := r.Scan(&x.uri, &x.change, &x.time)
			return x, err
		})
		if err != nil {
			return fmt.Errorf("read changes of set %d: %w", setID, err)
		}
		for _, r := range page {
			t, err := parseTime(&r.time)
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
