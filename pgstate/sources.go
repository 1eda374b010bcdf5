package pgstate

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Source is a Source the workers keep in step: its key (its URL) and its
// options as the worker that registered it gave them (JSON).
type Source struct {
	Key     string
	Options []byte
}

// PutSource records (or replaces) a Source's options.
func (db *DB) PutSource(ctx context.Context, s Source) error {
	return db.writeTx(ctx, "register source "+s.Key, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO sources (key, options, registered) VALUES ($1, $2, $3)
			ON CONFLICT (key) DO UPDATE SET options = excluded.options, registered = excluded.registered`,
			s.Key, s.Options, formatTime(db.now()))
		return err
	})
}

// Source returns the Source recorded under key and whether there is one.
func (db *DB) Source(ctx context.Context, key string) (Source, bool, error) {
	if db.absent {
		return Source{}, false, nil
	}
	s := Source{Key: key}
	err := db.pool.QueryRow(ctx, `SELECT options FROM sources WHERE key = $1`, key).Scan(&s.Options)
	if noRows(err) {
		return Source{}, false, nil
	}
	if err != nil {
		return Source{}, false, fmt.Errorf("read source %s: %w", key, err)
	}
	return s, true, nil
}

// Sources returns every recorded Source, by key.
func (db *DB) Sources(ctx context.Context) ([]Source, error) {
	if db.absent {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT key, options FROM sources ORDER BY key`)
	if err != nil {
		return nil, fmt.Errorf("read sources: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Source, error) {
		var s Source
		err := r.Scan(&s.Key, &s.Options)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("read sources: %w", err)
	}
	return out, nil
}

// MarkSplit records that the baseline of the set of capabilityList was
// split into parts jobs (fenced, like every write).
func (db *DB) MarkSplit(ctx context.Context, capabilityList string, parts int) error {
	return db.writeTx(ctx, "record the split of "+capabilityList, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO splits (capability_list, parts, split) VALUES ($1, $2, $3)
			ON CONFLICT (capability_list) DO UPDATE SET parts = excluded.parts, split = excluded.split`,
			capabilityList, parts, formatTime(db.now()))
		return err
	})
}

// Split reports whether the baseline of the set of capabilityList was
// split and not yet finished.
func (db *DB) Split(ctx context.Context, capabilityList string) (bool, error) {
	if db.absent {
		return false, nil
	}
	var n int
	err := db.pool.QueryRow(ctx, `SELECT parts FROM splits WHERE capability_list = $1`, capabilityList).Scan(&n)
	if noRows(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the split of %s: %w", capabilityList, err)
	}
	return true, nil
}

// ClearSplit forgets the split of the set of capabilityList.
func (db *DB) ClearSplit(ctx context.Context, capabilityList string) error {
	return db.writeTx(ctx, "forget the split of "+capabilityList, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM splits WHERE capability_list = $1`, capabilityList)
		return err
	})
}
