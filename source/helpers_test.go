package source

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// testOptions are the defaults with waits short enough to keep the suite
// fast; timeouts stay generous unless a test is about them.
func testOptions() Options {
	o := DefaultOptions()
	o.MinRetryWait = time.Millisecond
	o.MaxRetryWait = 5 * time.Millisecond
	o.ConnectTimeout = 5 * time.Second
	o.TLSHandshakeTimeout = 5 * time.Second
	o.ResponseHeaderTimeout = 10 * time.Second
	o.IdleTimeout = 10 * time.Second
	return o
}

// newClient builds a Client from testOptions changed by edit.
func newClient(t testing.TB, edit func(*Options)) *Client {
	t.Helper()
	o := testOptions()
	if edit != nil {
		edit(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// memSink is a Sink in memory that remembers how it was used.
type memSink struct {
	buf     bytes.Buffer
	resets  int
	maxSize int   // the most it ever held
	failAt  int   // fail a write that would take it past this many bytes; 0 = never
	failErr error // what that write returns
}

func (s *memSink) Write(p []byte) (int, error) {
	if s.failAt > 0 && s.buf.Len()+len(p) > s.failAt {
		return 0, s.failErr
	}
	n, err := s.buf.Write(p)
	s.maxSize = max(s.maxSize, s.buf.Len())
	return n, err
}

func (s *memSink) Reset() error {
	s.resets++
	s.buf.Reset()
	return nil
}

// counter counts requests to a handler.
type counter struct{ n atomic.Int64 }

func (c *counter) wrap(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c.n.Add(1)
		h(w, r)
	}
}

func (c *counter) get() int { return int(c.n.Load()) }

// reach returns the count once it is at least want, or after 5s. A client
// that gives up on a header timeout may return before the server has even
// read its last request, which is on the wire and counted late.
func (c *counter) reach(want int) int {
	deadline := time.Now().Add(5 * time.Second)
	for c.get() < want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return c.get()
}

// serve starts an httptest server whose handler is counted.
func serve(t testing.TB, h http.HandlerFunc) (*httptest.Server, *counter) {
	t.Helper()
	var n counter
	srv := httptest.NewServer(n.wrap(h))
	t.Cleanup(srv.Close)
	return srv, &n
}

// sequence answers the i-th request with the i-th handler, the last one
// for every request beyond.
func sequence(hs ...http.HandlerFunc) http.HandlerFunc {
	var mu sync.Mutex
	i := 0
	return func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		h := hs[min(i, len(hs)-1)]
		i++
		mu.Unlock()
		h(w, r)
	}
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Error(w, http.StatusText(code), code) }
}

func content(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(body) }
}

// rawServer accepts TCP connections on 127.0.0.1 and hands the i-th one
// (0-based), with its request already read, to serveConn, which must close
// it. It returns the server's base URL and the number of connections.
func rawServer(t testing.TB, serveConn func(i int, conn *net.TCPConn, req *http.Request)) (string, *counter) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n counter
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			i := int(n.n.Add(1)) - 1
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					conn.Close()
					return
				}
				serveConn(i, conn.(*net.TCPConn), req)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return "http://" + ln.Addr().String(), &n
}

// fixityOf is the md5 and sha-256 fixity of b.
func fixityOf(b []byte) resourcesync.Fixity {
	m := md5.Sum(b)
	s := sha256.Sum256(b)
	return resourcesync.Fixity{
		{Alg: resourcesync.AlgMD5, Hex: hex.EncodeToString(m[:])},
		{Alg: resourcesync.AlgSHA256, Hex: hex.EncodeToString(s[:])},
	}
}

// fetchOf describes body as the Source would: its length and hashes.
func fetchOf(url string, body []byte) resourcesync.Fetch {
	return resourcesync.Fetch{URL: url, Hash: fixityOf(body), Length: int64(len(body)), HasLength: true}
}

// pattern is n bytes that are not all alike, so that truncation and
// reordering show in the hashes.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

func wantIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v: want it to match %v", err, target)
	}
}

func wantNotIs(t *testing.T, err, target error) {
	t.Helper()
	if errors.Is(err, target) {
		t.Fatalf("error %v: want it not to match %v", err, target)
	}
}

// newUnstarted is an httptest server to configure before Start.
func newUnstarted(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	t.Cleanup(srv.Close)
	return srv
}
