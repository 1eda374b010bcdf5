package source

import (
	"context"
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

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/rs/zerolog"
)

// tlsServer is an httptest TLS server that counts accepted connections
// (handshakes attempted) as well as requests.
type tlsServer struct {
	*httptest.Server
	conns atomic.Int64
}

func newTLSServer(t testing.TB, h http.HandlerFunc) *tlsServer {
	t.Helper()
	s := &tlsServer{Server: httptest.NewUnstartedServer(h)}
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // failed handshakes are the point
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// caFile writes the server's certificate as a PEM CA file.
func caFile(t testing.TB, s *tlsServer) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ca.pem")
	b := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTLSWithCACertFile(t *testing.T) {
	s := newTLSServer(t, content([]byte("secret")))
	c := newClient(t, func(o *Options) { o.CACertFile = caFile(t, s) })
	var sink memSink
	if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: s.URL}, &sink); err != nil {
		t.Fatal(err)
	}
	if sink.buf.String() != "secret" {
		t.Errorf("got %q", sink.buf.String())
	}
}

func TestTLSFailuresFailClosed(t *testing.T) {
	s := newTLSServer(t, content([]byte("secret")))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(s.URL, "https://"))
	tests := []struct {
		name string
		url  string
		ca   bool
		want string
	}{
		{"unknown authority", s.URL, false, "unknown authority"},
		// httptest's certificate names 127.0.0.1 and example.com, not localhost.
		{"hostname mismatch", "https://localhost:" + port, true, "localhost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := s.conns.Load()
			c := newClient(t, func(o *Options) {
				if tt.ca {
					o.CACertFile = caFile(t, s)
				}
			})
			_, err := c.Download(context.Background(), resourcesync.Fetch{URL: tt.url + "/x"}, &memSink{})
			wantIs(t, err, ErrTLS)
			wantNotIs(t, err, resourcesync.ErrUnavailable)
			if !strings.Contains(err.Error(), tt.url+"/x") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q should name the URL and %q", err, tt.want)
			}
			if n := s.conns.Load() - before; n != 1 {
				t.Errorf("%d connections, want 1 (no retry)", n)
			}
			_, _, _, err = c.OpenDocument(context.Background(), tt.url)
			wantIs(t, err, ErrTLS)
		})
	}
}

// Speaking https to a plain http server is a configuration error, not an
// outage.
func TestHTTPSToPlainServerFailsClosed(t *testing.T) {
	srv, _ := serve(t, content([]byte("x")))
	url := "https://" + strings.TrimPrefix(srv.URL, "http://")
	_, err := newClient(t, nil).Download(context.Background(), resourcesync.Fetch{URL: url}, &memSink{})
	wantIs(t, err, ErrTLS)
}

func TestInsecureSkipVerify(t *testing.T) {
	s := newTLSServer(t, content([]byte("secret")))
	var logs logBuffer
	c := newClient(t, func(o *Options) {
		o.InsecureSkipVerify = true
		o.Logger = zerolog.New(&logs).Level(zerolog.InfoLevel)
	})
	if _, err := c.Download(context.Background(), resourcesync.Fetch{URL: s.URL}, &memSink{}); err != nil {
		t.Fatal(err)
	}
	lines := logs.lines(t)
	if len(lines) != 1 || lines[0]["level"] != "warn" || !strings.Contains(lines[0]["message"].(string), "TLS") {
		t.Errorf("logs %v, want one warning about TLS", lines)
	}
}
