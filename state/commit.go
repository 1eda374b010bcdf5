package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Batch is what one Commit records for one set, all or nothing. The caller
// builds it from results whose data is already durable on disk.
//
// Within a batch the parts apply in this order: Held, Removed, Failed,
// Changes, ListsDone, Baseline, Cursor. A change recorded as applied
// clears its URI's failure, unless the batch records a failure of it. A URI both in Held and in Removed
// thus ends up not held: if the batch cannot tell which came last, the
// state errs on claiming less than the disk holds, never more.
type Batch = resourcesync.Batch

// ListDone names a closed change document fully processed.
type ListDone = resourcesync.ListDone

// Baseline is a finished baseline: the at and completed of the Resource
// List (or Dump) it made the mirror equal to, and how ("list" or "dump").
// The cursor moves up to At when it is unset or older; a Cursor in the same
// batch applies after, so it wins.
type Baseline = resourcesync.BaselinePoint

func empty(b *Batch) bool { return b == nil || b.Empty() }

// Commit records b for set setID in one transaction: either all of it is
// recorded or, on any error (an invalid record, which wraps ErrInvalid; an
// unknown set, ErrUnknownSet; a disk error), none of it. Call it only after
// the data the batch describes is durable on disk. An empty batch is a
// no-op. Returns ErrReadOnly in read-only mode. Safe for concurrent use;
// commits are serialised.
//
// ctx is checked before the transaction begins (a done ctx records
// nothing), not during it: once begun, a commit runs to its end, a matter
// of milliseconds (plus the busy timeout if another process holds the
// lock). So a run being cancelled still records the work it already made
// durable, and the statements skip the per-statement goroutine a
// cancellable context costs in the driver (half as much CPU again).
func (db *DB) Commit(ctx context.Context, setID int64, b *Batch) error {
	w, err := db.writer("commit")
	if err != nil {
		return err
	}
	if empty(b) {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("commit to set %d: %w", setID, err)
	}
	ctx = context.WithoutCancel(ctx)
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("commit to set %d: %w", setID, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	c := committer{ctx: ctx, tx: tx, set: setID, now: formatTime(db.now())}
	if err := c.apply(b); err != nil {
		return fmt.Errorf("commit to set %d: %w", setID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit to set %d: %w", setID, err)
	}
	return nil
}

// committer applies the parts of one Batch inside its transaction.
type committer struct {
	ctx context.Context
	tx  *sql.Tx
	set int64
	now string
	// failures: the set has recorded failures, so Held and Removed must
	// clear them. Usually it has none, and each record then costs one
	// statement instead of two. Failed applies after both, so it cannot
	// change during them.
	failures bool
}

func (c *committer) apply(b *Batch) error {
	err := c.tx.QueryRowContext(c.ctx,
		`SELECT EXISTS (SELECT 1 FROM failures WHERE set_id = s.id) FROM sets s WHERE s.id = ?`, c.set).Scan(&c.failures)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrUnknownSet
	}
	if err != nil {
		return err
	}
	for _, step := range []func(*Batch) error{
		c.held, c.removed, c.failed, c.changes, c.listsDone, c.baseline, c.cursor,
	} {
		if err := step(b); err != nil {
			return err
		}
	}
	return nil
}

// each prepares the statements and runs fn for each of n records.
func (c *committer) each(n int, queries []string, fn func(i int, stmts []*sql.Stmt) error) error {
	if n == 0 {
		return nil
	}
	stmts := make([]*sql.Stmt, len(queries))
	for i, q := range queries {
		st, err := c.tx.PrepareContext(c.ctx, q)
		if err != nil {
			return err
		}
		defer st.Close()
		stmts[i] = st
	}
	for i := range n {
		if err := fn(i, stmts); err != nil {
			return err
		}
	}
	return nil
}

const clearFailure = `DELETE FROM failures WHERE set_id = ? AND uri = ?`

// held upserts the records of resources held. A record whose path stays
// is updated without naming path in its SET: SQLite rewrites the entry of
// every index on a column the SET names, changed or not, and the path's
// index entries lie as scattered as the URIs - an update then wrote two
// pages instead of one (2,000 updates of a 200,000-record state: 3,600
// WAL frames, 1,700 without path). A record whose path changed (a new
// mapping) is updated in full by a second statement.
func (c *committer) held(b *Batch) error {
	return c.each(len(b.Held), []string{`
		INSERT INTO resources (set_id, uri, path, length, fixity, lastmod, etag, last_modified, fetched, links)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (set_id, uri) DO UPDATE SET
			length = excluded.length, fixity = excluded.fixity,
			lastmod = excluded.lastmod, etag = excluded.etag,
			last_modified = excluded.last_modified, fetched = excluded.fetched, links = excluded.links
		WHERE resources.path = excluded.path`,
		clearFailure, `
		UPDATE resources SET path = ?3, length = ?4, fixity = ?5, lastmod = ?6, etag = ?7,
			last_modified = ?8, fetched = ?9, links = ?10
		WHERE set_id = ?1 AND uri = ?2`,
	}, func(i int, st []*sql.Stmt) error {
		h := b.Held[i]
		fixity, err := checkHeld(h)
		if err != nil {
			return fmt.Errorf("held %d (%s): %w", i, h.URI, err)
		}
		links, err := EncodeLinks(h.Links)
		if err != nil {
			return fmt.Errorf("held %d (%s): %w", i, h.URI, err)
		}
		fetched := c.now
		if !h.Fetched.IsZero() {
			fetched = formatTime(h.Fetched)
		}
		args := []any{c.set, h.URI, h.Path, h.Length, fixity, nullTime(h.LastMod), h.ETag, h.LastModified, fetched, links}
		res, err := st[0].ExecContext(c.ctx, args...)
		if err != nil {
			return fmt.Errorf("record held %s: %w", h.URI, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("record held %s: %w", h.URI, err)
		} else if n == 0 { // held at another path: the upsert's WHERE left it
			if _, err := st[2].ExecContext(c.ctx, args...); err != nil {
				return fmt.Errorf("record held %s: %w", h.URI, err)
			}
		}
		if !c.failures {
			return nil
		}
		if _, err := st[1].ExecContext(c.ctx, c.set, h.URI); err != nil {
			return fmt.Errorf("clear failure of %s: %w", h.URI, err)
		}
		return nil
	})
}

// checkHeld validates h and returns its fixity as stored; the stored form
// must parse back, or every later read of the row would fail.
func checkHeld(h resourcesync.Held) (string, error) {
	switch {
	case h.URI == "":
		return "", fmt.Errorf("%w: empty URI", ErrInvalid)
	case h.Path == "":
		return "", fmt.Errorf("%w: empty path", ErrInvalid)
	case h.Length < 0:
		return "", fmt.Errorf("%w: negative length %d", ErrInvalid, h.Length)
	}
	s := h.Fixity.String()
	if _, err := resourcesync.ParseHash(s); err != nil {
		return "", fmt.Errorf("%w: fixity: %w", ErrInvalid, err)
	}
	return s, nil
}

func (c *committer) removed(b *Batch) error {
	return c.each(len(b.Removed), []string{
		`DELETE FROM resources WHERE set_id = ? AND uri = ?`,
		clearFailure,
	}, func(i int, st []*sql.Stmt) error {
		uri := b.Removed[i]
		if uri == "" {
			return fmt.Errorf("removed %d: %w: empty URI", i, ErrInvalid)
		}
		if _, err := st[0].ExecContext(c.ctx, c.set, uri); err != nil {
			return fmt.Errorf("record removal of %s: %w", uri, err)
		}
		if !c.failures {
			return nil
		}
		if _, err := st[1].ExecContext(c.ctx, c.set, uri); err != nil {
			return fmt.Errorf("clear failure of %s: %w", uri, err)
		}
		return nil
	})
}

func (c *committer) failed(b *Batch) error {
	return c.each(len(b.Failed), []string{`
		INSERT INTO failures (set_id, uri, cause, at, attempts) VALUES (?, ?, ?, ?, 1)
		ON CONFLICT (set_id, uri) DO UPDATE SET
			cause = excluded.cause, at = excluded.at, attempts = failures.attempts + 1`,
	}, func(i int, st []*sql.Stmt) error {
		f := b.Failed[i]
		if f.URI == "" {
			return fmt.Errorf("failure %d: %w: empty URI", i, ErrInvalid)
		}
		at := c.now
		if !f.At.IsZero() {
			at = formatTime(f.At)
		}
		if _, err := st[0].ExecContext(c.ctx, c.set, f.URI, f.Cause, at); err != nil {
			return fmt.Errorf("record failure of %s: %w", f.URI, err)
		}
		return nil
	})
}

// changes records the changes processed. A change applied settles its
// resource, and so its recorded failure: a deletion of a resource never
// held (its fetch failed, since it was gone) removes nothing, yet the
// resource is no longer to retry. A failure of the same batch stays.
func (c *committer) changes(b *Batch) error {
	var failedNow map[string]bool
	if c.failures && len(b.Failed) > 0 {
		failedNow = make(map[string]bool, len(b.Failed))
		for _, f := range b.Failed {
			failedNow[f.URI] = true
		}
	}
	return c.each(len(b.Changes), []string{`
		INSERT INTO changes (set_id, uri, change, time, list, position, failed, cause, recorded)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (set_id, uri, time, change) DO UPDATE SET
			list = excluded.list, position = excluded.position, failed = excluded.failed,
			cause = excluded.cause, recorded = excluded.recorded`,
		clearFailure,
	}, func(i int, st []*sql.Stmt) error {
		ch := b.Changes[i]
		switch {
		case ch.URI == "":
			return fmt.Errorf("change %d: %w: empty URI", i, ErrInvalid)
		case ch.Position < 0:
			return fmt.Errorf("change %d (%s): %w: negative position %d", i, ch.URI, ErrInvalid, ch.Position)
		}
		if _, err := st[0].ExecContext(c.ctx, c.set, ch.URI, string(ch.Change), keyTime(ch.Time),
			ch.List, ch.Position, ch.Failed, ch.Cause, c.now); err != nil {
			return fmt.Errorf("record change of %s: %w", ch.URI, err)
		}
		if !c.failures || ch.Failed || failedNow[ch.URI] {
			return nil
		}
		if _, err := st[1].ExecContext(c.ctx, c.set, ch.URI); err != nil {
			return fmt.Errorf("clear failure of %s: %w", ch.URI, err)
		}
		return nil
	})
}

func (c *committer) listsDone(b *Batch) error {
	return c.each(len(b.ListsDone), []string{`
		INSERT INTO lists_done (set_id, url, from_time, until_time, done) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (set_id, url) DO UPDATE SET
			from_time = excluded.from_time, until_time = excluded.until_time, done = excluded.done`,
	}, func(i int, st []*sql.Stmt) error {
		l := b.ListsDone[i]
		if l.URL == "" {
			return fmt.Errorf("list done %d: %w: empty URL", i, ErrInvalid)
		}
		if _, err := st[0].ExecContext(c.ctx, c.set, l.URL, nullTime(l.From), nullTime(l.Until), c.now); err != nil {
			return fmt.Errorf("record list done %s: %w", l.URL, err)
		}
		return nil
	})
}

func (c *committer) baseline(b *Batch) error {
	if b.Baseline == nil {
		return nil
	}
	at := nullTime(b.Baseline.At)
	// Text comparison is chronological (timetext.go); a NULL at leaves the
	// cursor alone.
	_, err := c.tx.ExecContext(c.ctx, `
		UPDATE sets SET baseline_at = ?, baseline_completed = ?, via = ?,
			cursor = CASE WHEN ? IS NOT NULL AND (cursor IS NULL OR cursor < ?) THEN ? ELSE cursor END
		WHERE id = ?`,
		at, nullTime(b.Baseline.Completed), b.Baseline.Via, at, at, at, c.set)
	if err != nil {
		return fmt.Errorf("record baseline: %w", err)
	}
	return nil
}

func (c *committer) cursor(b *Batch) error {
	if b.Cursor == nil {
		return nil
	}
	if _, err := c.tx.ExecContext(c.ctx, `UPDATE sets SET cursor = ? WHERE id = ?`, nullTime(*b.Cursor), c.set); err != nil {
		return fmt.Errorf("record cursor: %w", err)
	}
	return nil
}
