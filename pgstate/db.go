package pgstate

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/resync-dest/resync-dest/state"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Schema is the PostgreSQL schema that holds the tables (and the job
// queue's, package worker); every connection puts it first on its
// search_path.
const Schema = "resync_dest"

// migrateLock is the advisory lock key under which migrations run, so that
// workers starting together migrate once.
const migrateLock = 0x7265_7379_6e63 // "resync"

// Options configure a DB.
type Options struct {
	// URL is the postgres://... connection string (libpq's forms).
	URL string
	// ReadOnly opens for status, audit and dry runs: every write fails with
	// state.ErrReadOnly and nothing is migrated (a database without the
	// schema reads as empty).
	ReadOnly bool
	// MaxConns bounds the pool.
	MaxConns int32
	// Now is the clock of the records (created, fetched, runs).
	Now func() time.Time
}

// DefaultOptions returns Options with a pool of 8 connections and the
// wall clock.
func DefaultOptions() Options {
	return Options{MaxConns: 8, Now: time.Now}
}

// IsURL reports whether s names a PostgreSQL database rather than a file.
func IsURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// DB is the state in PostgreSQL. Its methods are safe for concurrent use.
type DB struct {
	pool     *pgxpool.Pool
	now      func() time.Time
	readOnly bool
	absent   bool // read-only, and the schema does not exist: an empty state
	name     string
	// fence, when set, is checked by every write (see Fenced).
	fence *Fence
	// owned: this DB closes the pool (Fenced copies do not).
	owned bool
}

// Open connects, and unless opts.ReadOnly migrates the schema to the
// latest version. It fails when the server cannot be reached, when the
// schema is newer than this program knows, or when a migration fails
// (which then changes nothing). Errors name the database without its
// password.
func Open(ctx context.Context, opts Options) (*DB, error) {
	name := Redact(opts.URL)
	cfg, err := pgxpool.ParseConfig(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("open state %s: %w", name, err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = Schema
	cfg.ConnConfig.RuntimeParams["application_name"] = "resync-dest"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open state %s: %w", name, err)
	}
	db := &DB{pool: pool, now: opts.Now, readOnly: opts.ReadOnly, name: name, owned: true}
	if db.now == nil {
		db.now = time.Now
	}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open state %s: %w", name, err)
	}
	return db, nil
}

// Redact is a connection string without its password, for messages.
func Redact(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// Pool is the connection pool, for the job queue that shares the
// database (package worker).
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Name is the database's connection string without its password.
func (db *DB) Name() string { return db.name }

// ReadOnly reports whether the DB was opened read-only.
func (db *DB) ReadOnly() bool { return db.readOnly }

// Close closes the pool (not for a Fenced copy, whose parent owns it).
func (db *DB) Close() error {
	if db.owned {
		db.pool.Close()
	}
	return nil
}

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	ents, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range ents {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("migration %s: want NNNN_name.sql", e.Name())
		}
		b, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d", m.name, i+1)
		}
	}
	return ms, nil
}

// Version is the schema version this program writes.
func Version() int {
	ms, err := loadMigrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrate brings the schema to the latest version, one transaction per
// migration under an advisory lock, or (read-only) checks it.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if db.readOnly {
		v, exists, err := db.version(ctx, db.pool)
		switch {
		case err != nil:
			return err
		case !exists:
			db.absent = true
			return nil
		case v > len(ms):
			return fmt.Errorf("%w: schema version %d, this program knows %d", state.ErrSchemaTooNew, v, len(ms))
		case v < len(ms):
			return fmt.Errorf("%w: schema version %d, this program %d: run a sync (or a worker) once to migrate it", state.ErrSchemaTooOld, v, len(ms))
		}
		return nil
	}
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+Schema+`;
		CREATE TABLE IF NOT EXISTS `+Schema+`.schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("make schema %s: %w", Schema, err)
	}
	v, _, err := db.version(ctx, tx)
	if err != nil {
		return err
	}
	if v > len(ms) {
		return fmt.Errorf("%w: schema version %d, this program knows %d", state.ErrSchemaTooNew, v, len(ms))
	}
	for _, m := range ms[v:] {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES (`+strconv.Itoa(len(ms))+`)`); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// version reads the schema version; exists is false without the schema.
func (db *DB) version(ctx context.Context, q querier) (v int, exists bool, err error) {
	var reg *string
	if err := q.QueryRow(ctx, `SELECT to_regclass('`+Schema+`.schema_version')::text`).Scan(&reg); err != nil {
		return 0, false, fmt.Errorf("read schema version: %w", err)
	}
	if reg == nil {
		return 0, false, nil
	}
	err = q.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM `+Schema+`.schema_version`).Scan(&v)
	if err != nil {
		return 0, true, fmt.Errorf("read schema version: %w", err)
	}
	return v, true, nil
}

// writeTx runs fn in a transaction that first checks the fence, if any.
// ctx's cancellation stops it before it begins, not during it, so that a
// run being cancelled still records what it made durable.
func (db *DB) writeTx(ctx context.Context, op string, fn func(pgx.Tx) error) error {
	if db.readOnly {
		return fmt.Errorf("%s: %w", op, state.ErrReadOnly)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	ctx = context.WithoutCancel(ctx)
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if err := db.checkFence(ctx, tx); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := fn(tx); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// noRows reports a query that found nothing.
func noRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// Path is the database's connection string without its password (what
// status shows as the state).
func (db *DB) Path() string { return db.name }
