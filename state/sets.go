package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Set is one set of resources: the resources of one Capability List, with
// where its baseline and incremental sync stand.
type Set = resourcesync.SetState

const setColumns = `id, capability_list, source, created, baseline_at, baseline_completed, cursor, via`

type scanner interface{ Scan(dest ...any) error }

func scanSet(sc scanner) (Set, error) {
	var s Set
	var created, at, completed, cursor sql.NullString
	if err := sc.Scan(&s.ID, &s.CapabilityList, &s.Source, &created, &at, &completed, &cursor, &s.Via); err != nil {
		return Set{}, err
	}
	var errs [4]error
	s.Created, errs[0] = parseTime(created)
	s.BaselineAt, errs[1] = parseTime(at)
	s.BaselineCompleted, errs[2] = parseTime(completed)
	s.Cursor, errs[3] = parseTime(cursor)
	return s, errors.Join(errs[:]...)
}

// EnsureSet returns the set of the Capability List capabilityList,
// recording it first if it is new. A non-empty source different from the
// recorded one replaces it. In read-only mode nothing is recorded: a set
// that does not exist yet comes back with ID 0, which no recorded set has,
// so that every read about it finds nothing (a dry run plans as against a
// fresh state). Safe for concurrent use.
func (db *DB) EnsureSet(ctx context.Context, capabilityList, source string) (Set, error) {
	if capabilityList == "" {
		return Set{}, fmt.Errorf("ensure set: %w: empty Capability List URL", ErrInvalid)
	}
	if db.readOnly {
		s, ok, err := db.Set(ctx, capabilityList)
		if err != nil || ok {
			return s, err
		}
		return Set{CapabilityList: capabilityList, Source: source, Created: db.now()}, nil
	}
	_, err := db.write.ExecContext(ctx, `
		INSERT INTO sets (capability_list, source, created) VALUES (?, ?, ?)
		ON CONFLICT (capability_list) DO UPDATE SET source = excluded.source
		WHERE excluded.source <> '' AND excluded.source <> sets.source`,
		capabilityList, source, formatTime(db.now()))
	if err != nil {
		return Set{}, fmt.Errorf("ensure set %s: %w", capabilityList, err)
	}
	s, ok, err := db.Set(ctx, capabilityList)
	if err == nil && !ok {
		// Only a concurrent deletion could do this; this package has none.
		err = fmt.Errorf("ensure set %s: %w after recording it", capabilityList, ErrUnknownSet)
	}
	return s, err
}

// Set returns the set of the Capability List capabilityList and whether it
// is recorded. Safe for concurrent use.
func (db *DB) Set(ctx context.Context, capabilityList string) (Set, bool, error) {
	s, err := scanSet(db.read.QueryRowContext(ctx,
		`SELECT `+setColumns+` FROM sets WHERE capability_list = ?`, capabilityList))
	if errors.Is(err, sql.ErrNoRows) {
		return Set{}, false, nil
	}
	if err != nil {
		return Set{}, false, fmt.Errorf("read set %s: %w", capabilityList, err)
	}
	return s, true, nil
}

// SetByID returns the set with the given ID, or an error wrapping
// ErrUnknownSet. Safe for concurrent use.
func (db *DB) SetByID(ctx context.Context, id int64) (Set, error) {
	s, err := scanSet(db.read.QueryRowContext(ctx, `SELECT `+setColumns+` FROM sets WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrUnknownSet
	}
	if err != nil {
		return Set{}, fmt.Errorf("read set %d: %w", id, err)
	}
	return s, nil
}

// Sets returns every recorded set, oldest first. Safe for concurrent use.
func (db *DB) Sets(ctx context.Context) ([]Set, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+setColumns+` FROM sets ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read sets: %w", err)
	}
	defer rows.Close()
	var out []Set
	for rows.Next() {
		s, err := scanSet(rows)
		if err != nil {
			return nil, fmt.Errorf("read sets: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read sets: %w", err)
	}
	return out, nil
}

// MoveSet renames the set of the Capability List from to to, keeping its
// records, baseline point and cursor: the Source moved its Capability List
// (http to https, say) and the set is the same tree. It does nothing when
// from is not recorded or to already is, and reports whether it moved.
// Safe for concurrent use.
func (db *DB) MoveSet(ctx context.Context, from, to string) (bool, error) {
	if db.readOnly {
		return false, fmt.Errorf("move set %s to %s: %w", from, to, ErrReadOnly)
	}
	res, err := db.write.ExecContext(ctx, `
		UPDATE sets SET capability_list = ? WHERE capability_list = ?
		AND NOT EXISTS (SELECT 1 FROM sets WHERE capability_list = ?)`, to, from, to)
	if err != nil {
		return false, fmt.Errorf("move set %s to %s: %w", from, to, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("move set %s to %s: %w", from, to, err)
	}
	return n == 1, nil
}

// ForgetSet forgets the set of the Capability List capabilityList and
// everything recorded about it (records, failures, changes, lists done,
// its link to the runs), but not the runs themselves: the Source no longer
// names the set. The files stay where they are; the caller says what
// becomes of them. It reports whether the set was recorded. Safe for
// concurrent use.
func (db *DB) ForgetSet(ctx context.Context, capabilityList string) (bool, error) {
	w, err := db.writer("forget set " + capabilityList)
	if err != nil {
		return false, err
	}
	res, err := w.ExecContext(ctx, `DELETE FROM sets WHERE capability_list = ?`, capabilityList)
	if err != nil {
		return false, fmt.Errorf("forget set %s: %w", capabilityList, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("forget set %s: %w", capabilityList, err)
	}
	return n == 1, nil
}
