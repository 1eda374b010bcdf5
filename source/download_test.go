package source

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestDownloadReturnsWhatItFetched(t *testing.T) {
	body := pattern(10_000)
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		if got := r.Header.Get("Accept-Encoding"); got != "identity" {
			t.Errorf("Accept-Encoding %q, want identity", got)
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(body)
	})
	f := fetchOf(srv.URL+"/old", body)
	f.Hash = f.Hash[:1] // md5 only: sha-256 and sha-1 are computed because asked for
	f.ExtraAlgs = []string{resourcesync.AlgSHA256, "sha1"}
	var sink memSink
	got, err := newClient(t, nil).Download(context.Background(), f, &sink)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sink.buf.Bytes(), body) {
		t.Fatal("sink does not hold the body")
	}
	want := fixityOf(body)
	if got.Bytes != int64(len(body)) || got.FinalURL != srv.URL+"/new" || got.ETag != `"v1"` ||
		got.LastModified != "Mon, 02 Jan 2006 15:04:05 GMT" || got.ContentType != "application/octet-stream" || got.NotModified {
		t.Errorf("Fetched %+v", got)
	}
	for _, d := range want {
		if h, ok := got.Sums.Get(d.Alg); !ok || h != d.Hex {
			t.Errorf("Sums %v lack %s:%s", got.Sums, d.Alg, d.Hex)
		}
	}
	if _, ok := got.Sums.Get(resourcesync.AlgSHA1); !ok {
		t.Errorf("Sums %v lack the extra sha-1", got.Sums)
	}
}

// A bitstream that is a gzip file, served with Content-Encoding: gzip by a
// careless server, is stored and hashed as served, not inflated.
func TestDownloadDoesNotDecompress(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(pattern(5000))
	zw.Close()
	served := gz.Bytes()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(served)
	})
	var sink memSink
	if _, err := newClient(t, nil).Download(context.Background(), fetchOf(srv.URL, served), &sink); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sink.buf.Bytes(), served) {
		t.Error("the sink holds something other than the bytes served")
	}
}

func TestConditionalGetNotModified(t *testing.T) {
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` && r.Header.Get("If-Modified-Since") == "Mon, 02 Jan 2006 15:04:05 GMT" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write([]byte("changed"))
	})
	f := resourcesync.Fetch{URL: srv.URL, ETag: `"v1"`, LastModified: "Mon, 02 Jan 2006 15:04:05 GMT"}
	var sink memSink
	got, err := newClient(t, nil).Download(context.Background(), f, &sink)
	if err != nil {
		t.Fatal(err)
	}
	if !got.NotModified || got.ETag != `"v1"` || sink.maxSize != 0 || n.get() != 1 {
		t.Errorf("Fetched %+v, sink held %d bytes, %d requests; want NotModified, nothing written, 1 request", got, sink.maxSize, n.get())
	}
	f.ETag = `"v0"`
	got, err = newClient(t, nil).Download(context.Background(), f, &sink)
	if err != nil || got.NotModified || sink.buf.String() != "changed" {
		t.Errorf("with an old ETag: %+v, %v, sink %q; want the new content", got, err, sink.buf.String())
	}
}

func TestUnconditional304IsAnError(t *testing.T) {
	srv, _ := serve(t, status(http.StatusNotModified))
	_, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, &memSink{})
	var se *StatusError
	if !errors.As(err, &se) || se.Status != http.StatusNotModified {
		t.Fatalf("error %v, want a *StatusError for 304", err)
	}
}

// writeHead writes a response head with the given extra header lines.
func writeHead(conn net.Conn, lines ...string) {
	fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\n%s\r\n", strings.Join(append(lines, ""), "\r\n"))
}

func TestResetMidBodyIsRetried(t *testing.T) {
	body := pattern(64 << 10)
	url, n := rawServer(t, func(i int, conn *net.TCPConn, _ *http.Request) {
		writeHead(conn, fmt.Sprintf("Content-Length: %d", len(body)))
		if i == 0 {
			_, _ = conn.Write(body[:len(body)/2])
			_ = conn.SetLinger(0) // close with a RST
			conn.Close()
			return
		}
		_, _ = conn.Write(body)
		conn.Close()
	})
	var sink memSink
	if _, err := newClient(t, nil).Download(context.Background(), fetchOf(url+"/f", body), &sink); err != nil {
		t.Fatal(err)
	}
	if n.get() != 2 || !bytes.Equal(sink.buf.Bytes(), body) {
		t.Errorf("%d connections, sink holds %d bytes; want 2 and the body", n.get(), sink.buf.Len())
	}
}

func TestTruncatedBodyIsRetried(t *testing.T) {
	body := pattern(10_000)
	url, n := rawServer(t, func(i int, conn *net.TCPConn, _ *http.Request) {
		writeHead(conn, fmt.Sprintf("Content-Length: %d", len(body)))
		if i < 2 {
			_, _ = conn.Write(body[:len(body)-100]) // Content-Length lies
		} else {
			_, _ = conn.Write(body)
		}
		conn.Close()
	})
	// No length or hash given: only the transport's Content-Length check
	// can notice, and it does.
	var sink memSink
	if _, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: url}, &sink); err != nil {
		t.Fatal(err)
	}
	if n.get() != 3 || !bytes.Equal(sink.buf.Bytes(), body) || sink.resets != 2 {
		t.Errorf("%d connections, sink holds %d bytes after %d resets; want 3, the body, 2", n.get(), sink.buf.Len(), sink.resets)
	}

	url, _ = rawServer(t, func(i int, conn *net.TCPConn, _ *http.Request) {
		writeHead(conn, fmt.Sprintf("Content-Length: %d", len(body)))
		_, _ = conn.Write(body[:10])
		conn.Close()
	})
	_, err := newClient(t, func(o *Options) { o.MaxAttempts = 2 }).Download(context.Background(), resourcesync.Fetch{URL: url}, &memSink{})
	wantIs(t, err, resourcesync.ErrUnavailable)
	if !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("error %q should give the cause", err)
	}
}

// A close-delimited body that ends early looks complete to HTTP; only the
// length the Source gave shows it is not.
func TestCloseDelimitedEarlyEndIsCaughtByLength(t *testing.T) {
	body := pattern(10_000)
	shortTimes := func(k int) func(int, *net.TCPConn, *http.Request) {
		return func(i int, conn *net.TCPConn, _ *http.Request) {
			writeHead(conn, "Connection: close")
			if i < k {
				_, _ = conn.Write(body[:6000])
			} else {
				_, _ = conn.Write(body)
			}
			conn.Close()
		}
	}
	url, n := rawServer(t, shortTimes(1))
	var sink memSink
	if _, err := newClient(t, nil).Download(context.Background(), fetchOf(url, body), &sink); err != nil {
		t.Fatal(err)
	}
	if n.get() != 2 || !bytes.Equal(sink.buf.Bytes(), body) {
		t.Errorf("%d connections, sink holds %d bytes; want 2 and the body", n.get(), sink.buf.Len())
	}

	url, n = rawServer(t, shortTimes(100))
	_, err := newClient(t, nil).Download(context.Background(), fetchOf(url, body), &memSink{})
	var me *resourcesync.MismatchError
	if !errors.As(err, &me) || me.Mismatches[0].Alg != "length" || me.Mismatches[0].Got != "6000" {
		t.Fatalf("error %v, want a length *MismatchError", err)
	}
	if n.get() != 2 {
		t.Errorf("%d connections, want 2 (one re-fetch)", n.get())
	}
}

func TestHashMismatchIsRefetchedOnce(t *testing.T) {
	body := pattern(5000)
	wrong := bytes.Clone(body)
	wrong[100] ^= 1
	srv, n := serve(t, content(wrong))
	_, err := newClient(t, nil).Download(context.Background(), fetchOf(srv.URL+"/h", body), &memSink{})
	var me *resourcesync.MismatchError
	if !errors.As(err, &me) {
		t.Fatalf("error %v, want a *MismatchError", err)
	}
	wantIs(t, err, resourcesync.ErrMismatch)
	wantNotIs(t, err, resourcesync.ErrUnavailable)
	if len(me.Mismatches) != 2 { // md5 and sha-256 both disagree; length agrees
		t.Errorf("mismatches %v, want md5 and sha-256", me.Mismatches)
	}
	if !strings.Contains(err.Error(), srv.URL+"/h") {
		t.Errorf("error %q should name the URL", err)
	}
	if n.get() != 2 {
		t.Errorf("server saw %d requests, want 2", n.get())
	}
}

func TestMismatchThenGoodContent(t *testing.T) {
	body := pattern(5000)
	var noCache atomic.Bool
	srv, n := serve(t, sequence(content(pattern(5000)[10:]), func(w http.ResponseWriter, r *http.Request) {
		noCache.Store(r.Header.Get("Cache-Control") == "no-cache")
		_, _ = w.Write(body)
	}))
	var sink memSink
	if _, err := newClient(t, nil).Download(context.Background(), fetchOf(srv.URL, body), &sink); err != nil {
		t.Fatal(err)
	}
	if n.get() != 2 || !bytes.Equal(sink.buf.Bytes(), body) || sink.resets != 1 {
		t.Errorf("%d requests, %d resets; want 2 and 1 and the body", n.get(), sink.resets)
	}
	if !noCache.Load() {
		t.Error("the re-fetch did not ask caches to revalidate")
	}
}

// A body longer than the Source said is cut off when it passes the length,
// before the sink sees the excess, however much the server would send.
func TestOverlongBodyIsStoppedEarly(t *testing.T) {
	const want = 1000
	const huge = 256 << 20
	var sent atomic.Int64
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 32<<10)
		for total := 0; total < huge; total += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			sent.Add(int64(len(chunk)))
			w.(http.Flusher).Flush() // chunked: no Content-Length to give it away
		}
	})
	f := resourcesync.Fetch{URL: srv.URL, Length: want, HasLength: true}
	var sink memSink
	_, err := newClient(t, nil).Download(context.Background(), f, &sink)
	var me *resourcesync.MismatchError
	if !errors.As(err, &me) || me.Mismatches[0].Alg != "length" {
		t.Fatalf("error %v, want a length *MismatchError", err)
	}
	if sink.maxSize > want {
		t.Errorf("the sink was given %d bytes, more than the %d declared", sink.maxSize, want)
	}
	srv.Close() // wait for the handlers
	if n.get() != 2 || sent.Load() >= 2*huge {
		t.Errorf("%d requests, server sent %d bytes: want 2 requests both cut short", n.get(), sent.Load())
	}
}

func TestContentLengthDisagreeingWithLength(t *testing.T) {
	srv, n := serve(t, content(pattern(2000)))
	f := resourcesync.Fetch{URL: srv.URL, Length: 1000, HasLength: true}
	var sink memSink
	_, err := newClient(t, nil).Download(context.Background(), f, &sink)
	var me *resourcesync.MismatchError
	if !errors.As(err, &me) || !strings.Contains(me.Mismatches[0].Got, "Content-Length") {
		t.Fatalf("error %v, want a length mismatch read from Content-Length", err)
	}
	if sink.maxSize != 0 || n.get() != 2 {
		t.Errorf("sink held %d bytes after %d requests; want nothing written, 2 requests", sink.maxSize, n.get())
	}
}

func TestSinkFailureIsNotRetried(t *testing.T) {
	srv, n := serve(t, content(pattern(100_000)))
	diskFull := errors.New("no space left on device")
	sink := &memSink{failAt: 50_000, failErr: diskFull}
	_, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, sink)
	wantIs(t, err, diskFull)
	wantNotIs(t, err, resourcesync.ErrUnavailable)
	if n.get() != 1 || !strings.Contains(err.Error(), srv.URL) {
		t.Errorf("%d requests, error %q; want 1 request and the URL named", n.get(), err)
	}
}

// The unknown algorithm cannot be checked, so it neither fails the fetch
// nor appears in Sums.
func TestUnknownHashAlgorithmIsIgnored(t *testing.T) {
	body := []byte("hello")
	srv, _ := serve(t, content(body))
	f := resourcesync.Fetch{URL: srv.URL, Hash: resourcesync.Fixity{{Alg: "blake3", Hex: "00"}}}
	got, err := newClient(t, nil).Download(context.Background(), f, &memSink{})
	if err != nil || len(got.Sums) != 0 || got.Bytes != 5 {
		t.Fatalf("Fetched %+v, %v; want 5 bytes, no sums", got, err)
	}
}

func TestConnectionsAreReused(t *testing.T) {
	var conns atomic.Int64
	body := pattern(4096)
	srv := newUnstarted(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
		case "/down":
			http.Error(w, "down", http.StatusServiceUnavailable)
		default:
			_, _ = w.Write(body)
		}
	})
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	c := newClient(t, nil)
	for i := range 40 {
		var err error
		switch i % 4 {
		case 0:
			_, err = c.Download(context.Background(), fetchOf(srv.URL+"/ok", body), &memSink{})
		case 1:
			_, err = c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/missing"}, &memSink{})
			if errors.Is(err, resourcesync.ErrNotFound) {
				err = nil
			}
		case 3: // every attempt spent: go-retryablehttp's failure path
			_, err = c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + "/down"}, &memSink{})
			if errors.Is(err, resourcesync.ErrUnavailable) {
				err = nil
			}
		case 2:
			var rc io.ReadCloser
			_, _, rc, err = c.OpenDocument(context.Background(), srv.URL+"/ok")
			if err == nil {
				rc.Close()
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if conns.Load() != 1 {
		t.Errorf("%d connections for 70 sequential requests, want 1", conns.Load())
	}
}

// A Fetch with Once makes one request whatever goes wrong: no retry of a
// 503 or a broken body, no re-fetch after a mismatch.
func TestOnceMakesOneRequest(t *testing.T) {
	body := pattern(5000)
	wrong := bytes.Clone(body)
	wrong[100] ^= 1
	for name, h := range map[string]http.HandlerFunc{
		"503":      func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) },
		"mismatch": content(wrong),
	} {
		srv, n := serve(t, h)
		f := fetchOf(srv.URL+"/h", body)
		f.Once = true
		if _, err := newClient(t, nil).Download(context.Background(), f, &memSink{}); err == nil {
			t.Errorf("%s: no error", name)
		}
		if n.get() != 1 {
			t.Errorf("%s: %d requests, want 1", name, n.get())
		}
	}
}
