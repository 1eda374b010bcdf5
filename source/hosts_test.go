package source

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestParseOrigin(t *testing.T) {
	tests := []struct {
		in               string
		scheme, hostPort string
		bad              bool
	}{
		{in: "https://example.org", scheme: "https", hostPort: "example.org:443"},
		{in: "https://example.org/", scheme: "https", hostPort: "example.org:443"},
		{in: "HTTP://Example.ORG:8443", scheme: "http", hostPort: "example.org:8443"},
		{in: "https://example.org:0443", scheme: "https", hostPort: "example.org:443"},
		{in: "http://example.org", scheme: "http", hostPort: "example.org:80"},
		{in: "http://127.0.0.1:8080", scheme: "http", hostPort: "127.0.0.1:8080"},
		{in: "http://[::1]:8080", scheme: "http", hostPort: "[::1]:8080"},
		{in: "https://[::1]", scheme: "https", hostPort: "[::1]:443"},
		{in: "", bad: true},
		{in: "example.org", bad: true},
		{in: "example.org:443", bad: true},
		{in: "ftp://example.org", bad: true},
		{in: "https://example.org/path", bad: true},
		{in: "https://user@example.org", bad: true},
		{in: "https://example.org?q", bad: true},
		{in: "https://example.org#f", bad: true},
		{in: "https://example.org:99999", bad: true},
		{in: "https://example.org:0", bad: true},
		{in: "https://:443", bad: true},
		{in: "https:opaque", bad: true},
		{in: "http://[::1", bad: true},
	}
	for _, tt := range tests {
		o, err := parseOrigin(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("parseOrigin(%q) = %+v, want an error", tt.in, o)
			}
			continue
		}
		if err != nil || o.scheme != tt.scheme || o.hostPort != tt.hostPort {
			t.Errorf("parseOrigin(%q) = %+v, %v; want %s %s", tt.in, o, err, tt.scheme, tt.hostPort)
		}
	}
}

func TestOriginMatches(t *testing.T) {
	tests := []struct {
		origin, url string
		want        bool
	}{
		{"https://example.org", "https://example.org/x", true},
		{"https://example.org", "https://EXAMPLE.org:443/x", true},
		{"https://example.org", "https://example.org:0443/x", true},
		{"https://example.org:0443", "https://example.org/x", true},
		// The leak of issue 22: an https origin's headers over http, to
		// the default port of http.
		{"https://example.org", "http://example.org/x", false},
		{"https://example.org", "http://example.org:443/x", false},
		{"http://example.org", "https://example.org/x", false},
		{"http://example.org", "http://example.org:80/x", true},
		{"http://example.org", "http://example.org:8080/x", false},
		{"https://example.org", "https://www.example.org/x", false},
		{"https://example.org", "https://example.org.evil.com/x", false},
		{"http://example.org:8080", "http://example.org:08080/", true},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081/", false},
		{"http://[::1]:8080", "http://[::1]:8080/", true},
		{"https://[::1]", "https://[::1]/", true},
	}
	for _, tt := range tests {
		o, err := parseOrigin(tt.origin)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(tt.url)
		if got := o.matches(u); got != tt.want {
			t.Errorf("%s matches %s = %v, want %v", tt.origin, tt.url, got, tt.want)
		}
	}
}

func TestSameServerOrUpgrade(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"http://example.org/a", "http://example.org/b", true},
		{"http://example.org/a", "http://EXAMPLE.org:80/b", true},
		{"https://example.org/a", "https://example.org:0443/b", true},
		{"http://example.org/a", "https://example.org/b", true},
		{"http://example.org:80/a", "https://example.org:443/b", true},
		{"http://example.org:8080/a", "https://example.org:8443/b", false},
		{"http://example.org/a", "https://example.org:8443/b", false},
		{"http://example.org/a", "http://example.org:8080/b", false},
		{"http://127.0.0.1:8000/a", "http://127.0.0.1:6379/b", false},
		{"http://example.org/a", "http://127.0.0.2/latest/meta-data", false},
		{"http://example.org/a", "http://example.org.evil.com/b", false},
	}
	for _, tt := range tests {
		a, _ := url.Parse(tt.from)
		b, _ := url.Parse(tt.to)
		if got := sameServerOrUpgrade(a, b); got != tt.want {
			t.Errorf("%s -> %s stays on the server = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestHostKey(t *testing.T) {
	for in, want := range map[string]string{
		"http://Example.org/":        "example.org:80",
		"http://example.org:80/":     "example.org:80",
		"https://example.org/":       "example.org:443",
		"https://example.org:8443/":  "example.org:8443",
		"http://[::1]:8080/":         "[::1]:8080",
		"http://127.0.0.1:00080/abc": "127.0.0.1:80",
		"https://example.org:0443/":  "example.org:443",
	} {
		u, _ := url.Parse(in)
		if got := hostKey(u); got != want {
			t.Errorf("hostKey(%s) = %s, want %s", in, got, want)
		}
	}
}

// recordHeaders is a handler that remembers the Authorization and X-Api-Key
// headers of each request, by path.
type recordHeaders struct {
	mu   sync.Mutex
	seen map[string][2]string
	next http.HandlerFunc
}

func (h *recordHeaders) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	if h.seen == nil {
		h.seen = map[string][2]string{}
	}
	h.seen[r.URL.Path] = [2]string{r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")}
	h.mu.Unlock()
	h.next(w, r)
}

func (h *recordHeaders) get(path string) ([2]string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.seen[path]
	return v, ok
}

func TestHeadersGoOnlyToTheirOrigin(t *testing.T) {
	other := &recordHeaders{next: content([]byte("other"))}
	otherSrv, _ := serve(t, other.ServeHTTP)
	source := &recordHeaders{}
	sourceSrv, _ := serve(t, source.ServeHTTP)
	source.next = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, otherSrv.URL+"/landed", http.StatusFound)
			return
		}
		if r.URL.Path == "/home" {
			http.Redirect(w, r, "/doc", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("source"))
	}
	// Same address, different port: a different origin, which redirects
	// may reach (the host policy allows it) but headers may not.
	c := newClient(t, func(o *Options) {
		o.Headers = http.Header{"Authorization": {"Bearer s3cret"}, "x-api-key": {"k"}}
		o.HeaderOrigins = []string{strings.ToUpper(sourceSrv.URL)}
		o.Hosts = resourcesync.NewScope(nil, []string{strings.TrimPrefix(otherSrv.URL, "http://")})
	})
	ctx := context.Background()
	for _, u := range []string{sourceSrv.URL + "/doc", sourceSrv.URL + "/home", sourceSrv.URL + "/away", otherSrv.URL + "/direct"} {
		if _, err := c.Download(ctx, resourcesync.Fetch{URL: u}, &memSink{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, _, err := c.OpenDocument(ctx, sourceSrv.URL+"/list.xml"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/doc", "/home", "/away", "/list.xml"} {
		if got, _ := source.get(p); got != [2]string{"Bearer s3cret", "k"} {
			t.Errorf("source %s saw headers %q, want them all", p, got)
		}
	}
	for _, p := range []string{"/landed", "/direct"} {
		got, ok := other.get(p)
		if !ok || got != [2]string{} {
			t.Errorf("other host %s (requested: %v) saw headers %q, want none", p, ok, got)
		}
	}
}

// An anonymous download (a mirror's copy) carries none of the extra
// headers, even to their own origin and on a redirect there.
func TestAnonymousDownloadCarriesNoHeaders(t *testing.T) {
	rec := &recordHeaders{}
	srv, _ := serve(t, rec.ServeHTTP)
	rec.next = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "/copy", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("copy"))
	}
	c := newClient(t, func(o *Options) {
		o.Headers = http.Header{"Authorization": {"Bearer s3cret"}, "x-api-key": {"k"}}
		o.HeaderOrigins = []string{srv.URL}
	})
	ctx := context.Background()
	for _, p := range []string{"/direct", "/hop"} {
		if _, err := c.Download(ctx, resourcesync.Fetch{URL: srv.URL + p, Anonymous: true}, &memSink{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Download(ctx, resourcesync.Fetch{URL: srv.URL + "/named"}, &memSink{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/direct", "/copy"} {
		if got, ok := rec.get(p); !ok || got != [2]string{} {
			t.Errorf("anonymous %s (requested: %v) saw headers %q, want none", p, ok, got)
		}
	}
	if got, _ := rec.get("/named"); got != [2]string{"Bearer s3cret", "k"} {
		t.Errorf("a download that is not anonymous saw headers %q, want them all", got)
	}
}

func TestUserAgent(t *testing.T) {
	var mu sync.Mutex
	var agents []string
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		if r.URL.Path == "/r" {
			http.Redirect(w, r, "/x", http.StatusFound)
		}
	})
	c := newClient(t, func(o *Options) { o.UserAgent = "resync-dest/1.2.3 (+https://example.org/bot)" })
	if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/r"}, &memSink{}); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := c.OpenDocument(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(agents) != 3 {
		t.Fatalf("%d requests, want 3", len(agents))
	}
	for _, a := range agents {
		if a != "resync-dest/1.2.3 (+https://example.org/bot)" {
			t.Errorf("User-Agent %q", a)
		}
	}
	if DefaultOptions().UserAgent != "resync-dest/dev" {
		t.Errorf("default User-Agent %q", DefaultOptions().UserAgent)
	}
}

// gauge counts requests in flight and the most seen at once. Requests are
// held until release is closed; reached is closed when `per` are in.
type gauge struct {
	per     int
	release chan struct{}
	reached chan struct{}

	mu       sync.Mutex
	inFlight int
	peak     int
}

func newGauge(per int) *gauge {
	return &gauge{per: per, release: make(chan struct{}), reached: make(chan struct{})}
}

func (g *gauge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.inFlight++
	g.peak = max(g.peak, g.inFlight)
	if g.inFlight == g.per {
		select {
		case <-g.reached:
		default:
			close(g.reached)
		}
	}
	g.mu.Unlock()
	select {
	case <-g.release:
	case <-r.Context().Done():
	}
	g.mu.Lock()
	g.inFlight--
	g.mu.Unlock()
	_, _ = w.Write([]byte("ok"))
}

func TestPerHostLimit(t *testing.T) {
	const per, each = 3, 20
	source, other := newGauge(per), newGauge(per)
	sourceSrv, _ := serve(t, source.ServeHTTP)
	otherSrv, _ := serve(t, other.ServeHTTP)
	c := newClient(t, func(o *Options) { o.PerHost = per })
	var wg sync.WaitGroup
	errs := make(chan error, 2*each)
	for i := range 2 * each {
		wg.Go(func() {
			u := sourceSrv.URL
			if i%2 == 1 {
				u = otherSrv.URL
			}
			if i%4 < 2 {
				_, err := c.Download(context.Background(), resourcesync.Fetch{URL: u}, &memSink{})
				errs <- err
				return
			}
			_, _, body, err := c.OpenDocument(context.Background(), u)
			if err == nil {
				body.Close()
			}
			errs <- err
		})
	}
	// Both hosts reach the limit at the same time: it is per host, not
	// global. The servers then hold those requests a moment, time enough
	// for the other 34 ready requests to arrive if the limit did not hold
	// them back; waiting longer could only hide a failure, never cause one.
	for name, g := range map[string]*gauge{"source": source, "other": other} {
		select {
		case <-g.reached:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s never had %d requests in flight", name, per)
		}
	}
	time.Sleep(50 * time.Millisecond)
	close(source.release)
	close(other.release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, g := range map[string]*gauge{"source": source, "other": other} {
		if g.peak != per {
			t.Errorf("%s: at most %d requests in flight, want %d", name, g.peak, per)
		}
	}
}

// TestHTTPSHeadersNeverGoToHTTP is the clear-text leak of issue 22: a
// header given for https://example.com/ was also sent to
// http://example.com/ (port 80) when a list named such URLs, because the
// host it was recorded for had no port. With the two servers at the
// default ports of one host name (a dialer maps example.com:443 and :80 to
// loopback test servers), the header reaches the https origin only -
// directly, after a redirect on that origin, and never over http, whether
// the http URL is asked for directly or reached by a redirect.
func TestHTTPSHeadersNeverGoToHTTP(t *testing.T) {
	plain := &recordHeaders{next: content([]byte("plain"))}
	plainSrv, _ := serve(t, plain.ServeHTTP)
	secure := &recordHeaders{}
	secureSrv := newTLSServer(t, secure.ServeHTTP)
	secure.next = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "/landed", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("secure"))
	}
	c := newClient(t, func(o *Options) {
		o.CACertFile = caFile(t, secureSrv)
		o.Headers = http.Header{"Authorization": {"Bearer s3cret"}}
		o.HeaderOrigins = []string{"https://example.com/"}
		o.Hosts = resourcesync.NewScope([]string{"https://example.com/"}, []string{"example.com"})
	})
	addrs := map[string]string{
		"example.com:443": strings.TrimPrefix(secureSrv.URL, "https://"),
		"example.com:80":  strings.TrimPrefix(plainSrv.URL, "http://"),
	}
	var d net.Dialer
	c.base.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		to, ok := addrs[addr]
		if !ok {
			return nil, fmt.Errorf("test dialer: no server for %s", addr)
		}
		return d.DialContext(ctx, network, to)
	}
	ctx := context.Background()
	for _, u := range []string{"https://example.com/doc", "https://example.com/hop", "http://example.com/clear", "http://example.com:80/clear80"} {
		if _, err := c.Download(ctx, resourcesync.Fetch{URL: u}, &memSink{}); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	for _, p := range []string{"/doc", "/hop", "/landed"} {
		if got, _ := secure.get(p); got[0] != "Bearer s3cret" {
			t.Errorf("https %s saw Authorization %q, want it", p, got[0])
		}
	}
	for _, p := range []string{"/clear", "/clear80"} {
		got, ok := plain.get(p)
		if !ok || got[0] != "" {
			t.Errorf("http %s (requested: %v) saw Authorization %q, want none", p, ok, got[0])
		}
	}
}
