package source

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/rs/zerolog"
)

func TestRetryThenSucceed(t *testing.T) {
	body := pattern(3000)
	srv, n := serve(t, sequence(status(503), status(503), content(body)))
	var sink memSink
	got, err := newClient(t, nil).Download(context.Background(), fetchOf(srv.URL+"/a", body), &sink)
	if err != nil {
		t.Fatal(err)
	}
	if n.get() != 3 {
		t.Errorf("server saw %d requests, want 3", n.get())
	}
	if got.Bytes != int64(len(body)) || !bytes.Equal(sink.buf.Bytes(), body) {
		t.Errorf("got %d bytes, sink holds %d; want %d", got.Bytes, sink.buf.Len(), len(body))
	}
}

func TestRetryAfterIsClamped(t *testing.T) {
	for _, ra := range []string{"86400", time.Now().Add(24 * time.Hour).UTC().Format(http.TimeFormat)} {
		t.Run(ra, func(t *testing.T) {
			tooMany := func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", ra)
				http.Error(w, "slow down", http.StatusTooManyRequests)
			}
			srv, n := serve(t, sequence(tooMany, tooMany, content([]byte("ok"))))
			// A whole day's Retry-After would hang the test: it must be clamped
			// to MaxRetryWait (5ms in tests).
			_, err := newClient(t, nil).Download(context.Background(), fetchOf(srv.URL, []byte("ok")), &memSink{})
			if err != nil {
				t.Fatal(err)
			}
			if n.get() != 3 {
				t.Errorf("server saw %d requests, want 3", n.get())
			}
		})
	}
}

func TestAttemptsBoundedThenUnavailable(t *testing.T) {
	for _, code := range []int{429, 500, 502, 503, 504} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			srv, n := serve(t, status(code))
			c := newClient(t, func(o *Options) { o.MaxAttempts = 4 })
			_, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/x"}, &memSink{})
			wantIs(t, err, resourcesync.ErrUnavailable)
			wantNotIs(t, err, resourcesync.ErrNotFound)
			var se *StatusError
			if !errors.As(err, &se) || se.Status != code || se.Attempts != 4 {
				t.Fatalf("error %#v, want *StatusError{Status: %d, Attempts: 4}", err, code)
			}
			if n.get() != 4 {
				t.Errorf("server saw %d requests, want 4", n.get())
			}
			if !strings.Contains(err.Error(), srv.URL+"/x") || !strings.Contains(err.Error(), "HTTP ") {
				t.Errorf("error %q should name the URL and the status", err)
			}
		})
	}
}

func TestNotFoundIsNotRetried(t *testing.T) {
	for _, code := range []int{404, 410} {
		srv, n := serve(t, status(code))
		_, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, &memSink{})
		wantIs(t, err, resourcesync.ErrNotFound)
		wantNotIs(t, err, resourcesync.ErrUnavailable)
		if n.get() != 1 {
			t.Errorf("%d: server saw %d requests, want 1", code, n.get())
		}
		_, _, _, err = newClient(t, nil).OpenDocument(context.Background(), srv.URL)
		wantIs(t, err, resourcesync.ErrNotFound)
	}
}

func TestOtherClientErrorsAreNotRetried(t *testing.T) {
	for _, code := range []int{400, 401, 403, 405, 451} {
		srv, n := serve(t, status(code))
		_, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, &memSink{})
		var se *StatusError
		if !errors.As(err, &se) || se.Status != code {
			t.Fatalf("error %v, want a *StatusError for %d", err, code)
		}
		wantNotIs(t, err, resourcesync.ErrNotFound)
		wantNotIs(t, err, resourcesync.ErrUnavailable)
		if n.get() != 1 {
			t.Errorf("%d: server saw %d requests, want 1", code, n.get())
		}
	}
}

func TestPartialContentIsRefused(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusPartialContent)
		_, _ = w.Write([]byte("part"))
	})
	_, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, &memSink{})
	var se *StatusError
	if !errors.As(err, &se) || se.Status != http.StatusPartialContent {
		t.Fatalf("error %v, want a *StatusError for 206", err)
	}
}

func TestUnreachablePortIsUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/gone"
	ln.Close()
	c := newClient(t, func(o *Options) { o.MaxAttempts = 3 })
	_, err = c.Download(context.Background(), resourcesync.Fetch{URL: url}, &memSink{})
	wantIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "after 3 attempts") || !strings.Contains(err.Error(), "refused") {
		t.Errorf("error %q should name the URL, the attempts and the cause", err)
	}
	_, _, _, err = c.OpenDocument(context.Background(), url)
	wantIs(t, err, resourcesync.ErrUnavailable)
}

func TestCancelDuringBackoffReturnsPromptly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		cancel() // the client is about to wait an hour before retrying
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	c := newClient(t, func(o *Options) { o.MinRetryWait, o.MaxRetryWait = time.Hour, time.Hour })
	_, err := c.Download(ctx, resourcesync.Fetch{URL: srv.URL}, &memSink{})
	wantIs(t, err, context.Canceled)
	wantNotIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), srv.URL) {
		t.Errorf("error %q should name the URL", err)
	}
	if n.get() != 1 {
		t.Errorf("server saw %d requests, want 1", n.get())
	}
}

func TestCancelMidBodyIsNotRetried(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = w.Write([]byte("half"))
		w.(http.Flusher).Flush()
		cancel()
		<-r.Context().Done()
	})
	_, err := newClient(t, nil).Download(ctx, resourcesync.Fetch{URL: srv.URL}, &memSink{})
	wantIs(t, err, context.Canceled)
	wantNotIs(t, err, resourcesync.ErrUnavailable)
	if n.get() != 1 {
		t.Errorf("server saw %d requests, want 1", n.get())
	}
}

// logBuffer is a log destination safe for the server goroutines too.
type logBuffer struct{ fixtures.LockedBuffer }

func (s *logBuffer) lines(t *testing.T) []map[string]any {
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestRetriesAreLogged(t *testing.T) {
	srv, _ := serve(t, sequence(status(503), content([]byte("ok"))))
	var logs logBuffer
	c := newClient(t, func(o *Options) { o.Logger = zerolog.New(&logs).Level(zerolog.DebugLevel) })
	if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/r"}, &memSink{}); err != nil {
		t.Fatal(err)
	}
	var retry, debug int
	for _, l := range logs.lines(t) {
		switch {
		case l["message"] == "retrying":
			retry++
			if l["level"] != "info" || l["url"] != srv.URL+"/r" || l["attempt"] != 1.0 || l["status"] != 503.0 || l["wait"] == nil {
				t.Errorf("retry line %v lacks level, url, attempt, status or wait", l)
			}
		case l["level"] == "debug":
			debug++
		default:
			t.Errorf("unexpected log line %v", l)
		}
	}
	if retry != 1 || debug == 0 {
		t.Errorf("logged %d retry lines and %d go-retryablehttp debug lines, want 1 and some", retry, debug)
	}
}
