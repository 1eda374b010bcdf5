package source

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestParseAuthHost(t *testing.T) {
	tests := []struct {
		in         string
		host, port string
		bad        bool
	}{
		{in: "example.org", host: "example.org"},
		{in: "Example.ORG:8443", host: "example.org", port: "8443"},
		{in: "example.org:0443", host: "example.org", port: "443"},
		{in: "127.0.0.1:8080", host: "127.0.0.1", port: "8080"},
		{in: "[::1]:8080", host: "::1", port: "8080"},
		{in: "[::1]", host: "::1"},
		{in: "::1", host: "::1"},
		{in: "", bad: true},
		{in: "http://example.org", bad: true},
		{in: "example.org/path", bad: true},
		{in: "user@example.org", bad: true},
		{in: "example.org:", bad: true},
		{in: "example.org:99999", bad: true},
		{in: "example.org:http", bad: true},
		{in: ":80", bad: true},
		{in: "[::1", bad: true},
		{in: "[::1]x", bad: true},
	}
	for _, tt := range tests {
		h, err := parseAuthHost(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("parseAuthHost(%q) = %+v, want an error", tt.in, h)
			}
			continue
		}
		if err != nil || h.host != tt.host || h.port != tt.port {
			t.Errorf("parseAuthHost(%q) = %+v, %v; want %s %s", tt.in, h, err, tt.host, tt.port)
		}
	}
}

func TestAuthHostMatches(t *testing.T) {
	tests := []struct {
		entry, url string
		want       bool
	}{
		{"example.org", "https://example.org/x", true},
		{"example.org", "https://EXAMPLE.org:443/x", true},
		{"example.org", "http://example.org:80/x", true},
		{"example.org", "http://example.org:8080/x", false},
		{"example.org", "https://www.example.org/x", false},
		{"example.org", "https://example.org.evil.com/x", false},
		{"example.org:443", "https://example.org/x", true},
		{"example.org:443", "http://example.org/x", false},
		{"example.org:8080", "http://example.org:8080/", true},
		{"example.org:8080", "http://example.org:08080/", true},
		{"127.0.0.1:8080", "http://127.0.0.1:8081/", false},
		{"[::1]:8080", "http://[::1]:8080/", true},
		{"::1", "https://[::1]/", true},
	}
	for _, tt := range tests {
		h, err := parseAuthHost(tt.entry)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(tt.url)
		if got := h.matches(u); got != tt.want {
			t.Errorf("%s matches %s = %v, want %v", tt.entry, tt.url, got, tt.want)
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

func TestHeadersGoOnlyToAuthHosts(t *testing.T) {
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
	// Same address, different port: a different host.
	sourceHost := strings.TrimPrefix(sourceSrv.URL, "http://")
	c := newClient(t, func(o *Options) {
		o.Headers = http.Header{"Authorization": {"Bearer s3cret"}, "x-api-key": {"k"}}
		o.AuthHosts = []string{strings.ToUpper(sourceHost)}
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
