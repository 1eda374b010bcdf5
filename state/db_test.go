package state

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// rawExec runs statements on a file with a plain connection, bypassing the
// package (to fake other programs' databases and damage).
func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", fileDSN(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func pragmaInt(t *testing.T, db *sql.DB, name string) int64 {
	t.Helper()
	var v int64
	if err := db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOpenMigratesFreshFileAndReopens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	db := openAt(t, path)
	ms, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pragmaInt(t, db.read, "user_version"), int64(len(ms)); got != want {
		t.Errorf("user_version = %d, want %d", got, want)
	}
	if got := pragmaInt(t, db.read, "application_id"); got != applicationID {
		t.Errorf("application_id = %#x, want %#x", got, applicationID)
	}
	var mode string
	if err := db.write.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	if got := pragmaInt(t, db.write, "foreign_keys"); got != 1 {
		t.Errorf("foreign_keys = %d, want 1", got)
	}
	if got := pragmaInt(t, db.write, "synchronous"); got != 1 { // NORMAL
		t.Errorf("synchronous = %d, want 1 (NORMAL)", got)
	}
	if got := pragmaInt(t, db.write, "busy_timeout"); got != 5000 {
		t.Errorf("busy_timeout = %d, want 5000", got)
	}
	s := ensureSet(t, db, "http://example.org/capabilitylist.xml")
	commit(t, db, s.ID, &Batch{Held: []resourcesync.Held{held("http://example.org/a", "example.org/a", 1)}})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// The writer closed last: the WAL was checkpointed and removed.
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left after Close: %v", suffix, err)
		}
	}

	again := openAt(t, path) // migrations are idempotent
	if got := pragmaInt(t, again.read, "user_version"); got != int64(len(ms)) {
		t.Errorf("user_version after reopen = %d", got)
	}
	if n, err := again.HeldCount(ctx, s.ID); err != nil || n != 1 {
		t.Errorf("HeldCount after reopen = %d, %v; want 1", n, err)
	}
	if err := again.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	db := openAt(t, path)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	rawExec(t, path, "PRAGMA user_version = 999")
	before := dirHashes(t, filepath.Dir(path))
	for _, ro := range []bool{false, true} {
		opts := DefaultOptions()
		opts.Path, opts.ReadOnly = path, ro
		_, err := Open(context.Background(), opts)
		wantErrIs(t, err, ErrSchemaTooNew)
		if !strings.Contains(err.Error(), "999") {
			t.Errorf("error %q does not name the version found", err)
		}
	}
	if after := dirHashes(t, filepath.Dir(path)); !reflect.DeepEqual(before, after) {
		t.Errorf("refused open changed the files: %v -> %v", before, after)
	}
}

func TestOpenRefusesForeignDatabase(t *testing.T) {
	tests := []struct {
		name  string
		stmts []string
	}{
		{"tables without our id", []string{"CREATE TABLE notes (x)"}},
		{"another application id", []string{"PRAGMA application_id = 7"}},
		{"a version without our id", []string{"PRAGMA user_version = 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "other.db")
			rawExec(t, path, tt.stmts...)
			for _, ro := range []bool{false, true} {
				opts := DefaultOptions()
				opts.Path, opts.ReadOnly = path, ro
				_, err := Open(context.Background(), opts)
				wantErrIs(t, err, ErrNotState)
			}
		})
	}
}

func TestOpenNeedsPath(t *testing.T) {
	_, err := Open(context.Background(), DefaultOptions())
	wantErrIs(t, err, ErrInvalid)
}

func TestOpenPathWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a?b#c%d e")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "state.db")
	db := openAt(t, path)
	ensureSet(t, db, "http://example.org/cl.xml")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at %s: %v", path, err)
	}
}

func TestLoadMigrations(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name    string
		fs      fstest.MapFS
		want    []int
		wantErr string
	}{
		{"ordered", fstest.MapFS{"m/0002_b.sql": file("B"), "m/0001_a.sql": file("A"), "m/README": file("")}, []int{1, 2}, ""},
		{"gap", fstest.MapFS{"m/0001_a.sql": file(""), "m/0003_c.sql": file("")}, nil, "want 2"},
		{"repeat", fstest.MapFS{"m/0001_a.sql": file(""), "m/001_b.sql": file("")}, nil, "want 2"},
		{"starts at two", fstest.MapFS{"m/0002_a.sql": file("")}, nil, "want 1"},
		{"bad name", fstest.MapFS{"m/init.sql": file("")}, nil, "NNNN_what.sql"},
		{"zero", fstest.MapFS{"m/0000_a.sql": file("")}, nil, "NNNN_what.sql"},
		{"none", fstest.MapFS{}, nil, "no migrations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := loadMigrations(tt.fs, "m")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, m := range ms {
				got = append(got, m.version)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("versions %v, want %v", got, tt.want)
			}
		})
	}
}

// A migration that fails half-way leaves the database as it was: the steps
// before it in the same Open are rolled back with it.
func TestMigrationIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	raw, err := sql.Open("sqlite3", fileDSN(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	ms := []migration{
		{version: 1, name: "0001_ok.sql", sql: "CREATE TABLE a (x); INSERT INTO a VALUES (1);"},
		{version: 2, name: "0002_bad.sql", sql: "CREATE TABLE b (x); INSERT INTO nowhere VALUES (1);"},
	}
	if _, err := migrate(ctx, raw, ms); err == nil || !strings.Contains(err.Error(), "0002_bad.sql") {
		t.Fatalf("migrate = %v, want an error naming 0002_bad.sql", err)
	}
	info, err := inspectSchema(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	if !info.empty() {
		t.Errorf("after a failed migration: %+v, want an empty database", info)
	}
	if v, err := migrate(ctx, raw, ms[:1]); err != nil || v != 1 {
		t.Fatalf("migrate(first only) = %d, %v", v, err)
	}
	if v, err := migrate(ctx, raw, ms[:1]); err != nil || v != 1 {
		t.Fatalf("migrate again = %d, %v; want a no-op", v, err)
	}
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM a").Scan(&n); err != nil || n != 1 {
		t.Errorf("rows of a = %d, %v; want 1 (the migration ran once)", n, err)
	}
}

func TestIntegrityCheck(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	db := openAt(t, path)
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Fatalf("fresh database: %v", err)
	}
	// A resource of a set that does not exist: the foreign-key check sees it.
	rawExec(t, path, `INSERT INTO resources (set_id, uri, path, length, fetched) VALUES (42, 'u', 'p', 0, 'x')`)
	err := db.IntegrityCheck(ctx)
	wantErrIs(t, err, ErrCorrupt)
	if !strings.Contains(err.Error(), "resources") {
		t.Errorf("error %q does not name the table", err)
	}
}

// The writer's checkpoint interval holds on every connection its pool
// opens: on one that replaces a connection a driver error discarded too,
// not only on the first.
func TestWriterCheckpointOnEveryConnection(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	var first any
	for round := range 2 {
		c, err := db.write.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var pages int
		if err := c.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&pages); err != nil {
			t.Fatal(err)
		}
		if pages != 8192 {
			t.Errorf("round %d: wal_autocheckpoint = %d, want 8192", round, pages)
		}
		// Discard the connection, as the pool does after a driver error.
		err = c.Raw(func(dc any) error {
			if round == 0 {
				first = dc
			} else if dc == first {
				t.Error("the pool kept the connection it was told was bad")
			}
			return driver.ErrBadConn
		})
		if !errors.Is(err, driver.ErrBadConn) {
			t.Fatalf("Raw: %v", err)
		}
		c.Close()
	}
}
