package pgstate

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/resync-dest/resync-dest/state"
)

// StartRun records the start of a run of the given kind, now, with status
// state.RunRunning, and returns its ID.
func (db *DB) StartRun(ctx context.Context, kind string) (int64, error) {
	var id int64
	err := db.writeTx(ctx, "start "+kind+" run", func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO runs (kind, started, status) VALUES ($1, $2, $3) RETURNING id`,
			kind, formatTime(db.now()), state.RunRunning).Scan(&id)
	})
	return id, err
}

// AddRunSets records that run runID worked on the given sets (again is
// harmless); state.ErrUnknownRun or state.ErrUnknownSet when either is not
// recorded.
func (db *DB) AddRunSets(ctx context.Context, runID int64, setIDs ...int64) error {
	if len(setIDs) == 0 {
		return nil
	}
	return db.writeTx(ctx, fmt.Sprintf("add sets to run %d", runID), func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM runs WHERE id = $1`, runID).Scan(&one); noRows(err) {
			return state.ErrUnknownRun
		} else if err != nil {
			return err
		}
		for _, id := range setIDs {
			if err := tx.QueryRow(ctx, `SELECT 1 FROM sets WHERE id = $1`, id).Scan(&one); noRows(err) {
				return fmt.Errorf("set %d: %w", id, state.ErrUnknownSet)
			} else if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO run_sets (run_id, set_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, runID, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// FinishRun records the end of run id, now; state.ErrUnknownRun when no
// such run was started.
func (db *DB) FinishRun(ctx context.Context, id int64, status string, exitCode int, counts state.RunCounts, message string) error {
	return db.writeTx(ctx, fmt.Sprintf("finish run %d", id), func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			UPDATE runs SET ended = $1, status = $2, exit_code = $3, listed = $4, created = $5, updated = $6, unchanged = $7,
				deleted = $8, failed = $9, skipped = $10, bytes = $11, message = $12
			WHERE id = $13`,
			formatTime(db.now()), status, exitCode, counts.Listed, counts.Created, counts.Updated, counts.Unchanged,
			counts.Deleted, counts.Failed, counts.Skipped, counts.Bytes, message, id)
		if err == nil && tag.RowsAffected() == 0 {
			err = state.ErrUnknownRun
		}
		return err
	})
}

const runColumns = `r.id, r.kind, r.started, r.ended, r.status, r.exit_code, r.listed, r.created, r.updated,
	r.unchanged, r.deleted, r.failed, r.skipped, r.bytes, r.message,
	coalesce((SELECT array_agg(set_id ORDER BY set_id) FROM run_sets WHERE run_id = r.id), '{}')`

func scanRun(row pgx.Row) (state.Run, error) {
	var r state.Run
	var started, ended *string
	c := &r.Counts
	if err := row.Scan(&r.ID, &r.Kind, &started, &ended, &r.Status, &r.ExitCode, &c.Listed, &c.Created, &c.Updated,
		&c.Unchanged, &c.Deleted, &c.Failed, &c.Skipped, &c.Bytes, &r.Message, &r.Sets); err != nil {
		return r, err
	}
	var err error
	if r.Started, err = parseTime(started); err != nil {
		return r, err
	}
	if r.Ended, err = parseTime(ended); err != nil {
		return r, err
	}
	if len(r.Sets) == 0 {
		r.Sets = nil
	}
	slices.Sort(r.Sets)
	return r, nil
}

// Runs returns the last limit runs, newest first (all when limit <= 0).
func (db *DB) Runs(ctx context.Context, limit int) ([]state.Run, error) {
	if db.absent {
		return nil, nil
	}
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := db.pool.Query(ctx, `SELECT `+runColumns+` FROM runs r ORDER BY r.id DESC LIMIT $1`, lim)
	if err != nil {
		return nil, fmt.Errorf("read runs: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (state.Run, error) { return scanRun(r) })
	if err != nil {
		return nil, fmt.Errorf("read runs: %w", err)
	}
	return out, nil
}

// RunTotals returns the runs summed by kind and status, ordered by kind
// then status (byte order).
func (db *DB) RunTotals(ctx context.Context) ([]state.RunTotal, error) {
	if db.absent {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `
		SELECT kind, status, count(*), sum(listed), sum(created), sum(updated), sum(unchanged),
			sum(deleted), sum(failed), sum(skipped), sum(bytes)
		FROM runs GROUP BY kind, status ORDER BY kind, status`)
	if err != nil {
		return nil, fmt.Errorf("read run totals: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (state.RunTotal, error) {
		var t state.RunTotal
		c := &t.Counts
		err := r.Scan(&t.Kind, &t.Status, &t.Runs, &c.Listed, &c.Created, &c.Updated, &c.Unchanged,
			&c.Deleted, &c.Failed, &c.Skipped, &c.Bytes)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("read run totals: %w", err)
	}
	return out, nil
}

// LastSuccess returns the run that ended last with exit code 0, and false
// when none has.
func (db *DB) LastSuccess(ctx context.Context) (state.Run, bool, error) {
	if db.absent {
		return state.Run{}, false, nil
	}
	r, err := scanRun(db.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM runs r
		WHERE r.exit_code = 0 AND r.ended IS NOT NULL
		ORDER BY r.ended DESC, r.started DESC, r.id DESC LIMIT 1`))
	if noRows(err) {
		return state.Run{}, false, nil
	}
	if err != nil {
		return state.Run{}, false, fmt.Errorf("read last successful run: %w", err)
	}
	return r, true, nil
}

// OlderNames is the SQLite state's record of sets named by an earlier
// version of the mapping: a PostgreSQL state was always named by the
// current one, so it is empty.
func (db *DB) OlderNames(context.Context) (map[int64]int, error) { return map[int64]int{}, nil }
