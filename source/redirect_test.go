package source

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestRedirectLimit(t *testing.T) {
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		http.Redirect(w, r, fmt.Sprintf("/r/%d", i+1), http.StatusFound)
	})
	c := newClient(t, func(o *Options) { o.MaxRedirects = 3 })
	_, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/r/0"}, &memSink{})
	wantIs(t, err, ErrRedirect)
	wantNotIs(t, err, resourcesync.ErrUnavailable)
	if n.get() != 4 { // the request and three redirects, not retried
		t.Errorf("server saw %d requests, want 4", n.get())
	}
	if !strings.Contains(err.Error(), srv.URL+"/r/0") || !strings.Contains(err.Error(), "more than 3 redirects") {
		t.Errorf("error %q should name the URL and the limit", err)
	}

	// Within the limit is fine.
	c = newClient(t, func(o *Options) { o.MaxRedirects = 10 })
	srv2, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/")); i < 10 {
			http.Redirect(w, r, fmt.Sprintf("/r/%d", i+1), http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("there"))
	})
	got, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv2.URL + "/r/0"}, &memSink{})
	if err != nil || got.FinalURL != srv2.URL+"/r/10" {
		t.Errorf("ten redirects: %+v, %v", got, err)
	}
}

func TestHTTPSToHTTPRedirectIsRefused(t *testing.T) {
	plain, plainN := serve(t, content([]byte("in the clear")))
	secure := newTLSServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/doc", http.StatusFound)
	})
	c := newClient(t, func(o *Options) { o.CACertFile = caFile(t, secure) })
	for _, get := range []func() error{
		func() error {
			_, err := c.Download(context.Background(), resourcesync.Fetch{URL: secure.URL + "/doc"}, &memSink{})
			return err
		},
		func() error { _, _, _, err := c.OpenDocument(context.Background(), secure.URL+"/doc"); return err },
	} {
		err := get()
		wantIs(t, err, ErrRedirect)
		if !strings.Contains(err.Error(), secure.URL+"/doc") || !strings.Contains(err.Error(), plain.URL+"/doc") {
			t.Errorf("error %q should name both URLs", err)
		}
	}
	if plainN.get() != 0 {
		t.Errorf("the http server saw %d requests, want none", plainN.get())
	}
}

func TestNonHTTPURLsAreRejected(t *testing.T) {
	c := newClient(t, nil)
	for _, u := range []string{
		"file:///etc/passwd", "ftp://example.com/x", "/relative/path", "relative", "",
		"http://", "https:opaque", "mailto:a@example.com", "http://[::1", "gopher://x",
	} {
		_, err := c.Download(context.Background(), resourcesync.Fetch{URL: u}, &memSink{})
		if !errors.Is(err, ErrUnsupportedURL) || !strings.Contains(err.Error(), fmt.Sprintf("%q", u)) {
			t.Errorf("Download(%q): %v, want ErrUnsupportedURL naming the URL", u, err)
		}
		_, _, _, err = c.OpenDocument(context.Background(), u)
		wantIs(t, err, ErrUnsupportedURL)
	}
}

func TestRedirectToNonHTTPIsRefused(t *testing.T) {
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "file:///etc/passwd")
		w.WriteHeader(http.StatusFound)
	})
	_, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, &memSink{})
	wantIs(t, err, ErrRedirect)
	wantIs(t, err, ErrUnsupportedURL)
	if n.get() != 1 {
		t.Errorf("server saw %d requests, want 1", n.get())
	}
}

// TestRedirectHostPolicy is the SSRF of issue 22 at the client: a Source
// answers with a redirect to an internal host (a canary on 127.0.0.2, like
// a cloud metadata service). Without a host policy allowing it, the hop is
// refused before the canary is asked, for documents and bitstreams alike,
// and the error names both URLs; nothing reaches the sink. A policy that
// allows the host (--allow-host), or WithHosts widening a client to it,
// lets the hop through; hops on the server asked are always followed.
func TestRedirectHostPolicy(t *testing.T) {
	canary := fixtures.NewCanary(t)
	target := canary.URL + "/latest/meta-data"
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, target, http.StatusFound)
		case "/home":
			http.Redirect(w, r, "/there", http.StatusMovedPermanently)
		default:
			_, _ = w.Write([]byte("own " + r.URL.Path))
		}
	})
	canaryHost := strings.TrimPrefix(canary.URL, "http://")
	get := func(c *Client, u string) (string, error) {
		var sink memSink
		if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: u}, &sink); err != nil {
			return sink.buf.String(), err
		}
		_, _, body, err := c.OpenDocument(context.Background(), u)
		if err != nil {
			return sink.buf.String(), err
		}
		body.Close()
		return sink.buf.String(), nil
	}
	own := resourcesync.NewScope([]string{srv.URL + "/capabilitylist.xml"}, nil)
	for name, c := range map[string]*Client{
		"no policy":          newClient(t, nil),
		"the Source's scope": newClient(t, func(o *Options) { o.Hosts = own }),
		"another host only":  newClient(t, func(o *Options) { o.Hosts = resourcesync.NewScope(nil, []string{"127.0.0.3"}) }),
	} {
		got, err := get(c, srv.URL+"/away")
		wantIs(t, err, ErrRedirect)
		if !strings.Contains(err.Error(), srv.URL+"/away") || !strings.Contains(err.Error(), target) {
			t.Errorf("%s: error %q should name both URLs", name, err)
		}
		if got != "" {
			t.Errorf("%s: the sink received %q", name, got)
		}
		if _, err := get(c, srv.URL+"/home"); err != nil {
			t.Errorf("%s: a redirect on the same server: %v", name, err)
		}
	}
	if n := canary.Requests(); n != 0 {
		t.Fatalf("the internal host was asked %d times", n)
	}

	allowed := newClient(t, func(o *Options) { o.Hosts = resourcesync.NewScope(nil, []string{canaryHost}) })
	if got, err := get(allowed, srv.URL+"/away"); err != nil || got != "canary" {
		t.Errorf("an allowed host: %q, %v", got, err)
	}
	strict := newClient(t, func(o *Options) { o.Hosts = own })
	widened := strict.WithHosts(resourcesync.NewScope([]string{srv.URL + "/"}, []string{"127.0.0.2"}))
	if _, err := get(widened, srv.URL+"/away"); err != nil {
		t.Errorf("WithHosts: %v", err)
	}
	if _, err := get(strict, srv.URL+"/away"); !errors.Is(err, ErrRedirect) {
		t.Errorf("WithHosts changed the client it was called on: %v", err)
	}
	if n := canary.Requests(); n != 4 {
		t.Errorf("the allowed host was asked %d times, want 4 (two clients, a bitstream and a document each)", n)
	}
}
