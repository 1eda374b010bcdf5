package source

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// resumeSink is a Sink in memory that can resume: it offers the partial
// it starts with, and keeps what it holds once Keep was called.
type resumeSink struct {
	buf             []byte
	offer           int64 // bytes offered; dropped by Write or Reset before Resume
	validator       string
	kept            string // the validator Keep was given
	resets, resumes int
	resumedAt       int64
	readBack        int64 // bytes read back through ReadAt
}

func (s *resumeSink) Partial() (int64, string) { return s.offer, s.validator }

func (s *resumeSink) Resume(n int64) error {
	if n > int64(len(s.buf)) {
		return errors.New("resume past the end")
	}
	s.buf, s.offer = s.buf[:n], 0
	s.resumes++
	s.resumedAt = n
	return nil
}

func (s *resumeSink) Keep(_, validator string) error { s.kept = validator; return nil }

func (s *resumeSink) ReadAt(p []byte, off int64) (int, error) {
	n := copy(p, s.buf[off:])
	s.readBack += int64(n)
	return n, nil
}

func (s *resumeSink) Write(p []byte) (int, error) {
	if s.offer > 0 {
		s.buf, s.offer = nil, 0 // written before Resume: the offer is dropped
	}
	s.buf = append(s.buf, p...)
	return len(p), nil
}

func (s *resumeSink) Reset() error {
	s.buf, s.offer, s.kept = nil, 0, ""
	s.resets++
	return nil
}

// rangeSource serves one body by http.ServeContent (which honours Range
// and If-Range) and records each request's Range and the bytes it sent.
type rangeSource struct {
	mu      *sync.Mutex
	body    []byte
	etag    string
	noRange bool  // ignore Range: always 200
	cutAt   int64 // the first response is cut after this many body bytes (0: never)
	ranges  []string
	sent    int64
}

func (s *rangeSource) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, etag, cut := s.body, s.etag, s.cutAt
	s.cutAt = 0
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	s.mu.Unlock()
	if s.noRange {
		r.Header.Del("Range")
	}
	w.Header().Set("ETag", etag)
	cw := &countingWriter{ResponseWriter: w, s: s, cut: cut}
	http.ServeContent(cw, r, "", time.Time{}, bytes.NewReader(body))
}

type countingWriter struct {
	http.ResponseWriter
	s   *rangeSource
	cut int64
	n   int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.cut > 0 && w.n+int64(len(p)) > w.cut {
		p = p[:w.cut-w.n]
		_, _ = w.ResponseWriter.Write(p)
		w.add(len(p))
		w.ResponseWriter.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // drop the connection mid-body
	}
	w.add(len(p))
	return w.ResponseWriter.Write(p)
}

func (w *countingWriter) add(n int) {
	w.n += int64(n)
	w.s.mu.Lock()
	w.s.sent += int64(n)
	w.s.mu.Unlock()
}

func (s *rangeSource) requests() ([]string, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ranges...), s.sent
}

func md5Fetch(url string, body []byte) resourcesync.Fetch {
	sum := md5.Sum(body)
	return resourcesync.Fetch{URL: url, Length: int64(len(body)), HasLength: true,
		Hash: resourcesync.Fixity{{Alg: "md5", Hex: hex.EncodeToString(sum[:])}}}
}

func TestDownloadResumes(t *testing.T) {
	body := pattern(1 << 20)
	const etag = `"v1"`
	tests := []struct {
		name string
		src  rangeSource
		sink resumeSink
		// wantRanges are the Range headers of the requests made.
		wantRanges []string
		wantResets int
		// wantSent bounds the body bytes the Source sent.
		wantSent int64
	}{{
		name:       "a body cut mid-way is continued with Range",
		src:        rangeSource{cutAt: 600 << 10},
		wantRanges: []string{"", "bytes=614400-"},
		wantSent:   1 << 20,
	}, {
		name:       "a partial an earlier run kept is continued",
		sink:       resumeSink{buf: body[:700<<10], offer: 700 << 10, validator: etag, kept: etag},
		wantRanges: []string{"bytes=716800-"},
		wantSent:   1<<20 - 700<<10,
	}, {
		name:       "a Source that answers 200 to a range starts again from zero",
		src:        rangeSource{noRange: true},
		sink:       resumeSink{buf: body[:700<<10], offer: 700 << 10, validator: etag},
		wantRanges: []string{"bytes=716800-"},
		wantResets: 1,
		wantSent:   1 << 20,
	}, {
		name:       "a partial of another version (its ETag changed) starts again from zero",
		sink:       resumeSink{buf: bytes.Repeat([]byte("x"), 700<<10), offer: 700 << 10, validator: `"v0"`},
		wantRanges: []string{"bytes=716800-"},
		wantResets: 1,
		wantSent:   1 << 20,
	}, {
		name: "a partial whose bytes are wrong fails the hash and is fetched again whole",
		sink: resumeSink{buf: append(bytes.Repeat([]byte("x"), 10), body[10:700<<10]...),
			offer: 700 << 10, validator: etag},
		wantRanges: []string{"bytes=716800-", ""},
		wantResets: 1,
		wantSent:   1<<20 - 700<<10 + 1<<20,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := &tt.src
			src.body, src.etag, src.mu = body, etag, new(sync.Mutex)
			srv := httptest.NewServer(src)
			t.Cleanup(srv.Close)
			sink := &tt.sink
			c := newClient(t, func(o *Options) { o.ResumeAbove = 512 << 10 })
			got, err := c.Download(context.Background(), md5Fetch(srv.URL+"/big", body), sink)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(sink.buf, body) || got.Bytes != int64(len(body)) {
				t.Fatalf("sink holds %d bytes (Bytes %d), not the body", len(sink.buf), got.Bytes)
			}
			ranges, sent := src.requests()
			if strings.Join(ranges, "|") != strings.Join(tt.wantRanges, "|") {
				t.Errorf("Range headers %q, want %q", ranges, tt.wantRanges)
			}
			if sent != tt.wantSent {
				t.Errorf("the Source sent %d body bytes, want %d", sent, tt.wantSent)
			}
			if sink.resets != tt.wantResets {
				t.Errorf("%d resets, want %d", sink.resets, tt.wantResets)
			}
			if sink.kept != etag {
				t.Errorf("kept with validator %q, want %q", sink.kept, etag)
			}
		})
	}
}

// Below ResumeAbove a dropped body is fetched again whole, as before, and
// nothing is kept.
func TestDownloadBelowResumeAboveRestarts(t *testing.T) {
	body := pattern(256 << 10)
	src := &rangeSource{mu: new(sync.Mutex), body: body, etag: `"v1"`, cutAt: 100 << 10}
	srv := httptest.NewServer(src)
	t.Cleanup(srv.Close)
	sink := &resumeSink{}
	c := newClient(t, func(o *Options) { o.ResumeAbove = 512 << 10 })
	if _, err := c.Download(context.Background(), md5Fetch(srv.URL+"/small", body), sink); err != nil {
		t.Fatal(err)
	}
	ranges, _ := src.requests()
	if strings.Join(ranges, "|") != "|" || sink.kept != "" || sink.resets != 1 || !bytes.Equal(sink.buf, body) {
		t.Errorf("ranges %q, kept %q, %d resets; want two whole requests, nothing kept, 1 reset", ranges, sink.kept, sink.resets)
	}
}

// A body without a validator cannot be resumed: If-Range would have
// nothing to check.
func TestDownloadWithoutValidatorRestarts(t *testing.T) {
	body := pattern(1 << 20)
	cut := true
	var ranges []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ranges = append(ranges, r.Header.Get("Range"))
		w.Header().Set("Content-Length", "1048576")
		if cut {
			cut = false
			_, _ = w.Write(body[:1000])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	sink := &resumeSink{}
	c := newClient(t, func(o *Options) { o.ResumeAbove = 1 })
	if _, err := c.Download(context.Background(), md5Fetch(srv.URL+"/x", body), sink); err != nil {
		t.Fatal(err)
	}
	if strings.Join(ranges, "|") != "|" || sink.kept != "" || !bytes.Equal(sink.buf, body) {
		t.Errorf("ranges %q, kept %q; want two whole requests and nothing kept", ranges, sink.kept)
	}
}

// A mirror's fetch (Anonymous) and a patch's (Once) neither continue the
// partial a sink offers - it was kept from another origin, whose
// validator says nothing of this URL's bytes - nor keep what they write.
func TestOtherOriginNeitherResumesNorKeeps(t *testing.T) {
	body := pattern(1 << 20)
	const etag = `"v1"`
	for _, tt := range []struct {
		name  string
		fetch func(resourcesync.Fetch) resourcesync.Fetch
	}{
		{"a mirror's fetch", func(f resourcesync.Fetch) resourcesync.Fetch { f.Anonymous = true; return f }},
		{"a single request", func(f resourcesync.Fetch) resourcesync.Fetch { f.Once = true; return f }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := &rangeSource{body: body, etag: etag, mu: new(sync.Mutex)}
			srv := httptest.NewServer(src)
			t.Cleanup(srv.Close)
			// The partial's validator is the one this server gives: only
			// its origin, not its validator, keeps it from being resumed.
			sink := &resumeSink{buf: body[:700<<10], offer: 700 << 10, validator: etag}
			c := newClient(t, func(o *Options) { o.ResumeAbove = 512 << 10 })
			if _, err := c.Download(context.Background(), tt.fetch(md5Fetch(srv.URL+"/big", body)), sink); err != nil {
				t.Fatal(err)
			}
			ranges, sent := src.requests()
			if len(ranges) != 1 || ranges[0] != "" || sent != 1<<20 {
				t.Errorf("Range headers %q, %d bytes sent; want one request for the whole body", ranges, sent)
			}
			if !bytes.Equal(sink.buf, body) || sink.resumes != 0 || sink.kept != "" {
				t.Errorf("sink holds %d bytes, %d resumes, kept %q; want the body, no resume, nothing kept",
					len(sink.buf), sink.resumes, sink.kept)
			}
		})
	}
}
