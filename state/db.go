package state

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	// The SQLite driver; this package is its only user. Its pools open
	// connections through a driver value of their own (connector), whose
	// ConnectHook sets what a DSN cannot.
	"github.com/mattn/go-sqlite3"
)

// DB is the state of one mirror. It is safe for concurrent use: writes are
// serialised on one connection, reads share a pool of read-only ones.
type DB struct {
	path     string
	readOnly bool
	now      func() time.Time
	read     *sql.DB // read-only connections (the in-memory schema when the file is missing)
	write    *sql.DB // the one writing connection; nil when read-only
	held     *sql.Stmt
	heldMany *sql.Stmt
	// pathHolders is selectPathHolders.
	pathHolders *sql.Stmt
	// pathOwners is selectPathOwners.
	pathOwners *sql.Stmt
	// schema is the schema version of the database as opened: older than
	// the latest only in a read-only open (see readableFrom).
	schema int
}

// readableFrom is the oldest schema version a read-only open accepts
// without upgrading it: every step after it only adds what readers of an
// older file can do without (older_names: no row means "named by version
// 1" there, see OlderNames). A step whose absence readers cannot make up
// for raises it.
const readableFrom = 1

// Open opens (creating it if needed) the state database at opts.Path and
// brings its schema up to date in one transaction, or, with opts.ReadOnly,
// opens it without writing anything. It fails when the database was written
// by a newer program (ErrSchemaTooNew), belongs to another program
// (ErrNotState), or cannot be opened; nothing is left open on error.
func Open(ctx context.Context, opts Options) (*DB, error) {
	opts = opts.withDefaults()
	if opts.Path == "" {
		return nil, fmt.Errorf("open state: %w: no path", ErrInvalid)
	}
	abs, err := filepath.Abs(opts.Path)
	if err != nil {
		return nil, fmt.Errorf("open state %s: %w", opts.Path, err)
	}
	ms, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("open state %s: %w", abs, err)
	}
	db := &DB{path: abs, readOnly: opts.ReadOnly, now: opts.Now}
	if opts.ReadOnly {
		err = db.openReadOnly(ctx, opts, ms)
	} else {
		err = db.openReadWrite(ctx, opts, ms)
	}
	if err == nil {
		db.held, err = db.read.PrepareContext(ctx, selectHeld(db.heldColumns()))
	}
	if err == nil {
		db.heldMany, err = db.read.PrepareContext(ctx, selectHeldMany(db.heldColumns()))
	}
	if err == nil {
		db.pathHolders, err = db.read.PrepareContext(ctx, selectPathHolders)
	}
	if err == nil {
		db.pathOwners, err = db.read.PrepareContext(ctx, selectPathOwners())
	}
	if err != nil {
		db.Close() //nolint:errcheck // the open error says more
		return nil, fmt.Errorf("open state %s: %w", abs, err)
	}
	return db, nil
}

// openReadWrite opens the writer, migrates, then opens the readers.
//
// synchronous=NORMAL in WAL mode means a commit is not fsynced (the WAL is,
// at checkpoints). A process crash loses nothing: the WAL is in the page
// cache. A power loss may lose the last commits, never half of one, and
// never leaves the database corrupt. That is safe for our invariant because
// callers make their files durable before they Commit: a lost commit only
// loses the record of work that is on disk, so the state claims less than
// the disk holds - a new or updated resource looks not (yet) fetched and is
// fetched again, a processed change looks unprocessed and is processed
// again. A lost removal looks exactly like a process that died between
// deleting a file and committing, a window that any ordering has: the
// record stays until the next run finds the file missing and repairs it.
// FULL would fsync the WAL on every commit, for no gain in what we claim.
func (db *DB) openReadWrite(ctx context.Context, opts Options, ms []migration) error {
	busy := strconv.FormatInt(opts.BusyTimeout.Milliseconds(), 10)
	// One connection: writes are serialised in this process, and SQLite
	// allows one writer anyway.
	db.write = openPool(1, fileDSN(db.path, url.Values{
		// BEGIN IMMEDIATE takes the write lock up front, so a transaction
		// never fails half-way upgrading a read lock (SQLITE_BUSY that the
		// busy timeout cannot help with).
		"_txlock":       {"immediate"},
		"_busy_timeout": {busy},
		"_foreign_keys": {"1"},
		"_journal_mode": {"WAL"},
		"_synchronous":  {"NORMAL"},
		"_cache_size":   {"-8192"}, // KiB: bounded, so that memory does not grow with the state
	}), writerCheckpoint)
	var err error
	if db.schema, err = migrate(ctx, db.write, ms); err != nil {
		return err
	}
	var mode string
	if err := db.write.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("read journal mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, not wal (does the filesystem support shared memory?)", mode)
	}
	// Readers open the file read-only: they can never write, and WAL lets
	// them read the last committed state while the writer works.
	db.read = openPool(opts.ReadConns, fileDSN(db.path, url.Values{
		"mode":          {"ro"},
		"_busy_timeout": {busy},
		"_cache_size":   {"-4096"}, // KiB, each: what misses is in the OS page cache, a pread away
	}))
	return nil
}

// openReadOnly opens the file without writing a byte. An idle WAL database
// (no -wal file: every commit is in the main file) is opened immutable,
// because a plain read-only open would create -wal and -shm files and leave
// them behind. The price: a writer that starts meanwhile is not seen, and
// its checkpoint could make a concurrent read fail; callers that must not
// race a writer hold the mirror's lock. When a -wal file exists (a writer
// is at work, or died), the database is opened read-only in the ordinary
// way, sharing the -shm index with the writer so that reads are consistent;
// SQLite then records its read marks in the -shm, which is shared memory,
// not data.
func (db *DB) openReadOnly(ctx context.Context, opts Options, ms []migration) error {
	if _, err := os.Stat(db.path); errors.Is(err, fs.ErrNotExist) {
		return db.openEmpty(ctx, ms)
	} else if err != nil {
		return err
	}
	params := url.Values{"mode": {"ro"}, "_busy_timeout": {strconv.FormatInt(opts.BusyTimeout.Milliseconds(), 10)}}
	if _, err := os.Lstat(db.path + "-wal"); errors.Is(err, fs.ErrNotExist) {
		params.Set("immutable", "1")
	} else if err != nil {
		return err
	}
	db.read = openPool(opts.ReadConns, fileDSN(db.path, params))
	info, err := inspectSchema(ctx, db.read)
	if err != nil {
		return err
	}
	latest := ms[len(ms)-1].version
	switch err := info.check(latest); {
	case err != nil:
		return err
	case info.empty():
		if err := db.read.Close(); err != nil {
			return err
		}
		return db.openEmpty(ctx, ms)
	case info.version < readableFrom:
		return fmt.Errorf("%w: version %d, this program's is %d", ErrSchemaTooOld, info.version, latest)
	}
	db.schema = info.version
	return nil
}

// openEmpty serves a read-only open of a missing (or empty) file: an
// in-memory database with the schema, so that every read finds nothing.
func (db *DB) openEmpty(ctx context.Context, ms []migration) error {
	// Each connection to :memory: is its own database: keep exactly one.
	db.read = openPool(1, "file::memory:?_foreign_keys=1")
	var err error
	db.schema, err = migrate(ctx, db.read, ms)
	return err
}

// writerCheckpoint is what the writer's connection runs when it opens,
// besides the pragmas its DSN carries: a checkpoint (the WAL's pages
// written back into the file, both fsynced) every 8,192 pages rather than
// SQLite's 1,000. Records committed in the order changes come, scattered
// over a large state, dirty a page each, and a checkpoint every commit or
// two wrote and synced them one commit at a time. The WAL grows to 32 MiB
// at most between checkpoints.
const writerCheckpoint = "PRAGMA wal_autocheckpoint = 8192"

// repeated is n copies of item separated by commas: the placeholders of
// an IN list, or the rows of a multi-row VALUES. n must be at least 1.
func repeated(item string, n int) string {
	return item + strings.Repeat(`, `+item, n-1)
}

// openPool returns a pool of at most conns connections to dsn that are
// never closed for age or idleness: opening one costs pragmas and
// re-prepared statements, and an in-memory database dies with its
// connection. Each connection runs the statements setup when it opens, so
// that a pragma the DSN cannot carry holds as well for a connection the
// pool opens later, in place of one a driver error discarded. Nothing is
// opened here: a DSN or setup that cannot work fails the first statement.
func openPool(conns int, dsn string, setup ...string) *sql.DB {
	d := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		for _, q := range setup {
			if _, err := c.Exec(q, nil); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return nil
	}}
	p := sql.OpenDB(connector{d: d, dsn: dsn})
	p.SetMaxOpenConns(conns)
	p.SetMaxIdleConns(conns)
	p.SetConnMaxLifetime(0)
	p.SetConnMaxIdleTime(0)
	return p
}

// connector opens connections to one DSN with a driver of its own, not
// the one registered by name: its ConnectHook is this pool's.
type connector struct {
	d   *sqlite3.SQLiteDriver
	dsn string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.d.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.d }

// fileDSN is an SQLite URI for the absolute path p: '?', '#' and '%' in the
// path are escaped so that they cannot start parameters. Parameters with a
// leading underscore are the driver's; the others are SQLite's.
func fileDSN(p string, params url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(p), RawQuery: params.Encode()}
	return u.String()
}

// Path is the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// ReadOnly reports whether the database was opened with Options.ReadOnly.
func (db *DB) ReadOnly() bool { return db.readOnly }

// Close closes every connection. The writer closes last, so that SQLite
// checkpoints the WAL into the main file and removes the -wal and -shm
// files. It returns the first error met; the DB is unusable afterwards.
// Not safe to call concurrently with other methods.
func (db *DB) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{db.held, db.heldMany, db.pathHolders, db.pathOwners} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	if db.read != nil {
		errs = append(errs, db.read.Close())
	}
	if db.write != nil {
		errs = append(errs, db.write.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close state %s: %w", db.path, err)
	}
	return nil
}

// IntegrityCheck runs SQLite's integrity and foreign-key checks. It returns
// nil when both find nothing, an error wrapping ErrCorrupt that lists what
// they found, or the error that kept them from running. Safe for concurrent
// use; it reads the whole database, so it is slow on a large one.
func (db *DB) IntegrityCheck(ctx context.Context) error {
	msgs, err := queryStrings(ctx, db.read, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("check state %s: %w", db.path, err)
	}
	if len(msgs) == 1 && msgs[0] == "ok" {
		msgs = nil
	}
	rows, err := db.read.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return fmt.Errorf("check state %s foreign keys: %w", db.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fkid int64
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return fmt.Errorf("check state %s foreign keys: %w", db.path, err)
		}
		msgs = append(msgs, fmt.Sprintf("row of %s refers to a missing %s", table, parent))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("check state %s foreign keys: %w", db.path, err)
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%w: %s: %s", ErrCorrupt, db.path, strings.Join(msgs, "; "))
	}
	return nil
}

func queryStrings(ctx context.Context, q *sql.DB, query string) ([]string, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// writer returns the writing pool, or ErrReadOnly.
func (db *DB) writer(op string) (*sql.DB, error) {
	if db.readOnly {
		return nil, fmt.Errorf("%s: %w", op, ErrReadOnly)
	}
	return db.write, nil
}
