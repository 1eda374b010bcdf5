package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Item 11: hostile XML served as a Resource List, at the command line, in
// this process so that the heap can be watched. Each one ends the run with
// an error (exit 1) that names the list, having read a bounded amount and
// held little: the peak heap stays far below the size of the document.
// The parser's own limits are unit-tested in resourcesync (TestLimits,
// TestHostileInputs, TestReaderErrors: DOCTYPE, billion laughs, external
// entities); the HTTP client's document cap and gzip bombs in source
// (TestOpenDocumentTooLarge, TestGzipBombFailsSmall). ZIP bombs and ZIP
// slip belong to the Resource Dump tests.

// generated is a document written on the fly: head, filler n times, tail,
// without ever being held whole.
type generated struct {
	head, filler, tail string
	n                  int64
	gzip               bool // Content-Encoding: gzip
	chunked            bool // no Content-Length: the client learns the size by reading
}

func (g generated) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/xml")
	if g.gzip {
		g.serveGzip(w)
		return
	}
	var out io.Writer = w
	if !g.chunked {
		w.Header().Set("Content-Length", strconv.FormatInt(int64(len(g.head)+len(g.tail))+g.n*int64(len(g.filler)), 10))
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	defer bw.Flush()
	if _, err := io.WriteString(bw, g.head); err != nil {
		return
	}
	for i := int64(0); i < g.n; i++ {
		if _, err := io.WriteString(bw, g.filler); err != nil {
			return // the client hung up: it stopped reading, as it should
		}
	}
	io.WriteString(bw, g.tail)
}

// serveGzip sends the document gzip-encoded as a series of gzip members
// (a reader inflates them as one stream): the filler is compressed once,
// in blocks of 1,000, and the block sent n/1,000 times, so that a bomb
// costs the server nothing to make.
func (g generated) serveGzip(w http.ResponseWriter) {
	w.Header().Set("Content-Encoding", "gzip")
	member := func(s string) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		io.WriteString(zw, s)
		zw.Close()
		return b.Bytes()
	}
	block := member(strings.Repeat(g.filler, 1000))
	if _, err := w.Write(member(g.head)); err != nil {
		return
	}
	for i := int64(0); i < g.n/1000; i++ {
		if _, err := w.Write(block); err != nil {
			return
		}
	}
	w.Write(member(g.tail))
}

// heapPeak samples the heap in use until stop is called and returns the
// highest value seen above the value at the start.
func heapPeak() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > base && m.HeapInuse-base > peak {
				peak = m.HeapInuse - base
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}

// Not parallel: heapPeak reads the whole process's heap, which other
// tests' servers would add to.
func TestGuaranteeHostileXMLFailsSmall(t *testing.T) {
	const head = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2030-01-01T00:00:00Z"/>
`
	for _, tc := range []struct {
		name string
		doc  generated
		msg  string // in the error
	}{
		{"external entity", generated{head: `<?xml version="1.0"?>
<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&xxe;</loc></url></urlset>`}, "DTDs are not accepted"},
		{"billion laughs", generated{head: `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&lol3;</loc></url></urlset>`}, "DTDs are not accepted"},
		{"million-deep nesting", generated{head: head, filler: "<a>", n: 1_000_000}, "nested deeper than MaxDepth"},
		{"200 MB text node", generated{head: head + "<url><loc>", filler: strings.Repeat("abcdefghij", 100), n: 200_000}, "longer than MaxTokenBytes"},
		{"10 million entries", generated{head: head, filler: "<url><loc>http://127.0.0.1:1/x</loc></url>\n", n: 10_000_000, tail: "</urlset>", chunked: true}, "too large"},
		{"gzip bomb", generated{head: head, filler: strings.Repeat(" ", 100), n: 3_000_000, gzip: true}, "too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := fixtures.New(func() fixtures.Spec { s := fixtures.DefaultSpec(); s.Resources = 5; return s }())
			if err != nil {
				t.Fatal(err)
			}
			list := "/dataset1/resourcelist.xml"
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == list {
					tc.doc.serve(w, r)
					return
				}
				src.Handler().ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)
			if err := src.SetBaseURL(ts.URL); err != nil {
				t.Fatal(err)
			}
			dest := t.TempDir()
			stop := heapPeak()
			r := runCLI(t, args([]string{"baseline", "--dest", dest}, ts.URL+"/")...)
			peak := stop()
			if r.code != exitFatal {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, exitFatal, r.stdout, r.stderr)
			}
			contains(t, r.stderr, tc.msg, ts.URL+list)
			size := int64(len(tc.doc.head)+len(tc.doc.tail)) + tc.doc.n*int64(len(tc.doc.filler))
			t.Logf("a %d-byte document; peak heap %d KiB above the start", size, peak>>10)
			if peak > 64<<20 {
				t.Errorf("the heap grew by %d MiB while reading it; want under 64 MiB", peak>>20)
			}
			if files := fixtures.MirrorFiles(t, dest); len(files) != 0 {
				t.Errorf("%d files written from a hostile list", len(files))
			}
			if v := readState(t, dest, src.CapabilityListURL(0)); v.set.Baselined() || len(v.held) != 0 {
				t.Errorf("a hostile list left records: %+v", v.set)
			}
		})
	}
}
