package pgstate

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

const setColumns = `id, capability_list, source, created, baseline_at, baseline_completed, cursor, via`

func scanSet(row pgx.Row) (resourcesync.SetState, error) {
	var s resourcesync.SetState
	var created, at, completed, cursor *string
	if err := row.Scan(&s.ID, &s.CapabilityList, &s.Source, &created, &at, &completed, &cursor, &s.Via); err != nil {
		return s, err
	}
	var errs [4]error
	s.Created, errs[0] = parseTime(created)
	s.BaselineAt, errs[1] = parseTime(at)
	s.BaselineCompleted, errs[2] = parseTime(completed)
	s.Cursor, errs[3] = parseTime(cursor)
	return s, errors.Join(errs[:]...)
}

// EnsureSet returns the set of the Capability List capabilityList,
// recording it first if it is new; a non-empty source different from the
// recorded one replaces it. Read-only, a set not recorded comes back with
// ID 0, as in the SQLite state.
func (db *DB) EnsureSet(ctx context.Context, capabilityList, source string) (resourcesync.SetState, error) {
	if capabilityList == "" {
		return resourcesync.SetState{}, fmt.Errorf("ensure set: %w: empty Capability List URL", state.ErrInvalid)
	}
	if db.readOnly {
		s, ok, err := db.Set(ctx, capabilityList)
		if err != nil || ok {
			return s, err
		}
		return resourcesync.SetState{CapabilityList: capabilityList, Source: source, Created: db.now()}, nil
	}
	var s resourcesync.SetState
	err := db.writeTx(ctx, "ensure set "+capabilityList, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO sets (capability_list, source, created) VALUES ($1, $2, $3)
			ON CONFLICT (capability_list) DO UPDATE SET source = excluded.source
			WHERE excluded.source <> '' AND excluded.source <> sets.source`,
			capabilityList, source, formatTime(db.now())); err != nil {
			return err
		}
		var err error
		s, err = scanSet(tx.QueryRow(ctx, `SELECT `+setColumns+` FROM sets WHERE capability_list = $1`, capabilityList))
		return err
	})
	return s, err
}

// Set returns the set of the Capability List capabilityList and whether it
// is recorded.
func (db *DB) Set(ctx context.Context, capabilityList string) (resourcesync.SetState, bool, error) {
	if db.absent {
		return resourcesync.SetState{}, false, nil
	}
	s, err := scanSet(db.pool.QueryRow(ctx, `SELECT `+setColumns+` FROM sets WHERE capability_list = $1`, capabilityList))
	if noRows(err) {
		return resourcesync.SetState{}, false, nil
	}
	if err != nil {
		return resourcesync.SetState{}, false, fmt.Errorf("read set %s: %w", capabilityList, err)
	}
	return s, true, nil
}

// SetByID returns the set with the given ID, or an error wrapping
// state.ErrUnknownSet.
func (db *DB) SetByID(ctx context.Context, id int64) (resourcesync.SetState, error) {
	if db.absent {
		return resourcesync.SetState{}, fmt.Errorf("read set %d: %w", id, state.ErrUnknownSet)
	}
	s, err := scanSet(db.pool.QueryRow(ctx, `SELECT `+setColumns+` FROM sets WHERE id = $1`, id))
	if noRows(err) {
		err = state.ErrUnknownSet
	}
	if err != nil {
		return resourcesync.SetState{}, fmt.Errorf("read set %d: %w", id, err)
	}
	return s, nil
}

// Sets returns every recorded set, oldest first.
func (db *DB) Sets(ctx context.Context) ([]resourcesync.SetState, error) {
	if db.absent {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT `+setColumns+` FROM sets ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read sets: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (resourcesync.SetState, error) { return scanSet(r) })
	if err != nil {
		return nil, fmt.Errorf("read sets: %w", err)
	}
	return out, nil
}

// MoveSet renames the set of the Capability List from to to, keeping its
// records, baseline point and cursor (the Source moved its Capability
// List, http to https say), as state.DB.MoveSet does: nothing when from is
// not recorded or to already is; it reports whether it moved.
func (db *DB) MoveSet(ctx context.Context, from, to string) (bool, error) {
	var moved bool
	err := db.writeTx(ctx, fmt.Sprintf("move set %s to %s", from, to), func(tx pgx.Tx) error {
		tag, err := tx.Exec(context.WithoutCancel(ctx), `UPDATE sets SET capability_list = $2 WHERE capability_list = $1
			AND NOT EXISTS (SELECT 1 FROM sets WHERE capability_list = $2)`, from, to)
		moved = tag.RowsAffected() == 1
		return err
	})
	return moved, err
}

// ForgetSet forgets the set of the Capability List capabilityList and
// everything recorded about it (every table references sets ON DELETE
// CASCADE), as state.DB.ForgetSet does: the Source no longer names the
// set; its files stay, the caller says what becomes of them. It reports
// whether the set was recorded.
func (db *DB) ForgetSet(ctx context.Context, capabilityList string) (bool, error) {
	var forgot bool
	err := db.writeTx(ctx, "forget set "+capabilityList, func(tx pgx.Tx) error {
		tag, err := tx.Exec(context.WithoutCancel(ctx), `DELETE FROM sets WHERE capability_list = $1`, capabilityList)
		forgot = tag.RowsAffected() == 1
		return err
	})
	return forgot, err
}
