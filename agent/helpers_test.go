package agent_test

import (
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/source"
)

// testClient is the real HTTP adapter with waits short enough for tests.
func testClient(t *testing.T) *source.Client { return desttest.Client(t) }

// served starts a fixture Source on loopback.
func served(t *testing.T, mod func(*fixtures.Spec)) (*fixtures.Source, *fixtures.Server) {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 20
	if mod != nil {
		mod(&spec)
	}
	return fixtures.NewServed(t, spec)
}
