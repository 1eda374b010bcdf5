package main

import (
	"bufio"
	"crypto/tls"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// bothSchemes serves h over http and https on one loopback port - the
// first byte of a connection tells a TLS handshake - so that a Source can
// move from http://127.0.0.1:P/ to https://127.0.0.1:P/, which map to one
// directory of the mirror, as http://h/ and https://h/ do on their default
// ports. It returns the port's host:port and the PEM to trust.
func bothSchemes(t *testing.T, h http.Handler) (string, []byte) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cert, caPEM := selfSignedCert(t, "127.0.0.1")
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Minute}
	go func() { _ = srv.Serve(newSniffListener(l, &tls.Config{Certificates: []tls.Certificate{cert}})) }()
	t.Cleanup(func() { _ = srv.Close() })
	return l.Addr().String(), caPEM
}

// sniffListener hands out connections once their first byte arrived,
// sniffed in a goroutine each so that a silent connection holds up none.
type sniffListener struct {
	net.Listener
	conns chan net.Conn
}

func newSniffListener(l net.Listener, cfg *tls.Config) sniffListener {
	s := sniffListener{l, make(chan net.Conn)}
	go func() {
		defer close(s.conns)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.sniff(c, cfg)
		}
	}()
	return s
}

func (l sniffListener) sniff(c net.Conn, cfg *tls.Config) {
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	br := bufio.NewReader(c)
	first, err := br.Peek(1)
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		c.Close()
		return
	}
	var out net.Conn = peekedConn{c, br}
	if first[0] == 0x16 { // a TLS record: the handshake
		out = tls.Server(out, cfg)
	}
	l.conns <- out
}

func (l sniffListener) Accept() (net.Conn, error) {
	c, ok := <-l.conns
	if !ok {
		return nil, net.ErrClosed
	}
	return c, nil
}

type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// Issue 22, item 5c: a Source that moves its Capability List from http
// to https keeps its set. The next run downloads nothing (every file is
// unchanged), the old set is gone from the state - its records moved to
// the URIs the Source names now - and the moved set's deletions work.
func TestGuaranteeMovedCapabilityListKeepsTheSet(t *testing.T) {
	t.Parallel()
	src, addr, caPEM, dest, oldCapList := baselinedOnHTTP(t)
	before := checkState(t, dest, oldCapList)

	if err := src.SetBaseURL("https://" + addr); err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	newCapList := src.CapabilityListURL(0)
	bodies := func() (n int) {
		for _, r := range src.Resources(0) {
			n += src.Count(r.Path).Bodies
		}
		return n
	}
	was := bodies()
	flags := []string{"--ca-cert", ca, src.URL()}
	runCLI(t, args([]string{"baseline", "--dest", dest, "--delete"}, flags...)...).want(t, 0)
	if n := bodies() - was; n != 0 {
		t.Errorf("%d unchanged resources were downloaded again after the move", n)
		for _, r := range src.Resources(0) {
			t.Logf("%s %+v", r.URI, src.Count(r.Path))
		}
	}
	if v := readState(t, dest, oldCapList); v.ok {
		t.Errorf("the old set %s is still in the state", oldCapList)
	}
	after := checkState(t, dest, newCapList)
	if len(after.held) != len(before.held) {
		t.Errorf("%d records after the move, %d before", len(after.held), len(before.held))
	}
	for _, h := range after.held {
		if !strings.HasPrefix(h.URI, src.URL()) {
			t.Errorf("a record still names the old URI %s", h.URI)
		}
	}
	// The moved set holds its files: a deletion at the Source removes one.
	deleteAtSource(t, src, 1)
	gone := filepath.Join(dest, filepath.FromSlash(relPath(t, src.URI("/dataset1/res/000/r000000.txt"))))
	runCLI(t, args([]string{"sync", "--dest", dest, "--delete"}, flags...)...).want(t, 0)
	if v := checkState(t, dest, newCapList); len(v.held) != len(before.held)-1 {
		t.Errorf("%d records after a deletion at the Source, want %d", len(v.held), len(before.held)-1)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the file deleted at the Source is still there: %s (%v)", gone, err)
	}
}

// Issue 22, item 5c: audit recognises a set whose Capability List moved
// before any sync moved it - its files are its own, not another set's, so
// a file the Source deleted meanwhile is extra (it was skipped as the old
// set's, and the mirror reported in sync) - and writes nothing.
func TestGuaranteeAuditRecognisesAMovedSet(t *testing.T) {
	t.Parallel()
	src, addr, caPEM, dest, oldCapList := baselinedOnHTTP(t)
	deleteAtSource(t, src, 1)
	if err := src.SetBaseURL("https://" + addr); err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	gone := relPath(t, src.URI("/dataset1/res/000/r000000.txt"))
	for _, mode := range [][]string{nil, {"--fast"}} {
		r := runCLI(t, args([]string{"audit", "--dest", dest}, append(mode, "--ca-cert", ca, src.URL())...)...).want(t, 4)
		contains(t, r.stdout, "+ "+gone, "moved this set's Capability List from "+oldCapList)
		if strings.Count(r.stdout, "\n+ ") != 1 || strings.Contains(r.stdout, "\n- ") || strings.Contains(r.stdout, "\n* ") {
			t.Errorf("audit %v: want one extra file and nothing else:\n%s", mode, r.stdout)
		}
	}
	if !readState(t, dest, oldCapList).ok {
		t.Error("audit moved the set: it writes nothing")
	}
}

// baselinedOnHTTP is a 12-resource Source served on one address over both
// http and https (caPEM trusts its certificate), named by its http URLs,
// and a mirror of it made by a baseline; oldCapList is the Capability
// List's http URL, the one a move to https leaves behind.
func baselinedOnHTTP(t *testing.T) (src *fixtures.Source, addr string, caPEM []byte, dest, oldCapList string) {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 12
	src, err := fixtures.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	addr, caPEM = bothSchemes(t, src.Handler())
	if err := src.SetBaseURL("http://" + addr); err != nil {
		t.Fatal(err)
	}
	dest = t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, src.URL())...).want(t, 0)
	return src, addr, caPEM, dest, src.CapabilityListURL(0)
}
