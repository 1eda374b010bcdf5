package source

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Network guarantees (README "Guarantees", items 5 and 7) that need
// timeouts smaller than the command line's defaults: they are proven here,
// on the client, through Toxiproxy in-process and the fixture Source's
// trickled bodies. The plain cases (one stalled server, one idle body, TLS
// failures, unreachable ports) are in timeout_test.go, tls_test.go and
// retry_test.go.

// proxied starts a Toxiproxy proxy to the server at upstream (host:port)
// and returns it with its base URL.
func proxied(t *testing.T, upstream string) (*toxiproxy.Proxy, string) {
	t.Helper()
	ts := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(ts, "guarantee", "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatalf("start toxiproxy: %v", err)
	}
	t.Cleanup(p.Stop)
	return p, "http://" + p.Listen
}

// addToxic installs a toxic from its JSON description.
func addToxic(t *testing.T, p *toxiproxy.Proxy, typ, stream, attrs string) {
	t.Helper()
	js := fmt.Sprintf(`{"name":%q,"type":%q,"stream":%q,"toxicity":1,"attributes":%s}`, typ+"_"+stream, typ, stream, attrs)
	if _, err := p.Toxics.AddToxicJson(strings.NewReader(js)); err != nil {
		t.Fatalf("add toxic %s: %v", js, err)
	}
}

// A Source that takes the request and never answers (Toxiproxy drops
// everything it sends back): the header timeout fires on every attempt,
// the attempts are bounded, and the error says what happened.
func TestGuaranteeStalledHeadersThroughToxiproxy(t *testing.T) {
	srv, n := serve(t, content([]byte("never seen")))
	p, base := proxied(t, strings.TrimPrefix(srv.URL, "http://"))
	addToxic(t, p, "timeout", "downstream", `{"timeout":0}`)
	c := newClient(t, func(o *Options) {
		o.ResponseHeaderTimeout = 100 * time.Millisecond
		o.MaxAttempts = 3
	})
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: base + "/x"}, &memSink{})
	wantIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), "timeout awaiting response headers") {
		t.Errorf("error %q should say the headers timed out", err)
	}
	if got := n.reach(3); got != 3 {
		t.Errorf("the Source got %d requests, want 3 attempts", got)
	}
}

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

// Connections cut after a few bytes (Toxiproxy limit_data), with the full
// Content-Length announced: every attempt is caught short by its length,
// retried, and the fetch fails as unavailable - never a short success.
func TestGuaranteeCutConnectionsAreCaughtByLength(t *testing.T) {
	body := pattern(4000)
	srv, n := serve(t, content(body))
	p, base := proxied(t, strings.TrimPrefix(srv.URL, "http://"))
	addToxic(t, p, "limit_data", "downstream", `{"bytes":1000}`)
	c := newClient(t, func(o *Options) { o.MaxAttempts = 3 })
	sink := &memSink{}
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: base + "/x"}, sink)
	wantIs(t, err, resourcesync.ErrUnavailable)
	if got := n.reach(3); got != 3 {
		t.Errorf("the Source got %d requests, want 3 attempts", got)
	}
	if sink.buf.Len() == len(body) {
		t.Errorf("the sink holds the whole body though every attempt was cut")
	}
}

// A big download that flows steadily through a bandwidth limit lasts many
// idle timeouts in total and is not killed: 50 MB at 20 MB/s, idle
// timeout 1 s.
func TestGuaranteeBigSteadyDownloadIsNotKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 50 MB through a throttled proxy")
	}
	const size = 50 << 20
	chunk := pattern(1 << 20)
	sum := md5.New()
	for range size / len(chunk) {
		sum.Write(chunk)
	}
	want := resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: hex.EncodeToString(sum.Sum(nil))}}
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(size))
		for range size / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	p, base := proxied(t, strings.TrimPrefix(srv.URL, "http://"))
	addToxic(t, p, "bandwidth", "downstream", `{"rate":20480}`)
	const idle = time.Second
	c := newClient(t, func(o *Options) {
		o.IdleTimeout = idle
		o.MaxAttempts = 1 // one attempt: a watchdog that timed the whole body would fail it
	})
	start := time.Now()
	got, err := c.Download(context.Background(), resourcesync.Fetch{URL: base + "/big", Hash: want, Length: size, HasLength: true}, discardSink{})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("a steady download was killed after %s: %v", took, err)
	}
	if got.Bytes != size {
		t.Fatalf("got %d bytes, want %d", got.Bytes, size)
	}
	if took < 2*idle {
		t.Errorf("the download took %s; the test needs it to outlast the idle timeout (%s) several times", took, idle)
	}
}
