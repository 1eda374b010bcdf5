package state_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures/statetest"
	"github.com/resync-dest/resync-dest/state"
)

// The suite every state adapter passes (pgstate runs it too).
func TestConformance(t *testing.T) {
	statetest.Run(t, func(t *testing.T) statetest.Store { return openEmpty(t) })
}

// BenchmarkApplyCommits30000 is the writer's commits of an apply: 30,000
// changes on 100,000 held resources (statetest.ApplyCommits).
func BenchmarkApplyCommits30000(b *testing.B) {
	statetest.ApplyCommits(b, openEmpty(b), 100_000, 30_000)
}

// BenchmarkFirstBaseline50000 is what a first baseline of 50,000 resources
// of the fixture Source asks of the state (statetest.FirstBaseline): compare
// its CPU a record with what a real run saves without the state's work
// (the README's baseline row).
func BenchmarkFirstBaseline50000(b *testing.B) {
	statetest.FirstBaseline(b, func(t testing.TB) statetest.Store { return openEmpty(t) }, 50_000)
}

// openEmpty opens an empty state, closed when t ends.
func openEmpty(t testing.TB) *state.DB {
	t.Helper()
	o := state.DefaultOptions()
	o.Path = filepath.Join(t.TempDir(), "state.db")
	db, err := state.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
