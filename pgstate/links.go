package pgstate

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/state"
)

// Provenance returns the hosts set setID's republished resources came
// from, as state.DB.Provenance does (state.Origins), reading only the
// records that have links.
func (db *DB) Provenance(ctx context.Context, setID int64) ([]state.Origin, error) {
	if db.absent {
		return []state.Origin{}, nil
	}
	out, err := state.Origins(func(fn func(string) error) error {
		rows, err := db.pool.Query(ctx, `SELECT links FROM resources WHERE set_id = $1 AND links IS NOT NULL`, setID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			if err := fn(s); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read the provenance of set %d: %w", setID, err)
	}
	return out, nil
}
