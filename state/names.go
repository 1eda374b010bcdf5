package state

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// OlderNames returns the sets whose files an earlier version of the URI →
// path mapping named, each with that version: the sets a write run must
// rename the files of (mirror.Rename). A database of schema version 1,
// which a read-only open may see, predates the table: every set of it
// was named by version 1. Safe for concurrent use.
func (db *DB) OlderNames(ctx context.Context) (map[int64]int, error) {
	q := `SELECT set_id, mapping FROM older_names`
	if db.schema < 2 {
		q = `SELECT id, 1 FROM sets`
	}
	rows, err := db.read.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("read the sets named by an older mapping: %w", err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var v int
		if err := rows.Scan(&id, &v); err != nil {
			return nil, fmt.Errorf("read the sets named by an older mapping: %w", err)
		}
		out[id] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the sets named by an older mapping: %w", err)
	}
	return out, nil
}

// Repath records, in one transaction, that each file of moves was renamed:
// every record of m.URI at m.From, in any set, now has the path m.To (the
// sets that hold the same URI at the same path hold the same file). A
// record already elsewhere is left alone. Call it only after the renames
// are durable. Returns ErrReadOnly in read-only mode. Safe for concurrent
// use.
func (db *DB) Repath(ctx context.Context, moves []resourcesync.Moved) error {
	w, err := db.writer("repath")
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		return nil
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("repath: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	st, err := tx.PrepareContext(ctx, `UPDATE resources SET path = ? WHERE set_id IN (SELECT id FROM sets) AND uri = ? AND path = ?`)
	if err != nil {
		return fmt.Errorf("repath: %w", err)
	}
	defer st.Close()
	for _, m := range moves {
		if m.URI == "" || m.From == "" || m.To == "" {
			return fmt.Errorf("repath %q from %q to %q: %w: empty field", m.URI, m.From, m.To, ErrInvalid)
		}
		if _, err := st.ExecContext(ctx, m.To, m.URI, m.From); err != nil {
			return fmt.Errorf("repath %s to %s: %w", m.URI, m.To, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("repath: %w", err)
	}
	return nil
}

// NamesCurrent records that the files of set setID bear the names of the
// current mapping: OlderNames no longer returns it. Returns ErrReadOnly in
// read-only mode. Safe for concurrent use.
func (db *DB) NamesCurrent(ctx context.Context, setID int64) error {
	w, err := db.writer("record the names of set")
	if err != nil {
		return err
	}
	if _, err := w.ExecContext(ctx, `DELETE FROM older_names WHERE set_id = ?`, setID); err != nil {
		return fmt.Errorf("record the names of set %d: %w", setID, err)
	}
	return nil
}
