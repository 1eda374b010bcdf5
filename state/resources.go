package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// heldColumns are the columns of a record, in scanHeld's order.
const heldColumns = `uri, path, length, fixity, lastmod, etag, last_modified, fetched, links`

// heldColumnsV4 read a file older than the links column (a read-only
// open, which does not migrate): no record has links.
const heldColumnsV4 = `uri, path, length, fixity, lastmod, etag, last_modified, fetched, NULL`

// heldColumns are the columns this database reads a record from.
func (db *DB) heldColumns() string {
	if db.schema != 0 && db.schema < 5 {
		return heldColumnsV4
	}
	return heldColumns
}

// selectHeld is the hot-path lookup, prepared once at Open.
func selectHeld(cols string) string {
	return `SELECT ` + cols + ` FROM resources WHERE set_id = ? AND uri = ?`
}

// heldPage is how many rows EachHeld reads per query. Reading in pages
// keeps no connection and no read transaction open while the callback runs,
// so a callback may query the DB and a long walk never holds back the WAL
// checkpoint.
const heldPage = 512

// pointCtx readies ctx for a point lookup: it fails if ctx is already done,
// and otherwise drops its cancellation. A lookup takes microseconds, and a
// cancellable context costs more than that: database/sql and the driver
// each watch it from a goroutine of their own, per query.
func pointCtx(ctx context.Context) (context.Context, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return context.WithoutCancel(ctx), nil
}

func scanHeld(sc scanner) (resourcesync.Held, error) {
	var h resourcesync.Held
	var fixity string
	var lastmod, fetched, links sql.NullString
	if err := sc.Scan(&h.URI, &h.Path, &h.Length, &fixity, &lastmod, &h.ETag, &h.LastModified, &fetched, &links); err != nil {
		return h, err
	}
	var errs [4]error
	h.Fixity, errs[0] = resourcesync.ParseHash(fixity)
	h.LastMod, errs[1] = parseTime(lastmod)
	h.Fetched, errs[2] = parseTime(fetched)
	if links.Valid {
		h.Links, errs[3] = DecodeLinks(links.String)
	}
	return h, errors.Join(errs[:]...)
}

// Held returns what set setID holds of the resource uri, and whether it
// holds it. Safe for concurrent use; this is the hot path of every sync (a
// prepared point lookup on the primary key). ctx is checked before the
// lookup, not during it (see pointCtx).
func (db *DB) Held(ctx context.Context, setID int64, uri string) (resourcesync.Held, bool, error) {
	ctx, err := pointCtx(ctx)
	if err != nil {
		return resourcesync.Held{}, false, fmt.Errorf("read held %s: %w", uri, err)
	}
	h, err := scanHeld(db.held.QueryRowContext(ctx, setID, uri))
	if errors.Is(err, sql.ErrNoRows) {
		return resourcesync.Held{}, false, nil
	}
	if err != nil {
		return resourcesync.Held{}, false, fmt.Errorf("read held %s: %w", uri, err)
	}
	return h, true, nil
}

// heldManyChunk is how many URIs one query of HeldMany asks about. The
// statement is prepared once with that many placeholders; a shorter chunk
// pads with "", which no held URI is.
const heldManyChunk = 100

func selectHeldMany(cols string) string {
	return `SELECT ` + cols + ` FROM resources WHERE set_id = ? AND uri IN (` + repeated(`?`, heldManyChunk) + `)`
}

// HeldMany looks up many URIs of set setID at once and returns what is held
// of each, by URI; a URI not held is absent from the map. It asks about
// heldManyChunk URIs per query, so each costs a fraction of a Held call
// (one read transaction and one trip through database/sql per chunk): for
// callers that can gather a few hundred URIs before deciding. Safe for
// concurrent use.
func (db *DB) HeldMany(ctx context.Context, setID int64, uris []string) (map[string]resourcesync.Held, error) {
	out := make(map[string]resourcesync.Held, len(uris))
	err := eachChunk(ctx, setID, uris, func(ctx context.Context, args []any) error {
		return db.heldChunk(ctx, args, out)
	})
	if err != nil {
		return nil, fmt.Errorf("read held of set %d: %w", setID, err)
	}
	return out, nil
}

// eachChunk calls fn with the arguments of each query of a lookup of keys
// in set setID: the set, then heldManyChunk keys, padded with "" (no held
// URI or path is empty). ctx is checked before each query, not during it
// (see pointCtx): a chunk takes well under a millisecond.
func eachChunk(ctx context.Context, setID int64, keys []string, fn func(ctx context.Context, args []any) error) error {
	args := make([]any, 1+heldManyChunk)
	args[0] = setID
	for start := 0; start < len(keys); start += heldManyChunk {
		qctx, err := pointCtx(ctx)
		if err != nil {
			return err
		}
		chunk := keys[start:min(len(keys), start+heldManyChunk)]
		for i := range heldManyChunk {
			args[1+i] = ""
			if i < len(chunk) {
				args[1+i] = chunk[i]
			}
		}
		if err := fn(qctx, args); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) heldChunk(ctx context.Context, args []any, out map[string]resourcesync.Held) error {
	rows, err := db.heldMany.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		h, err := scanHeld(rows)
		if err != nil {
			return err
		}
		out[h.URI] = h
	}
	return rows.Err()
}

// HeldCount returns how many resources set setID holds. Safe for
// concurrent use.
func (db *DB) HeldCount(ctx context.Context, setID int64) (int64, error) {
	var n int64
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM resources WHERE set_id = ?`, setID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count held of set %d: %w", setID, err)
	}
	return n, nil
}

// EachHeld calls fn for every resource set setID holds, in path order
// (byte order; URI order among equal paths), and stops at the first error,
// which it returns (fn's unwrapped). It reads in pages, holding nothing
// open while fn runs, so fn may use the DB; a walk concurrent with Commits
// sees each page as of its own read, not one snapshot. Safe for concurrent
// use.
func (db *DB) EachHeld(ctx context.Context, setID int64, fn func(resourcesync.Held) error) error {
	first := `SELECT ` + db.heldColumns() + ` FROM resources WHERE set_id = ?
		ORDER BY path, uri LIMIT ?`
	next := `SELECT ` + db.heldColumns() + ` FROM resources WHERE set_id = ? AND (path, uri) > (?, ?)
		ORDER BY path, uri LIMIT ?`
	page := make([]resourcesync.Held, 0, heldPage)
	for {
		var rows *sql.Rows
		var err error
		if len(page) == 0 {
			rows, err = db.read.QueryContext(ctx, first, setID, heldPage)
		} else {
			last := page[len(page)-1]
			rows, err = db.read.QueryContext(ctx, next, setID, last.Path, last.URI, heldPage)
		}
		if err != nil {
			return fmt.Errorf("read held of set %d: %w", setID, err)
		}
		page = page[:0]
		for rows.Next() {
			h, err := scanHeld(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("read held of set %d: %w", setID, err)
			}
			page = append(page, h)
		}
		err = rows.Err()
		rows.Close()
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
	}
}

// selectPathHolders is asked before every file a deletion removes,
// prepared once at Open: parsing and planning it for each call cost more
// than running it.
const selectPathHolders = `SELECT s.id FROM sets s
	WHERE EXISTS (SELECT 1 FROM resources r WHERE r.set_id = s.id AND r.path = ?) ORDER BY s.id`

// PathHolders returns the IDs of the sets holding a resource at the mirror
// path p, in ascending order, so that one set's --delete never removes a
// file that another set holds. Safe for concurrent use. ctx is checked
// before the lookup, not during it (see pointCtx).
func (db *DB) PathHolders(ctx context.Context, p string) ([]int64, error) {
	ctx, err := pointCtx(ctx)
	if err != nil {
		return nil, fmt.Errorf("read holders of %s: %w", p, err)
	}
	rows, err := db.pathHolders.QueryContext(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("read holders of %s: %w", p, err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read holders of %s: %w", p, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read holders of %s: %w", p, err)
	}
	return ids, nil
}

// OtherSetsHold reports whether a set other than setID holds a resource.
// Only the process holding the mirror's lock writes the state, and it runs
// one set at a time, so the answer stands while setID's run lasts. Safe
// for concurrent use.
func (db *DB) OtherSetsHold(ctx context.Context, setID int64) (bool, error) {
	ctx, err := pointCtx(ctx)
	if err != nil {
		return false, fmt.Errorf("look up the sets other than %d: %w", setID, err)
	}
	var held bool
	// One probe of (set_id, path) per set: a Source has a few sets.
	if err := db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sets s WHERE s.id <> ?
		AND EXISTS (SELECT 1 FROM resources r WHERE r.set_id = s.id))`, setID).Scan(&held); err != nil {
		return false, fmt.Errorf("look up the sets other than %d: %w", setID, err)
	}
	return held, nil
}

// PathOwners returns, for each of paths at which set setID holds a
// resource, the URI it holds there (the first by URI should two URIs of
// the set share the path); a path the set does not hold is absent. Two
// URIs that map to one file (percent-encoding twins) are one file: the
// engine refuses the second while the first is held. Safe for concurrent
// use.
func (db *DB) PathOwners(ctx context.Context, setID int64, paths []string) (map[string]string, error) {
	out := make(map[string]string)
	err := eachChunk(ctx, setID, paths, func(ctx context.Context, args []any) error {
		return db.pathOwnersChunk(ctx, args, out)
	})
	if err != nil {
		return nil, fmt.Errorf("read the owners of %d paths of set %d: %w", len(paths), setID, err)
	}
	return out, nil
}

// selectPathOwners is PathOwners' query, prepared once at Open with
// heldManyChunk placeholders, as HeldMany's is.
func selectPathOwners() string {
	return `SELECT path, min(uri) FROM resources WHERE set_id = ? AND path IN (` + repeated(`?`, heldManyChunk) + `) GROUP BY path`
}

func (db *DB) pathOwnersChunk(ctx context.Context, args []any, out map[string]string) error {
	rows, err := db.pathOwners.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p, uri string
		if err := rows.Scan(&p, &uri); err != nil {
			return err
		}
		out[p] = uri
	}
	return rows.Err()
}

// HeldAt returns what set setID holds at the mirror path p (the first by
// URI should two URIs of the set share it), and whether it holds anything
// there. Safe for concurrent use.
func (db *DB) HeldAt(ctx context.Context, setID int64, p string) (resourcesync.Held, bool, error) {
	h, err := scanHeld(db.read.QueryRowContext(ctx,
		`SELECT `+db.heldColumns()+` FROM resources WHERE set_id = ? AND path = ? ORDER BY uri LIMIT 1`, setID, p))
	if errors.Is(err, sql.ErrNoRows) {
		return resourcesync.Held{}, false, nil
	}
	if err != nil {
		return resourcesync.Held{}, false, fmt.Errorf("read held at %s: %w", p, err)
	}
	return h, true, nil
}

// FailureRecord is a recorded failure with the number of runs (Commits)
// that recorded it since the resource was last brought in step.
type FailureRecord struct {
	resourcesync.Failure
	Attempts int64
}

// FailureRecords returns the failures recorded for set setID, by URI.
// Safe for concurrent use.
func (db *DB) FailureRecords(ctx context.Context, setID int64) ([]FailureRecord, error) {
	rows, err := db.read.QueryContext(ctx,
		`SELECT uri, cause, at, attempts FROM failures WHERE set_id = ? ORDER BY uri`, setID)
	if err != nil {
		return nil, fmt.Errorf("read failures of set %d: %w", setID, err)
	}
	defer rows.Close()
	var out []FailureRecord
	for rows.Next() {
		var f FailureRecord
		var at sql.NullString
		if err := rows.Scan(&f.URI, &f.Cause, &at, &f.Attempts); err != nil {
			return nil, fmt.Errorf("read failures of set %d: %w", setID, err)
		}
		if f.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("read failures of set %d: %w", setID, err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read failures of set %d: %w", setID, err)
	}
	return out, nil
}

// Failures returns the failures recorded for set setID, by URI: resources
// to retry. Safe for concurrent use.
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
