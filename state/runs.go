package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// RunRunning is the status of a run from StartRun until FinishRun. A run
// whose process died keeps it, with no end.
const RunRunning = "running"

// RunCounts are what a run did, for `status`.
type RunCounts = resourcesync.Counts

// Run is one recorded run of the program.
type Run struct {
	ID       int64
	Kind     string  // "baseline", "incremental", "sync", "audit", ...
	Sets     []int64 // the sets it worked on (AddRunSets), ascending
	Started  time.Time
	Ended    time.Time // zero while running (or if the process died)
	Status   string    // RunRunning until FinishRun, then the caller's word
	ExitCode int
	Counts   RunCounts
	Message  string
}

// StartRun records the start of a run of the given kind, now, with status
// RunRunning, and returns its ID. Returns ErrReadOnly in read-only mode.
// Safe for concurrent use.
func (db *DB) StartRun(ctx context.Context, kind string) (int64, error) {
	w, err := db.writer("start run")
	if err != nil {
		return 0, err
	}
	res, err := w.ExecContext(ctx, `INSERT INTO runs (kind, started, status) VALUES (?, ?, ?)`,
		kind, formatTime(db.now()), RunRunning)
	if err != nil {
		return 0, fmt.Errorf("start %s run: %w", kind, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("start %s run: %w", kind, err)
	}
	return id, nil
}

// AddRunSets records that run runID worked on the given sets (again is
// harmless). It fails with ErrUnknownRun or ErrUnknownSet when either is
// not recorded, and ErrReadOnly in read-only mode. Safe for concurrent use.
func (db *DB) AddRunSets(ctx context.Context, runID int64, setIDs ...int64) error {
	w, err := db.writer("add sets to run")
	if err != nil {
		return err
	}
	if len(setIDs) == 0 {
		return nil
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add sets to run %d: %w", runID, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM runs WHERE id = ?`, runID).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("add sets to run %d: %w", runID, ErrUnknownRun)
	} else if err != nil {
		return fmt.Errorf("add sets to run %d: %w", runID, err)
	}
	for _, id := range setIDs {
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM sets WHERE id = ?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("add set %d to run %d: %w", id, runID, ErrUnknownSet)
		} else if err != nil {
			return fmt.Errorf("add set %d to run %d: %w", id, runID, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO run_sets (run_id, set_id) VALUES (?, ?)`, runID, id); err != nil {
			return fmt.Errorf("add set %d to run %d: %w", id, runID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("add sets to run %d: %w", runID, err)
	}
	return nil
}

// FinishRun records the end of run id, now, with its status, exit code,
// counts and message. It fails with ErrUnknownRun when no such run was
// started, and ErrReadOnly in read-only mode. Safe for concurrent use.
func (db *DB) FinishRun(ctx context.Context, id int64, status string, exitCode int, counts RunCounts, message string) error {
	w, err := db.writer("finish run")
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `
		UPDATE runs SET ended = ?, status = ?, exit_code = ?, listed = ?, created = ?, updated = ?, unchanged = ?,
			deleted = ?, failed = ?, skipped = ?, bytes = ?, message = ?
		WHERE id = ?`,
		formatTime(db.now()), status, exitCode, counts.Listed, counts.Created, counts.Updated, counts.Unchanged,
		counts.Deleted, counts.Failed, counts.Skipped, counts.Bytes, message, id)
	if err != nil {
		return fmt.Errorf("finish run %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("finish run %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("finish run %d: %w", id, ErrUnknownRun)
	}
	return nil
}

// Runs returns the last limit runs, newest first (all of them when limit
// <= 0). Safe for concurrent use.
func (db *DB) Runs(ctx context.Context, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+runColumns+` FROM runs r ORDER BY r.id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("read runs: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("read runs: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read runs: %w", err)
	}
	return out, nil
}

// runColumns are the columns scanRun reads, from runs aliased r.
const runColumns = `r.id, r.kind, r.started, r.ended, r.status, r.exit_code, r.listed, r.created, r.updated,
	r.unchanged, r.deleted, r.failed, r.skipped, r.bytes, r.message,
	(SELECT group_concat(set_id) FROM run_sets WHERE run_id = r.id)`

func scanRun(sc scanner) (Run, error) {
	var r Run
	var started, ended, sets sql.NullString
	c := &r.Counts
	if err := sc.Scan(&r.ID, &r.Kind, &started, &ended, &r.Status, &r.ExitCode, &c.Listed, &c.Created, &c.Updated,
		&c.Unchanged, &c.Deleted, &c.Failed, &c.Skipped, &c.Bytes, &r.Message, &sets); err != nil {
		return Run{}, err
	}
	var errs [3]error
	r.Started, errs[0] = parseTime(started)
	r.Ended, errs[1] = parseTime(ended)
	r.Sets, errs[2] = parseIDs(sets.String)
	if err := errors.Join(errs[:]...); err != nil {
		return Run{}, fmt.Errorf("run %d: %w", r.ID, err)
	}
	return r, nil
}

// RunTotal sums the runs of one kind that share a status.
type RunTotal struct {
	Kind   string
	Status string // RunRunning for runs not (yet) finished: their counts are zero
	Runs   int64
	Counts RunCounts
}

// RunTotals returns the runs summed by kind and status, ordered by kind
// then status (byte order); runs not finished are summed under RunRunning.
// It reads one snapshot of the runs, in read-only mode too (a missing
// database has none). On error it returns nil and the error, which says
// what was being read. Safe for concurrent use.
func (db *DB) RunTotals(ctx context.Context) ([]RunTotal, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT kind, status, count(*), sum(listed), sum(created), sum(updated), sum(unchanged),
			sum(deleted), sum(failed), sum(skipped), sum(bytes)
		FROM runs GROUP BY kind, status ORDER BY kind, status`)
	if err != nil {
		return nil, fmt.Errorf("read run totals: %w", err)
	}
	defer rows.Close()
	var out []RunTotal
	for rows.Next() {
		var t RunTotal
		c := &t.Counts
		if err := rows.Scan(&t.Kind, &t.Status, &t.Runs, &c.Listed, &c.Created, &c.Updated, &c.Unchanged,
			&c.Deleted, &c.Failed, &c.Skipped, &c.Bytes); err != nil {
			return nil, fmt.Errorf("read run totals: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read run totals: %w", err)
	}
	return out, nil
}

// LastSuccess returns the run that ended last with exit code 0 (the latest
// start, then the highest ID, among those that ended at the same instant),
// and false when no run has ended so. Runs not finished never count, even
// though their exit code reads 0. Works in read-only mode too. On error it
// returns false and the error. Safe for concurrent use.
func (db *DB) LastSuccess(ctx context.Context) (Run, bool, error) {
	r, err := scanRun(db.read.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs r
		WHERE r.exit_code = 0 AND r.ended IS NOT NULL
		ORDER BY r.ended DESC, r.started DESC, r.id DESC LIMIT 1`))
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, false, nil
	}
	if err != nil {
		return Run{}, false, fmt.Errorf("read last successful run: %w", err)
	}
	return r, true, nil
}

// parseIDs reads group_concat's comma-separated IDs, sorted.
func parseIDs(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	ids := make([]int64, len(parts))
	for i, p := range parts {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("set list %q: %w", s, err)
		}
		ids[i] = id
	}
	slices.Sort(ids)
	return ids, nil
}
