package state

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Backlog is a set's change history since its cursor, spilled to a
// temporary SQLite file for one incremental run, so that memory does not
// grow with the number of changes: the run streams the Change Lists into
// it (Add), with what earlier runs recorded (Applied, Retry), and then
// reads back one unit of work per resource (Units), in the order the
// units are to be applied. Like Listing it never touches the state
// database and is deleted on Close.
//
// The order of a history is that of its lists, and within a list forward
// chronological, equal times in document order (§12.1; a list that breaks
// the order is sorted here). A resource's Final change is its last in that
// order.
//
// A Backlog is for one goroutine at a time. Add and Applied must all come
// before the first Units, Deletions or PendingPerList, which seals it.
type Backlog struct {
	file     string
	db       *sql.DB
	tx       *sql.Tx   // the load, in one transaction
	addMany  *sql.Stmt // addBatch changes
	addNew   *sql.Stmt // one change, unless it is recorded as applied
	added    []any     // arguments of the changes added not yet inserted (addRow each)
	applied  []any     // records of applied changes not yet inserted (uri, kind, at)...
	n        int64     // changes added
	listAt   string
	list     int
	unsorted bool // a list broke chronological order
	sealed   bool
	closed   bool
}

// backlogPage is how many units Units reads per query.
const backlogPage = 512

// NewBacklog creates an empty Backlog in a new temporary file in dir
// (os.TempDir() when dir is ""). A process that dies leaves the file
// behind, named resync-dest-backlog-*.db.
func NewBacklog(dir string) (*Backlog, error) {
	// No journal at all: the Backlog is written once and then read.
	db, abs, err := newScratch(dir, "backlog", "OFF", "-8192")
	if err != nil {
		return nil, err
	}
	b := &Backlog{file: abs, db: db, list: -1}
	if err := b.create(); err != nil {
		db.Close()
		os.Remove(abs)
		return nil, fmt.Errorf("create backlog %s: %w", abs, err)
	}
	return b, nil
}

func (b *Backlog) create() error {
	// ord is the place of a change in the order the history applies, and
	// its rowid: a unit's final change is found by it directly. at and
	// lastmod are stored times (timetext.go), so text order is time order.
	if _, err := b.db.Exec(`
		CREATE TABLE changes (
			ord     INTEGER PRIMARY KEY,
			uri     TEXT NOT NULL,
			kind    TEXT NOT NULL,
			at      TEXT NOT NULL,
			list    INTEGER NOT NULL,
			pos     INTEGER NOT NULL,
			lastmod TEXT,
			fixity  TEXT NOT NULL,
			length  INTEGER, -- NULL when not given
			links   TEXT,    -- JSON of Pending.Links; NULL when none
			companion INTEGER NOT NULL,
			done    INTEGER NOT NULL
		);
		-- Keyed as the state keys its records: it hands them over in that
		-- order (EachApplied), so they append.
		CREATE TABLE applied (
			uri  TEXT NOT NULL,
			kind TEXT NOT NULL,
			at   TEXT NOT NULL,
			PRIMARY KEY (uri, at, kind)
		) WITHOUT ROWID;
		CREATE TABLE retry (uri TEXT PRIMARY KEY) WITHOUT ROWID;`); err != nil {
		return err
	}
	tx, err := b.db.Begin()
	if err != nil {
		return err
	}
	b.tx = tx
	b.addMany, err = tx.Prepare(addQuery(addBatch))
	if err != nil {
		return err
	}
	b.addNew, err = tx.Prepare(`INSERT INTO changes (ord, uri, kind, at, list, pos, lastmod, fixity, length, links, companion, done)
		SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0
		WHERE NOT EXISTS (SELECT 1 FROM applied WHERE uri = ?2 AND at = ?4 AND kind = ?3)`)
	return err
}

// addBatch is how many changes one statement of Add inserts: a statement
// per change is a call into SQLite per change (the apply of 180,000
// profiled 1.6 CPU-s in Add with one each, 1.4 with 64; SQLite's own work
// is most of the rest).
const addBatch = 64

// addRow is how many arguments addQuery takes per change: the columns
// but done, then the URI, time and kind that decide it.
const addRow = 14

// addQuery inserts n changes, each done when recorded as applied.
func addQuery(n int) string {
	const row = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, EXISTS (SELECT 1 FROM applied WHERE uri = ? AND at = ? AND kind = ?))`
	return `INSERT INTO changes (ord, uri, kind, at, list, pos, lastmod, fixity, length, links, companion, done)
		VALUES ` + repeated(row, n)
}

// usable fails when the Backlog is closed or sealed (for loading).
func (b *Backlog) loading(op string) error {
	switch {
	case b.closed:
		return fmt.Errorf("backlog %s: %w", op, fs.ErrClosed)
	case b.sealed:
		return fmt.Errorf("backlog %s: %w: the backlog is sealed", op, ErrInvalid)
	}
	return nil
}

// Applied records that an earlier run recorded the change ch of uri at t
// as applied. Call it before adding the changes.
func (b *Backlog) Applied(uri string, ch resourcesync.Change, t time.Time) error {
	if err := b.loading("applied"); err != nil {
		return err
	}
	if err := b.flushAdded(); err != nil {
		return err
	}
	b.applied = append(b.applied, uri, string(ch), keyTime(t))
	if len(b.applied) < 3*appliedBatch {
		return nil
	}
	return b.flushApplied()
}

// appliedBatch is how many records of applied changes one statement
// inserts: a run reads every record kept, thousands for an open list read
// again, and one statement each costs a call into SQLite each.
const appliedBatch = 200

// flushApplied inserts the records of applied changes gathered.
func (b *Backlog) flushApplied() error {
	n := len(b.applied) / 3
	if n == 0 {
		return nil
	}
	q := `INSERT OR IGNORE INTO applied (uri, kind, at) VALUES ` + repeated(`(?, ?, ?)`, n)
	if _, err := b.tx.Exec(q, b.applied...); err != nil {
		return fmt.Errorf("backlog %s: applied: %w", b.file, err)
	}
	b.applied = b.applied[:0]
	return nil
}

// Retry records a failure of uri an earlier run recorded: the resource is
// tried again even when no change names it, unless the history shows it
// gone.
func (b *Backlog) Retry(uri string) error {
	if err := b.loading("retry"); err != nil {
		return err
	}
	if _, err := b.tx.Exec(`INSERT OR IGNORE INTO retry (uri) VALUES (?)`, uri); err != nil {
		return fmt.Errorf("backlog %s: retry %s: %w", b.file, uri, err)
	}
	return nil
}

// Add appends a change of the history. Lists come in order (List never
// decreases), each list's changes in document order (Position); whether
// the change is done is decided from what Applied recorded (c.Done is
// ignored). Changes are inserted addBatch at a time: an error of the
// insert may be returned by a later call.
func (b *Backlog) Add(c resourcesync.Pending) error {
	var err error
	if b.added, err = b.row(b.added, c); err != nil {
		return err
	}
	args := b.added[len(b.added)-addRow+3:]
	b.added = append(b.added, args[1], args[3], args[2]) // uri, at, kind
	b.n++
	if len(b.added) < addRow*addBatch {
		return nil
	}
	return b.flushAdded()
}

// flushAdded inserts the changes Add gathered.
func (b *Backlog) flushAdded() error {
	n := len(b.added) / addRow
	if n == 0 {
		return nil
	}
	var err error
	if n == addBatch {
		_, err = b.addMany.Exec(b.added...)
	} else {
		_, err = b.tx.Exec(addQuery(n), b.added...)
	}
	if err != nil {
		return fmt.Errorf("backlog %s: add: %w", b.file, err)
	}
	clear(b.added)
	b.added = b.added[:0]
	return nil
}

// AddUnapplied appends a change, as Add does, only when it is not recorded
// as applied, and reports whether it did: a change dated before the
// cursor is history already processed unless it was never applied (a
// Source that broke chronological order listed it late).
func (b *Backlog) AddUnapplied(c resourcesync.Pending) (bool, error) {
	args, err := b.row(nil, c)
	if err != nil {
		return false, err
	}
	if err := b.flushAdded(); err != nil { // the changes before it come first
		return false, err
	}
	res, err := b.addNew.Exec(args...)
	if err != nil {
		return false, fmt.Errorf("backlog %s: add %s: %w", b.file, c.URI, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("backlog %s: add %s: %w", b.file, c.URI, err)
	}
	b.n += n
	return n == 1, nil
}

// row checks c and appends its columns (ord to companion) to dst, with
// the change as the next in order (ord b.n+1); on an error dst is
// returned as it was.
func (b *Backlog) row(dst []any, c resourcesync.Pending) ([]any, error) {
	if err := b.loading("add"); err != nil {
		return nil, err
	}
	if err := b.flushApplied(); err != nil {
		return nil, err
	}
	at := keyTime(c.Time)
	switch {
	case c.URI == "":
		return nil, fmt.Errorf("backlog add: %w: empty URI", ErrInvalid)
	case c.List < b.list:
		return nil, fmt.Errorf("backlog add %s: %w: list %d after list %d", c.URI, ErrInvalid, c.List, b.list)
	case c.List > b.list:
		b.list, b.listAt = c.List, at
	case at < b.listAt:
		b.unsorted = true
	default:
		b.listAt = at
	}
	var length any
	if c.Version.HasLength {
		length = c.Version.Length
	}
	var links any
	if len(c.Links) > 0 {
		j, err := json.Marshal(c.Links)
		if err != nil {
			return nil, fmt.Errorf("backlog add %s: links: %w", c.URI, err)
		}
		links = string(j)
	}
	return append(dst, b.n+1, c.URI, string(c.Change), at, c.List, c.Position,
		nullTime(c.Version.LastMod), c.Version.Fixity.String(), length, links, c.Companion), nil
}

// seal ends the load and makes the units: one per resource with a change
// not done, plus one per failure to retry that the history does not show
// gone.
func (b *Backlog) seal() error {
	if b.closed {
		return fmt.Errorf("backlog: %w", fs.ErrClosed)
	}
	if b.sealed {
		return nil
	}
	b.sealed = true
	err := errors.Join(b.flushApplied(), b.flushAdded())
	b.addMany.Close()
	b.addNew.Close()
	if err == nil {
		err = b.build()
	}
	if err != nil {
		b.tx.Rollback() //nolint:errcheck // the error that matters is err
		return fmt.Errorf("backlog %s: %w", b.file, err)
	}
	if err := b.tx.Commit(); err != nil {
		return fmt.Errorf("backlog %s: %w", b.file, err)
	}
	b.tx = nil
	return nil
}

func (b *Backlog) build() error {
	var steps []string
	if b.unsorted {
		// A Source broke chronological order within a list: place each
		// change by (list, time, position).
		// ord is unique: the new places are taken negative first, so
		// that no row takes one another still holds.
		steps = append(steps, `UPDATE changes SET ord = -r.rn FROM (
			SELECT ord AS id, row_number() OVER (ORDER BY list, at, pos) AS rn FROM changes) AS r
			WHERE changes.ord = r.id`, `UPDATE changes SET ord = -ord`)
	}
	steps = append(steps,
		`CREATE INDEX changes_uri ON changes (uri, ord)`,
		// phase 0: failures retried alone, first; then by URI, so that the
		// mirror's directories are visited one after another (see Units).
		`CREATE TABLE units (
			uri      TEXT PRIMARY KEY,
			phase    INTEGER NOT NULL,
			first    INTEGER NOT NULL, -- ord of its first pending change (0 for none)
			final    INTEGER,          -- ord of its last change; NULL when no change names it
			npending INTEGER NOT NULL,
			retry    INTEGER NOT NULL
		) WITHOUT ROWID`,
		`INSERT INTO units (uri, phase, first, final, npending, retry)
			SELECT uri, 1, coalesce(min(CASE WHEN done = 0 THEN ord END), 0), max(ord), sum(done = 0), 0
			FROM changes GROUP BY uri`,
		// A failure of a resource with pending changes: its changes bring
		// it in step. One whose last change is a deletion: gone, nothing
		// to fetch. Any other: retried alone.
		`UPDATE units SET retry = 1 WHERE uri IN (SELECT uri FROM retry) AND (npending > 0 OR
			(SELECT kind FROM changes c WHERE c.uri = units.uri AND c.ord = units.final) <> 'deleted')`,
		`UPDATE units SET phase = 0 WHERE npending = 0 AND retry = 1`,
		`INSERT INTO units (uri, phase, first, final, npending, retry)
			SELECT uri, 0, 0, NULL, 0, 1 FROM retry WHERE uri NOT IN (SELECT uri FROM units)`,
		`DELETE FROM units WHERE npending = 0 AND retry = 0`,
		// Covering: Units reads a unit from the index alone.
		`CREATE INDEX units_order ON units (phase, uri, first, npending, retry, final)`,
	)
	for _, q := range steps {
		if _, err := b.tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// Counts returns how many changes were added and how many of them were
// done.
func (b *Backlog) Counts() (changes, done int64, err error) {
	if err := b.seal(); err != nil {
		return 0, 0, err
	}
	var d sql.NullInt64
	if err := b.db.QueryRow(`SELECT count(*), sum(done) FROM changes`).Scan(&changes, &d); err != nil {
		return 0, 0, fmt.Errorf("backlog %s: count: %w", b.file, err)
	}
	return changes, d.Int64, nil
}

// PendingPerList returns, per list index, how many of its changes are not
// done.
func (b *Backlog) PendingPerList() (map[int]int64, error) {
	if err := b.seal(); err != nil {
		return nil, err
	}
	rows, err := b.db.Query(`SELECT list, count(*) FROM changes WHERE done = 0 GROUP BY list`)
	if err != nil {
		return nil, fmt.Errorf("backlog %s: pending per list: %w", b.file, err)
	}
	defer rows.Close()
	out := map[int]int64{}
	for rows.Next() {
		var l int
		var n int64
		if err := rows.Scan(&l, &n); err != nil {
			return nil, fmt.Errorf("backlog %s: pending per list: %w", b.file, err)
		}
		out[l] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("backlog %s: pending per list: %w", b.file, err)
	}
	return out, nil
}

const pendingColumns = `ord, uri, kind, at, list, pos, lastmod, fixity, length, links, companion, done`

// pendingRow is a change as a row holds it; the columns of a unit's final
// change come from an outer join, so every one may be NULL.
type pendingRow struct {
	ord                            sql.NullInt64
	uri, kind, at, lastmod, fixity sql.NullString
	links                          sql.NullString
	list, pos, length              sql.NullInt64
	companion, done                sql.NullBool
}

func (r *pendingRow) dest() []any {
	return []any{&r.ord, &r.uri, &r.kind, &r.at, &r.list, &r.pos, &r.lastmod, &r.fixity, &r.length, &r.links, &r.companion, &r.done}
}

func (r *pendingRow) pending() (resourcesync.Pending, error) {
	p := resourcesync.Pending{URI: r.uri.String, Change: resourcesync.Change(r.kind.String),
		List: int(r.list.Int64), Position: int(r.pos.Int64), Companion: r.companion.Bool, Done: r.done.Bool}
	p.Version.Length, p.Version.HasLength = r.length.Int64, r.length.Valid
	var errs [4]error
	p.Time, errs[0] = parseTime(r.at)
	p.Version.LastMod, errs[1] = parseTime(r.lastmod)
	p.Version.Fixity, errs[2] = resourcesync.ParseHash(r.fixity.String)
	if r.links.Valid {
		errs[3] = json.Unmarshal([]byte(r.links.String), &p.Links)
	}
	return p, errors.Join(errs[:]...)
}

// unitRow is a unit as one page of Units reads it.
type unitRow struct {
	u        resourcesync.BacklogUnit
	phase    int
	first    int64
	npending int64
	finalOrd int64
}

// Units calls fn for every unit, in the order they are to be applied:
// failures retried alone first, then by URI. URIs that share a path share
// a directory of the mirror, whose files were made one after another: in
// URI order an apply visits each directory, and the inode table and
// bitmap blocks of its files, once, where in the order of the changes'
// times it went all over the tree between two syncs: on ext4 the apply of
// 180,000 changes to 200,000 resources took 0.66-0.75x the time, 0.77-0.87x
// a fresh baseline (scripts/bench-sync, four rounds, both orders). It
// reads in pages and holds nothing open while fn runs; it stops at fn's
// first error, which it returns unwrapped.
func (b *Backlog) Units(fn func(resourcesync.BacklogUnit) error) error {
	return b.units(``, fn)
}

// Deletions calls fn, as Units does, for the units that end in a
// deletion to apply (BacklogUnit.Gone), in URI order.
func (b *Backlog) Deletions(fn func(resourcesync.BacklogUnit) error) error {
	return b.units(` AND f.kind = 'deleted' AND NOT (f.done AND NOT u.retry)`, fn)
}

func (b *Backlog) units(filter string, fn func(resourcesync.BacklogUnit) error) error {
	if err := b.seal(); err != nil {
		return err
	}
	const cols = `SELECT u.uri, u.phase, u.first, u.npending, u.retry, f.ord, f.uri, f.kind, f.at,
		f.list, f.pos, f.lastmod, f.fixity, f.length, f.links, f.companion, f.done
		FROM units u LEFT JOIN changes f ON f.ord = u.final`
	// CROSS JOIN keeps SQLite walking units in URI order (its primary key)
	// for Deletions, instead of sorting every page.
	const crossCols = `SELECT u.uri, u.phase, u.first, u.npending, u.retry, f.ord, f.uri, f.kind, f.at,
		f.list, f.pos, f.lastmod, f.fixity, f.length, f.links, f.companion, f.done
		FROM units u CROSS JOIN changes f ON f.ord = u.final`
	q := cols + ` WHERE (u.phase, u.uri) > (?, ?) ORDER BY u.phase, u.uri LIMIT ?`
	if filter != "" {
		q = crossCols + ` WHERE u.uri > ?` + filter + ` ORDER BY u.uri LIMIT ?`
	}
	var last unitRow
	last.phase = -1
	page := make([]unitRow, 0, backlogPage)
	for {
		var err error
		page, err = b.page(q, filter != "", last, page[:0])
		if err != nil {
			return fmt.Errorf("backlog %s: units: %w", b.file, err)
		}
		if err := b.fill(page); err != nil {
			return fmt.Errorf("backlog %s: units: %w", b.file, err)
		}
		for i := range page {
			if err := fn(page[i].u); err != nil {
				return err
			}
		}
		if len(page) < backlogPage {
			return nil
		}
		last = page[len(page)-1]
	}
}

func (b *Backlog) page(q string, byURI bool, last unitRow, buf []unitRow) ([]unitRow, error) {
	var rows *sql.Rows
	var err error
	if byURI {
		rows, err = b.db.Query(q, last.u.URI, backlogPage)
	} else {
		rows, err = b.db.Query(q, last.phase, last.u.URI, backlogPage)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r unitRow
		var f pendingRow
		if err := rows.Scan(append([]any{&r.u.URI, &r.phase, &r.first, &r.npending, &r.u.Retry}, f.dest()...)...); err != nil {
			return nil, err
		}
		if f.ord.Valid {
			p, err := f.pending()
			if err != nil {
				return nil, err
			}
			r.u.Final, r.finalOrd = &p, f.ord.Int64
		}
		r.u.Settled = r.u.Final != nil && r.u.Final.Done && !r.u.Retry
		buf = append(buf, r)
	}
	return buf, rows.Err()
}

// fill reads the pending changes of a page's units. A unit's final change
// alone, the common case, needs no query; the units with more are read
// in one query for the page, not one each (a statement prepared and run
// per unit cost a fifth of the apply's producer).
func (b *Backlog) fill(page []unitRow) error {
	var uris []any
	var at map[string]int // URI -> its unit's index in page
	for i := range page {
		r := &page[i]
		switch {
		case r.npending == 0:
		case r.npending == 1 && r.first == r.finalOrd:
			r.u.Pending = []resourcesync.Pending{*r.u.Final}
		default:
			if at == nil {
				at = make(map[string]int)
			}
			at[r.u.URI] = i
			uris = append(uris, r.u.URI)
		}
	}
	if len(uris) == 0 {
		return nil
	}
	rows, err := b.db.Query(`SELECT `+pendingColumns+` FROM changes WHERE done = 0 AND uri IN (`+
		repeated(`?`, len(uris))+`) ORDER BY uri, ord`, uris...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var f pendingRow
	dest := f.dest()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		p, err := f.pending()
		if err != nil {
			return err
		}
		r := &page[at[p.URI]]
		r.u.Pending = append(r.u.Pending, p)
	}
	return rows.Err()
}

// Close closes the Backlog and deletes its file. Calling it again does
// nothing.
func (b *Backlog) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	var errs []error
	if b.tx != nil {
		b.addMany.Close()
		b.addNew.Close()
		errs = append(errs, b.tx.Rollback())
	}
	errs = append(errs, b.db.Close())
	if err := os.Remove(b.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close backlog %s: %w", b.file, err)
	}
	return nil
}
