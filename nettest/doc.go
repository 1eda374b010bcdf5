// Package nettest holds the network-fault tests that put Toxiproxy
// between resync-dest and a fixture Source: connections cut mid-body,
// bodies delivered in slices with latency, bandwidth limits, resets and
// responses that never come. They live in a module of their own so that
// Toxiproxy, and the old versions of the modules it requires, stay out of
// the product's go.mod; the main module is replaced by the directory
// above. The command-line tests drive the resync-dest binary, built from
// the main module with its vendored dependencies; the client tests use
// the source package directly, with timeouts too small for a flag.
//
// Run them with `cd nettest && go test -race ./...` (scripts/test.sh and
// CI do); the module's dependencies come from the Go module proxy.
package nettest
