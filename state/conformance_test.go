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
	statetest.Run(t, func(t *testing.T) statetest.Store {
		o := state.DefaultOptions()
		o.Path = filepath.Join(t.TempDir(), "state.db")
		db, err := state.Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}
