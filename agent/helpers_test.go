package agent_test

import (
	"bytes"
	"compress/gzip"
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

// gzipZeros returns a gzip stream that inflates to about n zero bytes: one
// member of 1 MiB of zeros, repeated (gzip readers read every member), so
// building a bomb costs no time.
func gzipZeros(t *testing.T, n int64) []byte {
	t.Helper()
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	return bytes.Repeat(member.Bytes(), int(n>>20))
}
