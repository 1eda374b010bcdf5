package source

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Network guarantees (README "Guarantees", item 7) that need timeouts
// smaller than the command line's defaults, proven here on the client.
// Those made by Toxiproxy in-process (stalled headers, cut connections, a
// big download through a bandwidth limit) are in the nettest module
// (nettest/source_test.go), which keeps Toxiproxy's dependencies out of
// the product's go.mod. The plain cases (one stalled server, one idle
// body, TLS failures, unreachable ports) are in timeout_test.go,
// tls_test.go and retry_test.go.

// A body trickling one byte every 10 s (the fixture's trickle fault) is
// abandoned by the idle timeout on every attempt - without waiting the
// 10 s - and reported unavailable; nothing partial is delivered as done.
func TestGuaranteeTricklingBodyTimesOut(t *testing.T) {
	spec := fixtures.DefaultSpec()
	spec.Resources = 1
	src, _ := fixtures.NewServed(t, spec)
	r := src.Resources(0)[0]
	src.SetFault(r.Path, fixtures.Fault{Trickle: 10 * time.Second, TrickleBytes: 1})
	c := newClient(t, func(o *Options) {
		o.IdleTimeout = 100 * time.Millisecond
		o.MaxAttempts = 2
	})
	sink := &memSink{}
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: r.URI, Hash: r.Fixity, Length: r.Size, HasLength: true}, sink)
	wantIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), "no data received for 100ms") {
		t.Errorf("error %q should name the idle timeout", err)
	}
	if n := src.Requests(r.Path); n != 2 {
		t.Errorf("%d requests, want 2 attempts", n)
	}
}
