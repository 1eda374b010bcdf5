package pgstate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// A database of schema version 5 keyed its change records by URI first,
// with a second index by time; one of version 6 by time first. The upgrade
// keys them by URI first, with no second index, and keeps every record.
func TestChangesKeyedByURIAfterUpgrade(t *testing.T) {
	for _, tc := range []struct {
		version int
		layout  string // the changes table's indexes at that version
		indexes int
	}{
		{5, `ALTER TABLE changes DROP CONSTRAINT changes_pkey;
			ALTER TABLE changes ADD CONSTRAINT changes_pkey PRIMARY KEY (set_id, uri, time, change);
			CREATE INDEX IF NOT EXISTS changes_set_time ON changes (set_id, time, uri, change)`, 2},
		{6, `ALTER TABLE changes DROP CONSTRAINT changes_pkey;
			ALTER TABLE changes ADD CONSTRAINT changes_pkey PRIMARY KEY (set_id, time, uri, change)`, 1},
	} {
		t.Run(fmt.Sprintf("version %d", tc.version), func(t *testing.T) {
			testChangesUpgrade(t, tc.version, tc.layout, tc.indexes)
		})
	}
}

func testChangesUpgrade(t *testing.T, version int, layout string, indexes int) {
	ctx := context.Background()
	db := open(t, nil)
	url := db.pool.Config().ConnString()
	s, err := db.EnsureSet(ctx, "http://example.org/capabilitylist.xml", "")
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC)
	recs := []resourcesync.ChangeRecord{
		{URI: "http://example.org/b", Change: resourcesync.ChangeCreated, Time: base, List: "http://example.org/cl1.xml", Position: 1},
		{URI: "http://example.org/a", Change: resourcesync.ChangeUpdated, Time: base.Add(time.Hour), List: "http://example.org/cl1.xml", Position: 2},
		{URI: "http://example.org/c", Change: resourcesync.ChangeDeleted, Time: base.Add(time.Hour), Failed: true, Cause: "gone wrong"},
	}
	if err := db.Commit(ctx, s.ID, &resourcesync.Batch{Changes: recs}); err != nil {
		t.Fatal(err)
	}
	// Back to that version's layout, records and all.
	if _, err := db.pool.Exec(ctx, layout+`;
		UPDATE schema_version SET version = `+strconv.Itoa(version)); err != nil {
		t.Fatal(err)
	}
	if got := changeIndexes(t, db); len(got) != indexes {
		t.Fatalf("version %d's layout: indexes %v", version, got)
	}
	db.Close()

	o := DefaultOptions()
	o.URL = url
	db, err = Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.pool.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil || v != Version() || v < 7 {
		t.Fatalf("version after the upgrade %d, %v; want %d", v, err, Version())
	}
	if got, want := changeIndexes(t, db), []string{"changes_pkey (set_id,uri,time,change)"}; !slices.Equal(got, want) {
		t.Errorf("indexes of changes after the upgrade: %v, want %v", got, want)
	}
	var got []string
	err = db.EachApplied(ctx, s.ID, time.Time{}, func(uri string, ch resourcesync.Change, at time.Time) error {
		got = append(got, uri+" "+string(ch)+" "+at.Format(time.RFC3339))
		return nil
	})
	want := []string{"http://example.org/a updated 2013-01-03T01:00:00Z", "http://example.org/b created 2013-01-03T00:00:00Z"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("EachApplied = %v, %v; want %v", got, err, want)
	}
	for _, r := range recs {
		recorded, failed, err := db.ChangeStatus(ctx, s.ID, r.URI, r.Change, r.Time)
		if err != nil || !recorded || failed != r.Failed {
			t.Errorf("ChangeStatus(%s) = %v, %v, %v; want recorded, failed %v", r.URI, recorded, failed, err, r.Failed)
		}
	}
	// Recording a change again still updates its record (the upsert's
	// conflict target is the new key).
	again := recs[2]
	again.Failed, again.Cause = false, ""
	if err := db.Commit(ctx, s.ID, &resourcesync.Batch{Changes: []resourcesync.ChangeRecord{again}}); err != nil {
		t.Fatal(err)
	}
	if _, failed, err := db.ChangeStatus(ctx, s.ID, again.URI, again.Change, again.Time); err != nil || failed {
		t.Errorf("ChangeStatus after recording it applied = failed %v, %v", failed, err)
	}
}

// changeIndexes lists the indexes of the changes table as "name (columns)".
func changeIndexes(t *testing.T, db *DB) []string {
	t.Helper()
	rows, err := db.pool.Query(context.Background(), `
		SELECT c.relname || ' (' || string_agg(a.attname, ',' ORDER BY k.ord) || ')'
		FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid
		CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k (attnum, ord)
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
		WHERE i.indrelid = 'changes'::regclass
		GROUP BY c.relname ORDER BY c.relname`)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
