package pgstate

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// Commit records b for set setID in one transaction, all or nothing, as
// the SQLite state does (state.DB.Commit: the parts apply in the order
// Held, Removed, Failed, Changes, ListsDone, Baseline, Cursor). A fenced
// DB first checks its lease; a write refused wraps ErrFenced. An invalid
// record wraps state.ErrInvalid, an unknown set state.ErrUnknownSet. The
// statements go to the server in one round trip (a pgx batch). ctx is
// checked before the transaction begins, not during it.
func (db *DB) Commit(ctx context.Context, setID int64, b *resourcesync.Batch) error {
	if db.readOnly {
		return fmt.Errorf("commit: %w", state.ErrReadOnly)
	}
	if b == nil || b.Empty() {
		return nil
	}
	q, err := db.commitBatch(setID, b)
	if err != nil {
		return fmt.Errorf("commit to set %d: %w", setID, err)
	}
	return db.writeTx(ctx, fmt.Sprintf("commit to set %d", setID), func(tx pgx.Tx) error {
		ctx := context.WithoutCancel(ctx)
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM sets WHERE id = $1 FOR SHARE`, setID).Scan(&one); noRows(err) {
			return state.ErrUnknownSet
		} else if err != nil {
			return err
		}
		return tx.SendBatch(ctx, q).Close()
	})
}

// commitBatch checks b's records and queues its statements.
func (db *DB) commitBatch(set int64, b *resourcesync.Batch) (*pgx.Batch, error) {
	now := formatTime(db.now())
	q := &pgx.Batch{}
	for i, h := range b.Held {
		fixity, err := checkHeld(h)
		if err != nil {
			return nil, fmt.Errorf("held %d (%s): %w", i, h.URI, err)
		}
		links, err := state.EncodeLinks(h.Links)
		if err != nil {
			return nil, fmt.Errorf("held %d (%s): %w", i, h.URI, err)
		}
		fetched := now
		if !h.Fetched.IsZero() {
			fetched = formatTime(h.Fetched)
		}
		q.Queue(`INSERT INTO resources (set_id, uri, path, length, fixity, lastmod, etag, last_modified, fetched, links)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			ON CONFLICT (set_id, uri) DO UPDATE SET
				path = excluded.path, length = excluded.length, fixity = excluded.fixity,
				lastmod = excluded.lastmod, etag = excluded.etag,
				last_modified = excluded.last_modified, fetched = excluded.fetched, links = excluded.links`,
			set, h.URI, h.Path, h.Length, fixity, nullTime(h.LastMod), h.ETag, h.LastModified, fetched, links)
		q.Queue(`DELETE FROM failures WHERE set_id = $1 AND uri = $2`, set, h.URI)
	}
	for i, uri := range b.Removed {
		if uri == "" {
			return nil, fmt.Errorf("removed %d: %w: empty URI", i, state.ErrInvalid)
		}
		q.Queue(`DELETE FROM resources WHERE set_id = $1 AND uri = $2`, set, uri)
		q.Queue(`DELETE FROM failures WHERE set_id = $1 AND uri = $2`, set, uri)
	}
	for i, f := range b.Failed {
		if f.URI == "" {
			return nil, fmt.Errorf("failure %d: %w: empty URI", i, state.ErrInvalid)
		}
		at := now
		if !f.At.IsZero() {
			at = formatTime(f.At)
		}
		q.Queue(`INSERT INTO failures (set_id, uri, cause, at, attempts) VALUES ($1, $2, $3, $4, 1)
			ON CONFLICT (set_id, uri) DO UPDATE SET
				cause = excluded.cause, at = excluded.at, attempts = failures.attempts + 1`,
			set, f.URI, f.Cause, at)
	}
	// A change applied settles its resource, and so its failure - held or
	// not (the deletion of a resource whose fetch failed) - unless the
	// batch records a failure of it (state.DB's rule).
	failedNow := make(map[string]bool, len(b.Failed))
	for _, f := range b.Failed {
		failedNow[f.URI] = true
	}
	for i, ch := range b.Changes {
		switch {
		case ch.URI == "":
			return nil, fmt.Errorf("change %d: %w: empty URI", i, state.ErrInvalid)
		case ch.Position < 0:
			return nil, fmt.Errorf("change %d (%s): %w: negative position %d", i, ch.URI, state.ErrInvalid, ch.Position)
		}
		q.Queue(`INSERT INTO changes (set_id, uri, change, time, list, position, failed, cause, recorded)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (set_id, uri, time, change) DO UPDATE SET
				list = excluded.list, position = excluded.position, failed = excluded.failed,
				cause = excluded.cause, recorded = excluded.recorded`,
			set, ch.URI, string(ch.Change), keyTime(ch.Time), ch.List, ch.Position, ch.Failed, ch.Cause, now)
		if !ch.Failed && !failedNow[ch.URI] {
			q.Queue(`DELETE FROM failures WHERE set_id = $1 AND uri = $2`, set, ch.URI)
		}
	}
	for i, l := range b.ListsDone {
		if l.URL == "" {
			return nil, fmt.Errorf("list done %d: %w: empty URL", i, state.ErrInvalid)
		}
		q.Queue(`INSERT INTO lists_done (set_id, url, from_time, until_time, done) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (set_id, url) DO UPDATE SET
				from_time = excluded.from_time, until_time = excluded.until_time, done = excluded.done`,
			set, l.URL, nullTime(l.From), nullTime(l.Until), now)
	}
	if bp := b.Baseline; bp != nil {
		at := nullTime(bp.At)
		// Text comparison is chronological; a NULL at leaves the cursor.
		q.Queue(`UPDATE sets SET baseline_at = $1, baseline_completed = $2, via = $3,
				cursor = CASE WHEN $1::text IS NOT NULL AND (cursor IS NULL OR cursor < $1::text) THEN $1::text ELSE cursor END
			WHERE id = $4`, at, nullTime(bp.Completed), bp.Via, set)
	}
	if b.Cursor != nil {
		q.Queue(`UPDATE sets SET cursor = $1 WHERE id = $2`, nullTime(*b.Cursor), set)
	}
	return q, nil
}

// checkHeld validates h and returns its fixity as stored.
func checkHeld(h resourcesync.Held) (string, error) {
	switch {
	case h.URI == "":
		return "", fmt.Errorf("%w: empty URI", state.ErrInvalid)
	case h.Path == "":
		return "", fmt.Errorf("%w: empty path", state.ErrInvalid)
	case h.Length < 0:
		return "", fmt.Errorf("%w: negative length %d", state.ErrInvalid, h.Length)
	}
	s := h.Fixity.String()
	if _, err := resourcesync.ParseHash(s); err != nil {
		return "", fmt.Errorf("%w: fixity: %w", state.ErrInvalid, err)
	}
	return s, nil
}
