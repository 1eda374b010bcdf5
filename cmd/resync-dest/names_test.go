package main

import (
	"bytes"
	"database/sql"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
)

// namedPaths are resources with a space, UTF-8, a "%" (which both mapping
// versions write %25) and a directory with a space in their names,
// created beside the fixture's own.
var namedPaths = []string{
	"/dataset1/res/with space.txt",
	"/dataset1/res/Piña.txt",
	"/dataset1/res/100%.txt",
	"/dataset1/res/dir with space/a b.txt",
	"/dataset1/res/dir with space/c.txt",
}

// servedWithNames is the fixture Source with namedPaths added.
func servedWithNames(t *testing.T) (*fixtures.Source, *fixtures.Server) {
	t.Helper()
	src, srv := served(t, nil)
	var muts []fixtures.Mutation
	for _, p := range namedPaths {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Create, Path: p})
	}
	if err := src.Apply(src.At().Add(time.Minute), muts...); err != nil {
		t.Fatal(err)
	}
	return src, srv
}

// The names a person expects: spaces and UTF-8 are kept on disk; only
// "%" is escaped.
func TestNamesAsPeopleExpect(t *testing.T) {
	src, srv := servedWithNames(t)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitOK)
	host := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/")
	got := fixtures.MirrorFiles(t, dest)
	for _, p := range []string{"with space.txt", "Piña.txt", "100%25.txt", "dir with space/a b.txt"} {
		if _, ok := got[host+"/dataset1/res/"+p]; !ok {
			t.Errorf("no file %s/dataset1/res/%s", host, p)
		}
	}
	assertMirrorIsSource(t, src, dest)
}

// asVersion1 turns the mirror at dest into what the first version of
// resync-dest left: each held file at the path the version-1 naming gave
// it (mirror.Mapper.PathIn), its record saying so, and a state of schema
// version 1 (no older_names table, nor the later out_of_scope ones). It
// returns how many files it moved.
func asVersion1(t *testing.T, dest string) int {
	t.Helper()
	mp, err := mirror.NewMapper(nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dest, ".resync-dest", "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT uri, path FROM resources`)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct{ uri, path string }
	var recs []rec
	for rows.Next() {
		var r rec
		if err := rows.Scan(&r.uri, &r.path); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, r := range recs {
		old, err := mp.PathIn(1, r.uri)
		if err != nil {
			t.Fatal(err)
		}
		if old == r.path {
			continue
		}
		from, to := filepath.Join(dest, filepath.FromSlash(r.path)), filepath.Join(dest, filepath.FromSlash(old))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
		for d := path.Dir(r.path); strings.Contains(d, "/"); d = path.Dir(d) {
			if os.Remove(filepath.Join(dest, filepath.FromSlash(d))) != nil {
				break // not empty
			}
		}
		if _, err := db.Exec(`UPDATE resources SET path = ? WHERE uri = ? AND path = ?`, old, r.uri, r.path); err != nil {
			t.Fatal(err)
		}
		moved++
	}
	for _, q := range []string{`DROP INDEX resources_linked`, `ALTER TABLE resources DROP COLUMN links`, `DROP TABLE conditions`, `DROP TABLE out_of_scope_entries`, `DROP TABLE out_of_scope`, `DROP TABLE older_names`, `PRAGMA user_version = 1`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return moved
}

// The state lists every set with the mapping version it replaces: the
// migration that lists them (state/migrations/0002_older_names.sql) knows
// of version 2 only.
func TestMappingVersionHasAStateMigration(t *testing.T) {
	if mirror.MappingVersion != 2 {
		t.Fatalf("mirror.MappingVersion is %d: add a state migration that lists every set with the version it replaces (see state/migrations/0002_older_names.sql), and teach mirror.Rename its rules", mirror.MappingVersion)
	}
}

// A mirror made by the first version (version-1 names, a schema-1 state)
// keeps working after the upgrade: audit and a dry run read it without
// upgrading it; the first write run renames its files to their current
// names inside the mirror and records them, fetching no resource; the
// mirror then audits clean, and the next run renames nothing.
func TestUpgradeRenamesWithoutDownloading(t *testing.T) {
	src, srv := servedWithNames(t)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitOK)
	if n := asVersion1(t, dest); n != len(namedPaths)-1 {
		t.Fatalf("%d files have other names in version 1, want %d (all but 100%%.txt)", n, len(namedPaths)-1)
	}
	host := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/")
	old := fixtures.MirrorFiles(t, dest)
	for _, p := range []string{"with%20space.txt", "Pi%C3%B1a.txt", "dir%20with%20space/a%20b.txt"} {
		if _, ok := old[host+"/dataset1/res/"+p]; !ok {
			t.Fatalf("the version-1 mirror has no %s", p)
		}
	}

	// Read-only commands read the old state as it is.
	r := runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...)
	if r.code != exitDifferences {
		t.Errorf("audit of the version-1 mirror: exit %d, want 4 (its files are not at their current names yet)\n%s%s", r.code, r.stdout, r.stderr)
	}
	contains(t, r.stderr, "the next sync, baseline or incremental run renames them")
	runCLI(t, args([]string{"sync", "--dest", dest, "--dry-run"}, srv.URL)...).want(t, exitOK)
	if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(host+"/dataset1/res/with%20space.txt"))); err != nil {
		t.Fatalf("the dry run renamed: %v", err)
	}

	src.ResetCounts()
	r = runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, exitOK)
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("the first run after the upgrade fetched %d resource bodies, want 0", n)
	}
	contains(t, r.stderr, "renamed the files an earlier version named")
	assertMirrorIsSource(t, src, dest)
	assertNoTempFiles(t, dest)
	if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(host+"/dataset1/res/dir%20with%20space"))); !os.IsNotExist(err) {
		t.Errorf("the version-1 directory is left: %v", err)
	}
	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitOK)
	if strings.Contains(r.stderr, "earlier version") {
		t.Errorf("audit after the renaming still warns:\n%s", r.stderr)
	}

	r = runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, exitOK)
	if strings.Contains(r.stderr, "renamed the files") || src.ResourceBodies() != 0 {
		t.Errorf("the second run renamed or fetched again (%d bodies):\n%s", src.ResourceBodies(), r.stderr)
	}
}

// A file of its own at a resource's new name is left alone: the
// resource's file keeps its old name (reported), the run fetches the
// resource to the new name, the old file is an extra with its URI, and
// baseline --delete removes it.
func TestUpgradeRenameConflict(t *testing.T) {
	src, srv := servedWithNames(t)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitOK)
	asVersion1(t, dest)
	host := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/")
	taken := filepath.Join(dest, host, "dataset1", "res", "with space.txt")
	if err := os.WriteFile(taken, []byte("someone else's"), 0o644); err != nil {
		t.Fatal(err)
	}

	src.ResetCounts()
	r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, exitOK)
	contains(t, r.stderr, "file kept its old name", "with%20space.txt")
	if n := src.ResourceBodies(); n != 1 {
		t.Errorf("fetched %d resource bodies, want 1 (the one whose new name was taken)", n)
	}
	want, _ := src.Content(src.URI("/dataset1/res/with space.txt"))
	if got, _ := os.ReadFile(taken); !bytes.Equal(got, want) {
		t.Errorf("with space.txt holds %q, want the resource", got)
	}

	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--json"}, srv.URL)...)
	if r.code != exitDifferences {
		t.Fatalf("audit: exit %d, want 4\n%s%s", r.code, r.stdout, r.stderr)
	}
	var doc struct{ Extra []struct{ URI, Path string } }
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatal(err)
	}
	wantExtra := struct{ URI, Path string }{src.URI("/dataset1/res/with space.txt"), host + "/dataset1/res/with%20space.txt"}
	if len(doc.Extra) != 1 || doc.Extra[0] != wantExtra {
		t.Errorf("extra %+v, want %+v", doc.Extra, wantExtra)
	}
	runCLI(t, args([]string{"baseline", "--dest", dest, "--delete"}, srv.URL)...).want(t, exitOK)
	assertMirrorIsSource(t, src, dest)
	runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitOK)
}
