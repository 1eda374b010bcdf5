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
func open(t *testing.T, edit func(*Options)) *DB {
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
