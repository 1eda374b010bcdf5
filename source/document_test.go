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
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

const xmlDoc = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:md capability="resourcelist"/>
  <url><loc>http://example.com/res1</loc></url>
</urlset>
`

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readAll(t *testing.T, rc io.ReadCloser) []byte {
	t.Helper()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	if err := rc.Close(); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenDocumentDecodes(t *testing.T) {
	gz := gzipped(t, []byte(xmlDoc))
	tests := []struct {
		name     string
		encoding string
		body     []byte
	}{
		{"plain", "", []byte(xmlDoc)},
		{"content-encoding gzip", "gzip", gz},
		{"content-encoding x-gzip", "x-gzip", gz},
		{"gzip file", "", gz},
		{"gzip file, content-encoding gzip", "gzip", gzipped(t, gz)},
		{"identity", "identity", []byte(xmlDoc)},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/start" {
					http.Redirect(w, r, "/doc.xml", http.StatusFound)
					return
				}
				if got := r.Header.Get("Accept-Encoding"); got != "gzip" {
					t.Errorf("Accept-Encoding %q, want gzip", got)
				}
				if tt.encoding != "" {
					w.Header().Set("Content-Encoding", tt.encoding)
				}
				w.Header().Set("Content-Type", "application/xml")
				w.Header().Set("Link", `<http://example.com/capabilitylist.xml>; rel="up"`)
				_, _ = w.Write(tt.body)
			})
			final, header, body, err := newClient(t, nil).OpenDocument(context.Background(), srv.URL+"/start")
			if err != nil {
				t.Fatal(err)
			}
			want := xmlDoc
			if tt.body == nil {
				want = ""
			}
			if got := string(readAll(t, body)); got != want {
				t.Errorf("body %q, want %q", got, want)
			}
			if final != srv.URL+"/doc.xml" {
				t.Errorf("final URL %s", final)
			}
			if header.Get("Link") == "" || header.Get("Content-Type") != "application/xml" {
				t.Errorf("header %v lacks the response's fields", header)
			}
			if header.Get("Content-Encoding") != "" && tt.encoding != "identity" {
				t.Errorf("header still says Content-Encoding %q after decoding", header.Get("Content-Encoding"))
			}
		})
	}
}

func TestOpenDocumentRejectsUnknownEncoding(t *testing.T) {
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "br")
		_, _ = w.Write([]byte("??"))
	})
	_, _, _, err := newClient(t, nil).OpenDocument(context.Background(), srv.URL)
	if err == nil || !strings.Contains(err.Error(), `"br"`) || n.get() != 1 {
		t.Fatalf("error %v after %d requests; want the encoding named, 1 request", err, n.get())
	}
}

func TestOpenDocumentCorruptGzipIsNotRetried(t *testing.T) {
	bad := gzipped(t, []byte(xmlDoc))
	bad[len(bad)-6] ^= 0xff // the CRC no longer matches
	srv, n := serve(t, content(bad))
	_, _, _, err := newClient(t, nil).OpenDocument(context.Background(), srv.URL)
	if err == nil || !strings.Contains(err.Error(), "gzip") || n.get() != 1 {
		t.Fatalf("error %v after %d requests; want a gzip error, 1 request", err, n.get())
	}
	wantNotIs(t, err, resourcesync.ErrUnavailable)
}

func TestOpenDocumentTooLarge(t *testing.T) {
	big := bytes.Repeat([]byte("<url><loc>http://example.com/r</loc></url>\n"), 1000)
	tests := []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"content-length", content(big)},
		{"chunked", func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i < len(big); i += 1000 {
				_, _ = w.Write(big[i:min(i+1000, len(big))])
				w.(http.Flusher).Flush()
			}
		}},
		{"gzip", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gzipped(t, big)) // small on the wire, not once decoded
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n := serve(t, tt.handler)
			c := newClient(t, func(o *Options) { o.MaxDocumentBytes = 10_000 })
			_, _, _, err := c.OpenDocument(context.Background(), srv.URL)
			wantIs(t, err, ErrTooLarge)
			if n.get() != 1 || !strings.Contains(err.Error(), srv.URL) {
				t.Errorf("%d requests, error %q; want 1 and the URL named", n.get(), err)
			}
		})
	}
	// Exactly at the limit is fine.
	srv, _ := serve(t, content(big[:10_000]))
	_, _, body, err := newClient(t, func(o *Options) { o.MaxDocumentBytes = 10_000 }).OpenDocument(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, body); len(got) != 10_000 {
		t.Errorf("read %d bytes, want 10000", len(got))
	}
}

func TestGzipBombFailsSmall(t *testing.T) {
	inner := fixtures.GzipBomb(4 << 30) // 4 GiB of zeros in a few MB
	outer := gzipped(t, inner)          // and those few MB in a few KB
	if len(outer) > 64<<10 {
		t.Fatalf("the bomb is %d bytes; the test wants a small one", len(outer))
	}
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/xml")
		_, _ = w.Write(outer)
	})
	c := newClient(t, func(o *Options) {
		o.MaxDocumentBytes = 2 << 20
		o.SpoolMemory = 256 << 10
		o.TempDir = t.TempDir()
	})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, _, err := c.OpenDocument(context.Background(), srv.URL+"/bomb.xml")
	runtime.ReadMemStats(&after)
	wantIs(t, err, ErrTooLarge)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("allocated %d MiB to refuse the bomb", alloc>>20)
	}
	if n.get() != 1 {
		t.Errorf("%d requests, want 1", n.get())
	}
	if left, _ := os.ReadDir(c.opts.TempDir); len(left) != 0 {
		t.Errorf("left %d files in TempDir", len(left))
	}
}

// A large document is spooled to a file in TempDir, which has no name from
// the moment it is made (issue 22, item 5f): a process killed while it
// downloads or reads a document leaves nothing behind.
func TestLargeDocumentSpoolsToTempFile(t *testing.T) {
	doc := bytes.Repeat([]byte(xmlDoc), 200) // ~40 KB
	srv, _ := serve(t, content(doc))
	dir := t.TempDir()
	c := newClient(t, func(o *Options) {
		o.SpoolMemory = 4096
		o.TempDir = dir
	})
	_, _, body, err := c.OpenDocument(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	sf, ok := body.(*spoolFile)
	if !ok {
		t.Fatalf("the body is a %T, want a spooled file", body)
	}
	if fi, err := sf.f.Stat(); err != nil || fi.Size() != int64(len(doc)) || fi.Sys().(*syscall.Stat_t).Nlink != 0 {
		t.Fatalf("the spool file: %v, %v; want %d bytes and no name", fi, err, len(doc))
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Fatalf("%d files in TempDir while the body is open, want none (the spool has no name)", len(files))
	}
	if got := readAll(t, body); !bytes.Equal(got, doc) {
		t.Errorf("read %d bytes, want the %d served", len(got), len(doc))
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files in TempDir after Close, want none", len(files))
	}

	// A small one stays in memory.
	srv2, _ := serve(t, content([]byte(xmlDoc)))
	_, _, body, err = c.OpenDocument(context.Background(), srv2.URL)
	if err != nil {
		t.Fatal(err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files in TempDir for a small document, want none", len(files))
	}
	body.Close()
}

// A document whose body fails mid-way, after it outgrew memory, is fetched
// again from the start into a clean spool.
func TestDocumentBodyFailureIsRetried(t *testing.T) {
	doc := bytes.Repeat([]byte(xmlDoc), 200)
	url, n := rawServer(t, func(i int, conn *net.TCPConn, _ *http.Request) {
		writeHead(conn, fmt.Sprintf("Content-Length: %d", len(doc)))
		if i == 0 {
			_, _ = conn.Write(doc[:len(doc)*3/4])
			_ = conn.SetLinger(0)
			conn.Close()
			return
		}
		_, _ = conn.Write(doc)
		conn.Close()
	})
	dir := t.TempDir()
	c := newClient(t, func(o *Options) {
		o.SpoolMemory = 4096
		o.TempDir = dir
	})
	_, _, body, err := c.OpenDocument(context.Background(), url+"/list.xml")
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, body); !bytes.Equal(got, doc) || n.get() != 2 {
		t.Errorf("read %d bytes after %d connections, want %d after 2", len(got), n.get(), len(doc))
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files left in TempDir", len(files))
	}
}

// A gzip document cut short by a close-delimited response is retried.
func TestTruncatedGzipDocumentIsRetried(t *testing.T) {
	gz := gzipped(t, bytes.Repeat([]byte(xmlDoc), 50))
	url, n := rawServer(t, func(i int, conn *net.TCPConn, _ *http.Request) {
		writeHead(conn, "Connection: close")
		if i == 0 {
			_, _ = conn.Write(gz[:len(gz)/2])
		} else {
			_, _ = conn.Write(gz)
		}
		conn.Close()
	})
	_, _, body, err := newClient(t, nil).OpenDocument(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, body); len(got) != 50*len(xmlDoc) || n.get() != 2 {
		t.Errorf("read %d bytes after %d connections", len(got), n.get())
	}
}

func TestOpenDocumentErrorRemovesSpool(t *testing.T) {
	doc := bytes.Repeat([]byte(xmlDoc), 200)
	url, _ := rawServer(t, func(i int, conn *net.TCPConn, _ *http.Request) {
		writeHead(conn, fmt.Sprintf("Content-Length: %d", len(doc)))
		_, _ = conn.Write(doc[:len(doc)/2])
		conn.Close()
	})
	dir := t.TempDir()
	c := newClient(t, func(o *Options) {
		o.SpoolMemory = 1024
		o.TempDir = dir
		o.MaxAttempts = 2
	})
	_, _, _, err := c.OpenDocument(context.Background(), url)
	if !errors.Is(err, resourcesync.ErrUnavailable) {
		t.Fatalf("error %v, want ErrUnavailable", err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files left in TempDir", len(files))
	}
}
