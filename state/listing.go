package state

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ListingEntry is one path of a Listing with what the Source listed for
// it.
type ListingEntry = resourcesync.Listed

// Listing is a temporary, disk-backed sorted set of mirror paths: which
// paths the Source listed in this run, for the sorted merge of baseline
// --delete and audit against the mirror, without holding a million paths
// in memory. It lives in its own SQLite file, never in the state database,
// and is deleted on Close. Adding a path again replaces what was listed for
// it (a Source listing one URI twice: the last wins).
//
// A Listing is safe for concurrent use. When a write to its file fails, the
// error is kept and returned by every later call except Close.
type Listing struct {
	mu      sync.Mutex
	file    string
	db      *sql.DB
	pending []ListingEntry
	n       int64 // distinct paths written to the file
	err     error
	closed  bool
}

const (
	listingBatch = 10_000 // adds per transaction
	listingPage  = 1024   // rows per query of Each
)

// NewListing creates an empty Listing in a new temporary file in dir
// (os.TempDir() when dir is ""). The file is removed by Close; a process
// that dies leaves it behind, named resync-dest-listing-*.db.
func NewListing(dir string) (*Listing, error) {
	// A journal in memory: a statement that fails mid-batch still rolls
	// back.
	db, abs, err := newScratch(dir, "listing", "MEMORY", "-4096")
	if err != nil {
		return nil, err
	}
	// The primary key in BINARY collation is the byte order of paths.
	if _, err := db.Exec(`CREATE TABLE entries (
		path    TEXT PRIMARY KEY,
		uri     TEXT NOT NULL,
		length  INTEGER, -- NULL when not listed
		fixity  TEXT NOT NULL,
		lastmod TEXT
	) WITHOUT ROWID`); err != nil {
		db.Close()
		os.Remove(abs)
		return nil, fmt.Errorf("create listing %s: %w", abs, err)
	}
	return &Listing{file: abs, db: db, pending: make([]ListingEntry, 0, 256)}, nil
}

// usable reports the sticky error or a closed Listing; l.mu is held.
func (l *Listing) usable() error {
	if l.closed {
		return fmt.Errorf("listing: %w", fs.ErrClosed)
	}
	return l.err
}

// Add records that the Source listed e.URI at mirror path e.Path. Adds
// are written in batches; an error is that of writing an earlier batch. An
// empty path is refused (ErrInvalid).
func (l *Listing) Add(e ListingEntry) error {
	if e.Path == "" {
		return fmt.Errorf("listing add %s: %w: empty path", e.URI, ErrInvalid)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return err
	}
	l.pending = append(l.pending, e)
	if len(l.pending) >= listingBatch {
		return l.flush()
	}
	return nil
}

// flush writes the pending adds in one transaction; l.mu is held. A
// failure is kept in l.err.
func (l *Listing) flush() error {
	if err := l.usable(); err != nil || len(l.pending) == 0 {
		return err
	}
	added, err := l.write(l.pending)
	if err != nil {
		l.err = fmt.Errorf("listing %s: %w", l.file, err)
		return l.err
	}
	l.n += added
	clear(l.pending)
	l.pending = l.pending[:0]
	return nil
}

// write stores es and returns how many of them were new paths.
func (l *Listing) write(es []ListingEntry) (added int64, err error) {
	tx, err := l.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	ins, err := tx.Prepare(`INSERT INTO entries (path, uri, length, fixity, lastmod) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (path) DO NOTHING`)
	if err != nil {
		return 0, err
	}
	defer ins.Close()
	upd, err := tx.Prepare(`UPDATE entries SET uri = ?, length = ?, fixity = ?, lastmod = ? WHERE path = ?`)
	if err != nil {
		return 0, err
	}
	defer upd.Close()
	for _, e := range es {
		var length any
		if e.HasLength {
			length = e.Length
		}
		fixity, lastmod := e.Fixity.String(), nullTime(e.LastMod)
		res, err := ins.Exec(e.Path, e.URI, length, fixity, lastmod)
		if err != nil {
			return 0, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		if n == 1 {
			added++
			continue
		}
		// Counting new paths exactly is why a duplicate takes a second
		// statement instead of an upsert; duplicates are rare.
		if _, err := upd.Exec(e.URI, length, fixity, lastmod, e.Path); err != nil {
			return 0, err
		}
	}
	return added, tx.Commit()
}

// Remove forgets path p, as if it had never been added: a resource the
// Source deleted after the list that named it. Removing a path that is
// not there does nothing. Pending adds are written first, so that an add
// followed by a remove leaves nothing.
func (l *Listing) Remove(p string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.flush(); err != nil {
		return err
	}
	res, err := l.db.Exec(`DELETE FROM entries WHERE path = ?`, p)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err != nil {
		l.err = fmt.Errorf("listing %s: remove %s: %w", l.file, p, err)
		return l.err
	}
	l.n -= n
	return nil
}

// Has reports whether path p was added.
func (l *Listing) Has(p string) (bool, error) {
	_, ok, err := l.Get(p)
	return ok, err
}

// Get returns what was added last for path p, and whether p was added.
func (l *Listing) Get(p string) (ListingEntry, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.flush(); err != nil {
		return ListingEntry{}, false, err
	}
	e, err := scanListingEntry(l.db.QueryRow(
		`SELECT path, uri, length, fixity, lastmod FROM entries WHERE path = ?`, p))
	if errors.Is(err, sql.ErrNoRows) {
		return ListingEntry{}, false, nil
	}
	if err != nil {
		return ListingEntry{}, false, fmt.Errorf("listing get %s: %w", p, err)
	}
	return e, true, nil
}

func scanListingEntry(sc scanner) (ListingEntry, error) {
	var e ListingEntry
	var length sql.NullInt64
	var fixity string
	var lastmod sql.NullString
	if err := sc.Scan(&e.Path, &e.URI, &length, &fixity, &lastmod); err != nil {
		return e, err
	}
	e.Length, e.HasLength = length.Int64, length.Valid
	var errs [2]error
	e.Fixity, errs[0] = resourcesync.ParseHash(fixity)
	e.LastMod, errs[1] = parseTime(lastmod)
	return e, errors.Join(errs[:]...)
}

// Each calls fn for every path, in byte order, and stops at fn's first
// error, which it returns unwrapped. It reads in pages and holds no lock
// while fn runs, so fn may call Has or Get; paths added during the walk
// are seen if they sort after the current page.
func (l *Listing) Each(fn func(ListingEntry) error) error {
	after := ""
	page := make([]ListingEntry, 0, listingPage)
	for {
		var err error
		page, err = l.page(after, page[:0])
		if err != nil {
			return err
		}
		for _, e := range page {
			if err := fn(e); err != nil {
				return err
			}
		}
		if len(page) < listingPage {
			return nil
		}
		after = page[len(page)-1].Path
	}
}

// page reads the entries after path after (every path is non-empty, so ""
// starts at the beginning).
func (l *Listing) page(after string, buf []ListingEntry) ([]ListingEntry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.flush(); err != nil {
		return nil, err
	}
	rows, err := l.db.Query(`SELECT path, uri, length, fixity, lastmod FROM entries
		WHERE path > ? ORDER BY path LIMIT ?`, after, listingPage)
	if err != nil {
		return nil, fmt.Errorf("listing walk: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanListingEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("listing walk: %w", err)
		}
		buf = append(buf, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing walk: %w", err)
	}
	return buf, nil
}

// Len returns the number of distinct paths added. It writes pending adds
// first; if that fails, the error is kept for the next call and Len counts
// only what was written.
func (l *Listing) Len() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flush() //nolint:errcheck // kept in l.err, returned by the next call
	return l.n
}

// Close closes the Listing and deletes its file. Calling it again does
// nothing.
func (l *Listing) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.pending = nil
	err := l.db.Close()
	if rmErr := os.Remove(l.file); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
		err = errors.Join(err, rmErr)
	}
	if err != nil {
		return fmt.Errorf("close listing %s: %w", l.file, err)
	}
	return nil
}
