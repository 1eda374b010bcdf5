package dumpzip

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
)

// cuttingServer serves one package by http.ServeContent (Range, If-Range)
// with a strong ETag; the first response is cut after cut bytes. It
// records each request's Range and the body bytes sent.
type cuttingServer struct {
	body []byte
	etag string

	mu     sync.Mutex
	cut    int64
	ranges []string
	sent   int64
}

func (s *cuttingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cut := s.cut
	s.cut = 0
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	s.mu.Unlock()
	w.Header().Set("ETag", s.etag)
	http.ServeContent(&cutWriter{ResponseWriter: w, s: s, left: cut}, r, "", time.Time{}, bytes.NewReader(s.body))
}

type cutWriter struct {
	http.ResponseWriter
	s    *cuttingServer
	left int64 // 0: no cut
}

func (w *cutWriter) Write(p []byte) (int, error) {
	if w.left > 0 && int64(len(p)) >= w.left {
		p = p[:w.left]
		n, _ := w.ResponseWriter.Write(p)
		w.count(n)
		w.ResponseWriter.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	if w.left > 0 {
		w.left -= int64(len(p))
	}
	n, err := w.ResponseWriter.Write(p)
	w.count(n)
	return n, err
}

func (w *cutWriter) count(n int) {
	w.s.mu.Lock()
	w.s.sent += int64(n)
	w.s.mu.Unlock()
}

// A package whose download fails part way - the connection cut, no
// attempt left - is kept in PartialDir; the next Download continues it
// with one Range request, verifies it whole and opens it.
func TestPackageResumesAcrossDownloads(t *testing.T) {
	member := make([]byte, 3<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range member {
		member[i] = byte(rng.Uint32())
	}
	pkg := buildZip(t,
		zfile{Name: "manifest.xml", Body: manifest(t, resourcesync.CapResourceDumpManifest, item{loc: "http://example.org/a", path: "/a", body: member})},
		zfile{Name: "a", Body: member})
	srv := &cuttingServer{body: pkg, etag: `"p1"`, cut: int64(len(pkg)) / 2}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	so := source.DefaultOptions()
	so.MaxAttempts, so.ResumeAbove = 1, 1<<20
	c, err := source.New(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	ref := &resourcesync.Entry{Loc: ts.URL + "/p1.zip"}
	ref.MD.Length, ref.MD.HasLength, ref.MD.Hash = int64(len(pkg)), true, fixity(pkg)
	o := testOptions()
	o.TempDir, o.PartialDir = t.TempDir(), filepath.Join(t.TempDir(), "partial")

	if _, err := Download(context.Background(), c, ref, resourcesync.CapResourceDumpManifest, o); !errors.Is(err, resourcesync.ErrUnavailable) {
		t.Fatalf("first download: %v, want it to fail unavailable", err)
	}
	assertEmpty(t, o.TempDir)
	kept, ok := readPartialMeta(filepath.Join(o.PartialDir, partialName(ref.Loc)))
	if !ok || kept.URL != ref.Loc || kept.Validator != `"p1"` || kept.Bytes < 1<<20 {
		t.Fatalf("kept %+v (%v), want the URL, its ETag and at least 1 MiB", kept, ok)
	}

	srv.mu.Lock()
	srv.ranges, srv.sent = nil, 0
	srv.mu.Unlock()
	p, err := Download(context.Background(), c, ref, resourcesync.CapResourceDumpManifest, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := extract(m); err != nil || !bytes.Equal(got, member) {
		t.Errorf("member: %v, or its bytes differ", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if len(srv.ranges) != 1 || srv.ranges[0] == "" || srv.sent != int64(len(pkg))-kept.Bytes {
		t.Errorf("requests %q sent %d bytes; want one ranged request for the %d bytes not kept", srv.ranges, srv.sent, int64(len(pkg))-kept.Bytes)
	}
	if des, _ := os.ReadDir(o.PartialDir); len(des) != 0 {
		t.Errorf("%d files left in PartialDir", len(des))
	}
	assertEmpty(t, o.TempDir)
}

func TestSweepPackagePartials(t *testing.T) {
	dir := t.TempDir()
	for _, url := range []string{"http://x/keep.zip", "http://x/gone.zip"} {
		file := filepath.Join(dir, partialName(url))
		if err := os.WriteFile(file, []byte("part"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := writePartialMeta(file, partialMeta{URL: url, Validator: `"v"`, Bytes: 4}); err != nil {
			t.Fatal(err)
		}
	}
	orphan := filepath.Join(dir, partialName("http://x/orphan.zip"))
	if err := os.WriteFile(orphan, []byte("part"), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := SweepPartials(dir, func(url string) bool { return url == "http://x/keep.zip" })
	if err != nil || n != 2 {
		t.Fatalf("SweepPartials = %d, %v; want 2", n, err)
	}
	des, _ := os.ReadDir(dir)
	if len(des) != 2 {
		t.Errorf("%d files left, want the kept package and its meta", len(des))
	}
}
