package source

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultOptionsAreValid(t *testing.T) {
	c, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	c.CloseIdleConnections()
	o := DefaultOptions()
	if o.MaxAttempts != 5 || o.MinRetryWait != 500*time.Millisecond || o.MaxRetryWait != time.Minute ||
		o.PerHost != 8 || o.MaxRedirects != 10 || o.MaxDocumentBytes != 256<<20 || o.SpoolMemory != 1<<20 ||
		o.IdleTimeout != time.Minute || o.ResponseHeaderTimeout != 30*time.Second || o.ConnectTimeout != 10*time.Second {
		t.Errorf("defaults drifted: %+v", o)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	noPEM := filepath.Join(t.TempDir(), "empty.pem")
	if err := os.WriteFile(noPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"no user agent", func(o *Options) { o.UserAgent = "" }, "UserAgent"},
		{"no attempts", func(o *Options) { o.MaxAttempts = 0 }, "MaxAttempts"},
		{"inverted waits", func(o *Options) { o.MinRetryWait, o.MaxRetryWait = time.Second, time.Millisecond }, "retry waits"},
		{"negative timeout", func(o *Options) { o.IdleTimeout = -1 }, "IdleTimeout"},
		{"no document size", func(o *Options) { o.MaxDocumentBytes = 0 }, "MaxDocumentBytes"},
		{"negative spool", func(o *Options) { o.SpoolMemory = -1 }, "SpoolMemory"},
		{"missing temp dir", func(o *Options) { o.TempDir = filepath.Join(notDir, "x") }, "TempDir"},
		{"temp dir a file", func(o *Options) { o.TempDir = notDir }, "not a directory"},
		{"negative redirects", func(o *Options) { o.MaxRedirects = -1 }, "MaxRedirects"},
		{"no per-host", func(o *Options) { o.PerHost = 0 }, "PerHost"},
		{"headers without origins", func(o *Options) { o.Headers = http.Header{"Authorization": {"x"}} }, "HeaderOrigins"},
		{"reserved header", func(o *Options) {
			o.Headers, o.HeaderOrigins = http.Header{"accept-encoding": {"gzip"}}, []string{"https://example.org"}
		}, "Accept-Encoding"},
		{"header with newline", func(o *Options) {
			o.Headers, o.HeaderOrigins = http.Header{"X-A": {"a\r\nEvil: 1"}}, []string{"https://example.org"}
		}, "not a valid"},
		{"header name with space", func(o *Options) {
			o.Headers, o.HeaderOrigins = http.Header{"X A": {"a"}}, []string{"https://example.org"}
		}, "not a valid"},
		{"bad header origin", func(o *Options) { o.HeaderOrigins = []string{"example.org"} }, "header origin"},
		{"nil clock", func(o *Options) { o.Now = nil }, "Now"},
		{"missing CA file", func(o *Options) { o.CACertFile = filepath.Join(notDir, "ca.pem") }, "CA certificates"},
		{"CA file without PEM", func(o *Options) { o.CACertFile = noPEM }, "no PEM certificate"},
	}
	for _, tt := range tests {
		o := DefaultOptions()
		tt.edit(&o)
		_, err := New(o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: New: %v, want an error about %s", tt.name, err, tt.want)
		}
	}
}
