package pgstate

import (
	"context"
	"testing"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/fixtures/scaletest"
	"github.com/resync-dest/resync-dest/fixtures/statetest"
)

var _ agent.Store = (*DB)(nil)

// open opens a fresh database of the test server.
func open(t testing.TB, edit func(*Options)) *DB {
	t.Helper()
	o := DefaultOptions()
	o.URL = scaletest.NewPostgres(t)
	if edit != nil {
		edit(&o)
	}
	db, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The suite the SQLite state passes (state.TestConformance).
func TestConformance(t *testing.T) {
	statetest.Run(t, func(t *testing.T) statetest.Store { return open(t, nil) })
}

// BenchmarkApplyCommits30000 is the writer's commits of an apply, as the
// SQLite state's benchmark of that name: 30,000 changes on 100,000 held
// resources (statetest.ApplyCommits). The server does the work: ns/op is
// the figure.
func BenchmarkApplyCommits30000(b *testing.B) {
	statetest.ApplyCommits(b, open(b, nil), 100_000, 30_000)
}
