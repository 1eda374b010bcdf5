package state

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// applied is one record EachApplied visits.
type applied struct {
	uri string
	ch  resourcesync.Change
	t   time.Time
}

func eachApplied(t *testing.T, db *DB, setID int64, since time.Time) []applied {
	t.Helper()
	var got []applied
	err := db.EachApplied(context.Background(), setID, since, func(uri string, ch resourcesync.Change, at time.Time) error {
		got = append(got, applied{uri, ch, at})
		return nil
	})
	if err != nil {
		t.Fatalf("EachApplied: %v", err)
	}
	return got
}

// EachApplied visits every applied record at or after since once, in
// (URI, time, change) order, across pages, and never a failed record or
// one of another set.
func TestEachApplied(t *testing.T) {
	db := openTest(t)
	s := ensureSet(t, db, capList)
	other := ensureSet(t, db, "http://example.org/other/capabilitylist.xml")
	base := time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC)
	n := 2*changesPage + changesPage/2
	var b, ob Batch
	var want []applied
	since := base.Add(time.Hour)
	for i := range n {
		// Three times: the middle one holds more than a page.
		at := base.Add(time.Duration(min(i/(changesPage/2), 3)) * time.Hour)
		ch := resourcesync.ChangeUpdated
		if i%5 == 0 {
			ch = resourcesync.ChangeCreated
		}
		r := resourcesync.ChangeRecord{URI: fmt.Sprintf("http://example.org/%05d", (i*7919)%n), Change: ch, Time: at, Failed: i%7 == 0}
		b.Changes = append(b.Changes, r)
		ob.Changes = append(ob.Changes, resourcesync.ChangeRecord{URI: r.URI + "/other", Change: ch, Time: at})
		if !r.Failed && !at.Before(since) {
			want = append(want, applied{r.URI, ch, at})
		}
	}
	commit(t, db, s.ID, &b)
	commit(t, db, other.ID, &ob)
	slices.SortFunc(want, func(x, y applied) int {
		if c := strings.Compare(x.uri, y.uri); c != 0 {
			return c
		}
		if c := x.t.Compare(y.t); c != 0 {
			return c
		}
		return strings.Compare(string(x.ch), string(y.ch))
	})
	if got := eachApplied(t, db, s.ID, since); !slices.Equal(got, want) {
		t.Errorf("EachApplied since %s: %d records, want %d; first %v, want %v", since, len(got), len(want), got[:min(3, len(got))], want[:3])
	}
}

// States of schema versions 7 (change records keyed by URI first) and 8
// (by time first) upgrade to records keyed by URI first, every record
// kept, and a read-only open of the older file still reads them.
func TestChangesKeyedByURIAfterUpgrade(t *testing.T) {
	for _, tc := range []struct {
		version int
		key     string
	}{
		{7, "set_id, uri, time, change"},
		{8, "set_id, time, uri, change"},
	} {
		t.Run(fmt.Sprintf("version %d", tc.version), func(t *testing.T) {
			testChangesUpgrade(t, tc.version, tc.key)
		})
	}
}

func testChangesUpgrade(t *testing.T, version int, key string) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	db := openAt(t, path)
	s := ensureSet(t, db, capList)
	base := time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC)
	recs := []resourcesync.ChangeRecord{
		{URI: "http://example.org/b", Change: resourcesync.ChangeCreated, Time: base, List: "http://example.org/cl1.xml", Position: 1},
		{URI: "http://example.org/a", Change: resourcesync.ChangeUpdated, Time: base.Add(time.Hour), List: "http://example.org/cl1.xml", Position: 2},
		{URI: "http://example.org/c", Change: resourcesync.ChangeDeleted, Time: base.Add(time.Hour), Failed: true, Cause: "gone wrong"},
	}
	commit(t, db, s.ID, &Batch{Changes: recs})
	db.Close()
	rawExec(t, path, `CREATE TABLE changes_old (
		set_id INTEGER NOT NULL REFERENCES sets (id) ON DELETE CASCADE, uri TEXT NOT NULL, change TEXT NOT NULL,
		time TEXT NOT NULL, list TEXT NOT NULL DEFAULT '', position INTEGER NOT NULL DEFAULT 0,
		failed INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)), cause TEXT NOT NULL DEFAULT '', recorded TEXT NOT NULL,
		PRIMARY KEY (`+key+`)) WITHOUT ROWID`,
		`INSERT INTO changes_old SELECT set_id, uri, change, time, list, position, failed, cause, recorded FROM changes`,
		`DROP TABLE changes`, `ALTER TABLE changes_old RENAME TO changes`, fmt.Sprintf(`PRAGMA user_version = %d`, version))
	want := []applied{{recs[1].URI, recs[1].Change, recs[1].Time}, {recs[0].URI, recs[0].Change, recs[0].Time}}
	check := func(db *DB, when string) {
		t.Helper()
		if got := eachApplied(t, db, s.ID, time.Time{}); !slices.Equal(got, want) {
			t.Errorf("%s: EachApplied = %v, want %v", when, got, want)
		}
		for _, r := range recs {
			recorded, failed, err := db.ChangeStatus(ctx, s.ID, r.URI, r.Change, r.Time)
			if err != nil || !recorded || failed != r.Failed {
				t.Errorf("%s: ChangeStatus(%s) = %v, %v, %v; want recorded, failed %v", when, r.URI, recorded, failed, err, r.Failed)
			}
		}
	}
	ro := openReadOnly(t, path)
	check(ro, fmt.Sprintf("read-only, version %d", version))
	ro.Close()

	db = openAt(t, path)
	check(db, "upgraded")
	var ddl string
	if err := db.read.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE name = 'changes'`).Scan(&ddl); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ddl, "PRIMARY KEY (set_id, uri, time, change)") {
		t.Errorf("changes after the upgrade:\n%s\nwant keyed by (set_id, uri, time, change)", ddl)
	}
	// Recording a change again still updates its record (the upsert's key).
	again := recs[2]
	again.Failed, again.Cause = false, ""
	commit(t, db, s.ID, &Batch{Changes: []resourcesync.ChangeRecord{again}})
	if _, failed, err := db.ChangeStatus(ctx, s.ID, again.URI, again.Change, again.Time); err != nil || failed {
		t.Errorf("ChangeStatus after recording it applied = failed %v, %v", failed, err)
	}
}
