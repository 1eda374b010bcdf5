package source

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

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
