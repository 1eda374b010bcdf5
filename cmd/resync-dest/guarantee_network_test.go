package main

import (
	"encoding/pem"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Items 5-7: network faults at the command line, from the fixture's
// injected faults (raw connections: lying Content-Length, resets, early
// close). Those made by Toxiproxy (cut connections, slices, latency,
// bandwidth, resets) are in the nettest module (nettest/cli_test.go), so
// that Toxiproxy's dependencies stay out of the product's go.mod. The
// timeouts the command line has no flag for (stalled headers, trickling
// bodies, a long steady download) are proven where they can be set small:
// source/network_guarantee_test.go and nettest/source_test.go.

// changedSource serves a Source, makes a first baseline into a new mirror,
// then changes the first k resources at the Source so that the next run
// has work to do. It returns the mirror directory.
func changedSource(t *testing.T, src *fixtures.Source, url string, k int) string {
	t.Helper()
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, url)...).want(t, 0)
	var muts []fixtures.Mutation
	for _, r := range src.Resources(0)[:k] {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Update, Path: r.Path})
	}
	if err := src.Apply(src.At().Add(time.Hour), muts...); err != nil {
		t.Fatal(err)
	}
	return dest
}

// Item 5: a body cut short under a full Content-Length, reset mid-body,
// ended early without a Content-Length, or with a wrong byte, on every
// attempt: detected (length, hash), retried a bounded number of times,
// reported with its cause (exit 3), and never published - the old version
// of an updated resource stays, a new one does not appear.
func TestGuaranteeBrokenBodiesAreNeverPublished(t *testing.T) {
	t.Parallel()
	for _, body := range []fixtures.BodyFault{fixtures.Truncate, fixtures.Reset, fixtures.CloseDelimited, fixtures.FlipByte} {
		t.Run(body.String(), func(t *testing.T) {
			src, srv := served(t, nil)
			dest := changedSource(t, src, srv.URL, 1)
			updated := src.Resources(0)[0]
			created := "/dataset1/res/new/broken.txt"
			if err := src.Apply(src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Create, Path: created}); err != nil {
				t.Fatal(err)
			}
			old := filesOnly(fixtures.TreeSnapshot(t, filepath.Join(dest, filepath.FromSlash(relPath(t, updated.URI))), true))
			for _, p := range []string{updated.Path, created} {
				src.SetFault(p, fixtures.Fault{Body: body, At: 100})
			}
			src.ResetCounts()
			r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitPartial)
			contains(t, r.stdout, "2 failed", updated.URI, src.URI(created))

			now := filesOnly(fixtures.TreeSnapshot(t, filepath.Join(dest, filepath.FromSlash(relPath(t, updated.URI))), true))
			sameSnapshot(t, "the old version of "+updated.URI, old, now)
			if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(relPath(t, src.URI(created))))); !os.IsNotExist(err) {
				t.Errorf("the broken new resource was published (%v)", err)
			}
			for _, p := range []string{updated.Path, created} {
				// Five attempts, and one more fetch after a mismatch.
				if n := src.Requests(p); n < 2 || n > 6 {
					t.Errorf("%s: %d requests, want 2 to 6 (retried, bounded)", p, n)
				}
			}
			v := readState(t, dest, src.CapabilityListURL(0))
			assertHeldOnDisk(t, dest, v.held)
			if len(v.fail) != 2 || v.fail[0].Cause == "" {
				t.Errorf("failures recorded %+v, want both with their cause", v.fail)
			}
			assertNoTempFiles(t, dest)
		})
	}
}

// Item 6: 503 and 429 storms with Retry-After: 86400. Waits are bounded by
// --max-retry-wait (the test would time out otherwise), attempts by the
// client's budget and the breaker, and the run exits 5 with nothing
// changed.
func TestGuaranteeRetryStormsAreBounded(t *testing.T) {
	storm := func(code int) fixtures.Fault {
		st := make([]int, 1000)
		for i := range st {
			st[i] = code
		}
		return fixtures.Fault{Status: st, RetryAfter: "86400"}
	}
	t.Run("503 on the Resource List", func(t *testing.T) {
		src, srv := served(t, nil)
		dest := changedSource(t, src, srv.URL, 10)
		before := fixtures.TreeSnapshot(t, dest, true)
		src.SetFault("/dataset1/resourcelist.xml", storm(503))
		src.ResetCounts()
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitUnavailable)
		contains(t, r.stdout+r.stderr, "503")
		if n := src.Requests("/dataset1/resourcelist.xml"); n != 5 {
			t.Errorf("the Resource List was asked for %d times, want 5 attempts", n)
		}
		if n := src.ResourceBodies(); n != 0 {
			t.Errorf("%d resources fetched without a list", n)
		}
		sameSnapshot(t, "the mirror", before, fixtures.TreeSnapshot(t, dest, true))
	})
	t.Run("429 on every resource", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 100 })
		dest := changedSource(t, src, srv.URL, 100)
		before := fixtures.TreeSnapshot(t, dest, true)
		stateBefore := readState(t, dest, src.CapabilityListURL(0))
		src.SetFault("/dataset1/res/*", storm(429))
		src.ResetCounts()
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitUnavailable)
		contains(t, r.stdout+r.stderr, "429", "unavailable")
		// The breaker stops the run after 16 resources in a row; at most
		// the 8 workers' transfers were in flight then, 5 attempts each.
		asked := 0
		for _, res := range src.Resources(0) {
			n := src.Requests(res.Path)
			if n > 5 {
				t.Errorf("%s asked for %d times, want at most 5", res.URI, n)
			}
			if n > 0 {
				asked++
			}
		}
		if asked > 16+8 {
			t.Errorf("%d resources were tried; the breaker should stop the run after 16 (+8 in flight)", asked)
		}
		sameSnapshot(t, "the mirror", filesOnly(before), filesOnly(fixtures.TreeSnapshot(t, dest, true)))
		if after := readState(t, dest, src.CapabilityListURL(0)); !sameHeld(stateBefore.held, after.held) || !after.set.BaselineAt.Equal(stateBefore.set.BaselineAt) {
			t.Errorf("the state's records changed")
		}
	})
}

// Item 7: an unreachable Source is temporary (exit 5); a TLS failure is
// not (exit 1), and it fails closed at once: one connection, no retry, and
// nothing is written. With the right CA certificate the same Source works.
func TestGuaranteeUnreachableAndTLS(t *testing.T) {
	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + l.Addr().String() + "/"
		l.Close()
		dest := filepath.Join(t.TempDir(), "mirror")
		runCLI(t, args([]string{"baseline", "--dest", dest}, url)...).want(t, exitUnavailable)
	})
	t.Run("TLS", func(t *testing.T) {
		spec := fixtures.DefaultSpec()
		spec.Resources = 20
		src, err := fixtures.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		var conns atomic.Int64
		ts := httptest.NewUnstartedServer(src.Handler())
		ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake errors are the point
		ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				conns.Add(1)
			}
		}
		ts.StartTLS()
		t.Cleanup(ts.Close)
		if err := src.SetBaseURL(ts.URL); err != nil {
			t.Fatal(err)
		}
		dest := filepath.Join(t.TempDir(), "mirror")
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, ts.URL+"/")...).want(t, exitFatal)
		contains(t, r.stderr, "certificate")
		// Discovery tries each place once (the URL, the well-known URI,
		// robots.txt): one connection each, none retried.
		if n, places := conns.Load(), int64(strings.Count(r.stderr, "TLS failure")); n != places || n == 0 {
			t.Errorf("%d connections for %d places tried: a TLS failure was retried\n%s", n, places, r.stderr)
		}
		if files := fixtures.MirrorFiles(t, dest); len(files) != 0 {
			t.Errorf("%d files written", len(files))
		}
		ca := filepath.Join(t.TempDir(), "ca.pem")
		pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
		if err := os.WriteFile(ca, pemBytes, 0o644); err != nil {
			t.Fatal(err)
		}
		runCLI(t, args([]string{"baseline", "--dest", dest, "--ca-cert", ca}, ts.URL+"/")...).want(t, 0)
		assertMirrorIsSource(t, src, dest)
	})
}

// headerRecorder is a raw HTTP listener on another loopback address that
// records the Authorization headers it receives and serves a fixed body.
type headerRecorder struct {
	URL  string
	auth atomic.Value // string: the last Authorization header ("" if none)
	hits atomic.Int64
}

func newHeaderRecorder(t *testing.T, body []byte) *headerRecorder {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	h := &headerRecorder{URL: "http://" + l.Addr().String()}
	h.auth.Store("")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.hits.Add(1)
		h.auth.Store(r.Header.Get("Authorization"))
		w.Write(body)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return h
}

// Item 10: a redirect to another host never carries the --header values,
// which go to the Source's own host only.
func TestGuaranteeRedirectsDropHeaders(t *testing.T) {
	t.Parallel()
	spec := fixtures.DefaultSpec()
	spec.Resources = 10
	src, err := fixtures.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	var sourceAuth atomic.Int64 // requests to the Source that carried the header
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer s3cret" {
			sourceAuth.Add(1)
		}
		src.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	if err := src.SetBaseURL(ts.URL); err != nil {
		t.Fatal(err)
	}
	moved := src.Resources(0)[3]
	body, _ := src.Content(moved.URI)
	other := newHeaderRecorder(t, body)
	src.SetFault(moved.Path, fixtures.Fault{Status: []int{302, 302, 302, 302, 302, 302, 302, 302}, Location: other.URL + "/elsewhere"})

	dest := t.TempDir()
	// The other host is allowed (a redirect there is refused otherwise:
	// TestGuaranteeRedirectsHoldTheHostPolicy); the header still stays home.
	runCLI(t, args([]string{"baseline", "--dest", dest, "--header", "Authorization: Bearer s3cret", "--allow-host", "127.0.0.2"}, ts.URL+"/")...).want(t, 0)
	if other.hits.Load() == 0 {
		t.Fatal("the redirect was not followed; the test proved nothing")
	}
	if got := other.auth.Load().(string); got != "" {
		t.Errorf("the other host received Authorization: %q", got)
	}
	if sourceAuth.Load() == 0 {
		t.Errorf("the Source's own host never received the header")
	}
	// The file is stored under the URI listed, not where it was redirected.
	assertMirrorIsSource(t, src, dest)
	if _, err := os.Stat(filepath.Join(dest, strings.TrimPrefix(other.URL, "http://"))); !os.IsNotExist(err) {
		t.Errorf("something was stored under the redirect's host")
	}
}
