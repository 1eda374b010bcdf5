package nettest

import (
	"fmt"
	"strings"
	"testing"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// toxic is a Toxiproxy proxy, in-process, in front of an upstream server:
// the toxics added act on every connection through it.
type toxic struct {
	p   *toxiproxy.Proxy
	URL string // http:// and the proxy's address
}

// proxy starts a proxy to upstream (host:port) on a loopback port; the
// test's cleanup stops it.
func proxy(t *testing.T, upstream string) *toxic {
	t.Helper()
	ts := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(ts, "nettest", "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatalf("start toxiproxy: %v", err)
	}
	t.Cleanup(p.Stop)
	return &toxic{p: p, URL: "http://" + p.Listen}
}

// add installs a toxic on the downstream (server to client) or upstream
// stream with the given toxicity (the share of connections it acts on)
// and attributes, as Toxiproxy's JSON API takes them.
func (x *toxic) add(t *testing.T, name, typ, stream string, toxicity float64, attrs string) {
	t.Helper()
	js := fmt.Sprintf(`{"name":%q,"type":%q,"stream":%q,"toxicity":%g,"attributes":%s}`, name, typ, stream, toxicity, attrs)
	if _, err := x.p.Toxics.AddToxicJson(strings.NewReader(js)); err != nil {
		t.Fatalf("add toxic %s: %v", js, err)
	}
}
