package source

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// FuzzReadDocument feeds untrusted bodies, with and without a gzip
// Content-Encoding, to the document decoder: it must not panic, must keep
// to MaxDocumentBytes, and must pass plain content through unchanged.
func FuzzReadDocument(f *testing.F) {
	f.Add([]byte(xmlDoc), false)
	f.Add(gzipped(f, []byte(xmlDoc)), false)
	f.Add(gzipped(f, []byte(xmlDoc)), true)
	f.Add(gzipped(f, gzipped(f, []byte(xmlDoc))), true)
	f.Add(gzipped(f, bytes.Repeat([]byte{'a'}, 100_000)), false)
	f.Add([]byte{0x1f, 0x8b}, false)
	f.Add([]byte{0x1f}, true)
	const limit = 64 << 10
	c := newClient(f, func(o *Options) {
		o.MaxDocumentBytes = limit
		o.SpoolMemory = 4 << 10
		o.TempDir = f.TempDir()
	})
	f.Fuzz(func(t *testing.T, body []byte, encoded bool) {
		resp := &http.Response{
			StatusCode:    200,
			Header:        http.Header{},
			Body:          io.NopCloser(bytes.NewReader(body)),
			ContentLength: int64(len(body)),
		}
		if encoded {
			resp.Header.Set("Content-Encoding", "gzip")
			resp.ContentLength = -1
		}
		sp := newSpool(c.opts.SpoolMemory, c.opts.TempDir)
		defer sp.discard()
		decoded, err := c.readDocument(resp, sp)
		if err != nil {
			if errors.Is(err, ErrTooLarge) && !encoded && !isGzip(body) && len(body) <= limit {
				t.Fatalf("%d plain bytes refused as too large", len(body))
			}
			return
		}
		rc, err := sp.open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > limit {
			t.Fatalf("decoded %d bytes, limit %d", len(got), limit)
		}
		if !encoded && !isGzip(body) && (decoded || !bytes.Equal(got, body)) {
			t.Fatalf("plain body changed: %d bytes in, %d out", len(body), len(got))
		}
	})
}

func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// FuzzRetryAfter checks that whatever a Source sends in Retry-After, the
// wait stays within the configured bounds.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"120", "0", "-5", "Fri, 01 Mar 2024 12:01:00 GMT", "99999999999999999999", "1e9", ""} {
		f.Add(s)
	}
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	lo, hi := 10*time.Millisecond, time.Minute
	f.Fuzz(func(t *testing.T, s string) {
		if d, ok := retryAfter(s, now); ok && d < 0 {
			t.Fatalf("retryAfter(%q) = %s", s, d)
		}
		resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {s}}}
		if d := retryWait(lo, hi, 3, resp, now); d < lo || d > hi {
			t.Fatalf("retryWait with Retry-After %q = %s, outside [%s, %s]", s, d, lo, hi)
		}
	})
}

// FuzzParseOrigin checks that an accepted origin is normalised and matches
// a URL built from it, and no URL of the other scheme.
func FuzzParseOrigin(f *testing.F) {
	for _, s := range []string{"https://example.org", "http://Example.org:8443/", "https://[::1]:80", "https://h:0443",
		"http://a:b:c", "https://[x]", "https://h:0", "https://:80", "https://h:+80", "example.org", "https://u@h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := parseOrigin(s)
		if err != nil {
			return
		}
		if o.scheme != "http" && o.scheme != "https" || o.hostPort != strings.ToLower(o.hostPort) {
			t.Fatalf("parseOrigin(%q) = %+v", s, o)
		}
		u, err := url.Parse(o.scheme + "://" + o.hostPort + "/x")
		if err != nil {
			t.Fatalf("parseOrigin(%q) = %+v, which is no URL: %v", s, o, err)
		}
		if !o.matches(u) {
			t.Fatalf("%q (%+v) does not match %s", s, o, u)
		}
		other := *u
		other.Scheme = map[string]string{"http": "https", "https": "http"}[o.scheme]
		if o.matches(&other) {
			t.Fatalf("%q (%+v) matches %s, of the other scheme", s, o, &other)
		}
	})
}

// FuzzContentRange checks that an accepted Content-Range is a range that
// can be: first <= last, within its total when one is given.
func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"bytes 100-199/200", "bytes 0-0/*", "bytes 5-4/10", "bytes -1-3/4", "bytes 1-2/2", "items 0-1/2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		first, last, total, err := contentRange(s)
		if err != nil {
			return
		}
		if first < 0 || last < first || (total != -1 && total <= last) {
			t.Fatalf("contentRange(%q) = %d, %d, %d", s, first, last, total)
		}
	})
}
