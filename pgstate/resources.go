package pgstate

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

const heldColumns = `uri, path, length, fixity, lastmod, etag, last_modified, fetched, links`

// heldPage is how many rows EachHeld reads per query: nothing stays open
// while its callback runs.
const heldPage = 1024

func scanHeld(row pgx.Row) (resourcesync.Held, error) {
	var h resourcesync.Held
	var fixity string
	var lastmod, fetched, links *string
	if err := row.Scan(&h.URI, &h.Path, &h.Length, &fixity, &lastmod, &h.ETag, &h.LastModified, &fetched, &links); err != nil {
		return h, err
	}
	var errs [4]error
	h.Fixity, errs[0] = resourcesync.ParseHash(fixity)
	h.LastMod, errs[1] = parseTime(lastmod)
	h.Fetched, errs[2] = parseTime(fetched)
	if links != nil {
		h.Links, errs[3] = state.DecodeLinks(*links)
	}
	return h, errors.Join(errs[:]...)
}

func collectHeld(rows pgx.Rows) ([]resourcesync.Held, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (resourcesync.Held, error) { return scanHeld(r) })
}

// Held returns what set setID holds of the resource uri, and whether it
// holds it.
func (db *DB) Held(ctx context.Context, setID int64, uri string) (resourcesync.Held, bool, error) {
	if db.absent {
		return resourcesync.Held{}, false, nil
	}
	h, err := scanHeld(db.pool.QueryRow(ctx, `SELECT `+heldColumns+` FROM resources WHERE set_id = $1 AND uri = $2`, setID, uri))
	if noRows(err) {
		return resourcesync.Held{}, false, nil
	}
	if err != nil {
		return resourcesync.Held{}, false, fmt.Errorf("read held %s: %w", uri, err)
	}
	return h, true, nil
}

// HeldMany looks up many URIs of set setID in one query and returns what
// is held of each, by URI; a URI not held is absent from the map.
func (db *DB) HeldMany(ctx context.Context, setID int64, uris []string) (map[string]resourcesync.Held, error) {
	out := make(map[string]resourcesync.Held, len(uris))
	if db.absent || len(uris) == 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT `+heldColumns+` FROM resources WHERE set_id = $1 AND uri = ANY($2)`, setID, uris)
	if err != nil {
		return nil, fmt.Errorf("read held of set %d: %w", setID, err)
	}
	hs, err := collectHeld(rows)
	if err != nil {
		return nil, fmt.Errorf("read held of set %d: %w", setID, err)
	}
	for _, h := range hs {
		out[h.URI] = h
	}
	return out, nil
}

// HeldCount returns how many resources set setID holds.
func (db *DB) HeldCount(ctx context.Context, setID int64) (int64, error) {
	if db.absent {
		return 0, nil
	}
	var n int64
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM resources WHERE set_id = $1`, setID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count held of set %d: %w", setID, err)
	}
	return n, nil
}

// EachHeld calls fn for every resource set setID holds, in path order
// (byte order; URI order among equal paths), reading in pages so that fn
// may use the DB, and stops at fn's first error, which it returns
// unwrapped.
func (db *DB) EachHeld(ctx context.Context, setID int64, fn func(resourcesync.Held) error) error {
	if db.absent {
		return nil
	}
	var last *resourcesync.Held
	for {
		var rows pgx.Rows
		var err error
		if last == nil {
			rows, err = db.pool.Query(ctx, `SELECT `+heldColumns+` FROM resources WHERE set_id = $1
				ORDER BY path, uri LIMIT $2`, setID, heldPage)
		} else {
			rows, err = db.pool.Query(ctx, `SELECT `+heldColumns+` FROM resources WHERE set_id = $1 AND (path, uri) > ($2, $3)
				ORDER BY path, uri LIMIT $4`, setID, last.Path, last.URI, heldPage)
		}
		if err != nil {
			return fmt.Errorf("read held of set %d: %w", setID, err)
		}
		page, err := collectHeld(rows)
		if err != nil {
			return fmt.Errorf("read held of set %d: %w", setID, err)
		}
		for _, h := range page {
			if err := fn(h); err != nil {
				return err
			}
		}
		if len(page) < heldPage {
			return nil
		}
		last = &page[len(page)-1]
	}
}

// PathHolders returns the IDs of the sets holding a resource at the mirror
// path p, ascending.
func (db *DB) PathHolders(ctx context.Context, p string) ([]int64, error) {
	if db.absent {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT DISTINCT set_id FROM resources WHERE path = $1 ORDER BY set_id`, p)
	if err != nil {
		return nil, fmt.Errorf("read holders of %s: %w", p, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("read holders of %s: %w", p, err)
	}
	return ids, nil
}

// OtherSetsHold is true: the set jobs of other workers write other sets'
// records while this one runs, so each deletion asks PathHolders.
func (db *DB) OtherSetsHold(context.Context, int64) (bool, error) { return true, nil }

// PathOwners returns, for each of paths at which set setID holds a
// resource, the URI it holds there (the first by URI should two URIs of
// the set share the path); a path the set does not hold is absent.
func (db *DB) PathOwners(ctx context.Context, setID int64, paths []string) (map[string]string, error) {
	out := make(map[string]string)
	if db.absent || len(paths) == 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT path, min(uri) FROM resources WHERE set_id = $1 AND path = ANY($2) GROUP BY path`, setID, paths)
	if err != nil {
		return nil, fmt.Errorf("read the owners of %d paths of set %d: %w", len(paths), setID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var p, uri string
		if err := rows.Scan(&p, &uri); err != nil {
			return nil, fmt.Errorf("read the owners of %d paths of set %d: %w", len(paths), setID, err)
		}
		out[p] = uri
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the owners of %d paths of set %d: %w", len(paths), setID, err)
	}
	return out, nil
}

// HeldAt returns what set setID holds at the mirror path p (the first by
// URI), and whether it holds anything there.
func (db *DB) HeldAt(ctx context.Context, setID int64, p string) (resourcesync.Held, bool, error) {
	if db.absent {
		return resourcesync.Held{}, false, nil
	}
	h, err := scanHeld(db.pool.QueryRow(ctx,
		`SELECT `+heldColumns+` FROM resources WHERE set_id = $1 AND path = $2 ORDER BY uri LIMIT 1`, setID, p))
	if noRows(err) {
		return resourcesync.Held{}, false, nil
	}
	if err != nil {
		return resourcesync.Held{}, false, fmt.Errorf("read held at %s: %w", p, err)
	}
	return h, true, nil
}

// FailureRecords returns the failures recorded for set setID, by URI.
func (db *DB) FailureRecords(ctx context.Context, setID int64) ([]state.FailureRecord, error) {
	if db.absent {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT uri, cause, at, attempts FROM failures WHERE set_id = $1 ORDER BY uri`, setID)
	if err != nil {
		return nil, fmt.Errorf("read failures of set %d: %w", setID, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (state.FailureRecord, error) {
		var f state.FailureRecord
		var at *string
		if err := r.Scan(&f.URI, &f.Cause, &at, &f.Attempts); err != nil {
			return f, err
		}
		var err error
		f.At, err = parseTime(at)
		return f, err
	})
	if err != nil {
		return nil, fmt.Errorf("read failures of set %d: %w", setID, err)
	}
	return out, nil
}

// Failures returns the failures recorded for set setID, by URI.
func (db *DB) Failures(ctx context.Context, setID int64) ([]resourcesync.Failure, error) {
	recs, err := db.FailureRecords(ctx, setID)
	if err != nil {
		return nil, err
	}
	out := make([]resourcesync.Failure, len(recs))
	for i, r := range recs {
		out[i] = r.Failure
	}
	return out, nil
}
