package state

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// migrationFiles are the numbered schema steps, NNNN_what.sql, applied in
// order. A released file is never edited; a change of schema is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// applicationID marks a database as ours in its header ("rsd1"), so that
// Open refuses to migrate some other program's SQLite file.
const applicationID = 0x72736431

type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the *.sql files of dir in fsys. Their numbers must
// run 1, 2, 3 ... without gap or repeat: a hole would silently skip a step.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name is not NNNN_what.sql", base)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", base, err)
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: version %d, want %d (gap or repeat)", m.name, m.version, i+1)
		}
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no migrations in %s", dir)
	}
	return ms, nil
}

// schemaInfo is what a database says about itself before any migration.
type schemaInfo struct {
	version int   // PRAGMA user_version
	appID   int64 // PRAGMA application_id
	objects int   // entries of sqlite_schema
}

type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func inspectSchema(ctx context.Context, q rowQuerier) (schemaInfo, error) {
	var s schemaInfo
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&s.version); err != nil {
		return s, fmt.Errorf("read schema version: %w", err)
	}
	if err := q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&s.appID); err != nil {
		return s, fmt.Errorf("read application id: %w", err)
	}
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&s.objects); err != nil {
		return s, fmt.Errorf("read schema: %w", err)
	}
	return s, nil
}

// empty reports whether the database has nothing in it yet (a new or
// zero-length file).
func (s schemaInfo) empty() bool { return s.version == 0 && s.appID == 0 && s.objects == 0 }

// check refuses a database that is not ours or is newer than latest.
func (s schemaInfo) check(latest int) error {
	if s.empty() {
		return nil
	}
	if s.appID != applicationID {
		return fmt.Errorf("%w (application id %#x, schema version %d, %d schema objects)", ErrNotState, s.appID, s.version, s.objects)
	}
	if s.version > latest {
		return fmt.Errorf("%w: version %d, this program knows up to %d", ErrSchemaTooNew, s.version, latest)
	}
	return nil
}

// migrate brings the database up to the last migration in one transaction:
// either every pending step is applied and the version recorded, or nothing
// changes. It returns the schema version the database now has.
func migrate(ctx context.Context, db *sql.DB, ms []migration) (int, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("begin migration: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	info, err := inspectSchema(ctx, tx)
	if err != nil {
		return 0, err
	}
	latest := ms[len(ms)-1].version
	if err := info.check(latest); err != nil {
		return 0, err
	}
	if info.version == latest {
		return latest, nil
	}
	for _, m := range ms[info.version:] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return 0, fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	// PRAGMAs take no parameters; both values are integers formatted here.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", latest)); err != nil {
		return 0, fmt.Errorf("record schema version: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		return 0, fmt.Errorf("record application id: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit migration: %w", err)
	}
	return latest, nil
}
