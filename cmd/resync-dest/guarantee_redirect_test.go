package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 22, item 1: SSRF through a redirect. A resource on the Source's
// own host, then its Resource List, then its Capability List answer with a
// redirect to an internal host (the canary on 127.0.0.2, standing for a
// cloud metadata service). The host policy holds on every hop: the canary
// is never asked, the failure names both URLs, nothing from it is written,
// and the state stays true to the disk. --allow-host lets the host in.
func TestGuaranteeRedirectsHoldTheHostPolicy(t *testing.T) {
	// Each case has a canary of its own, so that no case's requests are
	// counted against another.
	canaryFor := func(t *testing.T) (*fixtures.Canary, string, fixtures.Fault) {
		c := fixtures.NewCanary(t)
		meta := c.URL + "/latest/meta-data"
		return c, meta, fixtures.Fault{Status: []int{302, 302, 302, 302, 302, 302, 302, 302}, Location: meta}
	}
	check := func(t *testing.T, canary *fixtures.Canary, dest, capList string) {
		t.Helper()
		if n := canary.Requests(); n != 0 {
			t.Fatalf("the internal host was asked %d times", n)
		}
		for rel := range fixtures.MirrorFiles(t, dest) {
			if strings.HasPrefix(rel, "127.0.0.2") {
				t.Errorf("something was stored under the internal host: %s", rel)
			}
		}
		v := readState(t, dest, capList)
		assertHeldOnDisk(t, dest, v.held)
		assertNoTempFiles(t, dest)
	}

	t.Run("resource", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
		canary, meta, redirect := canaryFor(t)
		moved := src.Resources(0)[2]
		src.SetFault(moved.Path, redirect)
		dest := t.TempDir()
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitPartial)
		contains(t, r.stdout+r.stderr, moved.URI, meta, "redirect refused", "--allow-host 127.0.0.2")
		if _, ok := fixtures.MirrorFiles(t, dest)[relPath(t, moved.URI)]; ok {
			t.Errorf("the redirected resource was written")
		}
		v := readState(t, dest, src.CapabilityListURL(0))
		if heldURIs(v.held)[moved.URI] {
			t.Errorf("the state holds the redirected resource")
		}
		if len(v.held) != 4 {
			t.Errorf("the state holds %d resources, want the 4 others", len(v.held))
		}
		check(t, canary, dest, src.CapabilityListURL(0))

		// Allowed, the hop is followed and the answer stored under the
		// URI listed (never under the host redirected to).
		runCLI(t, args([]string{"baseline", "--dest", dest, "--allow-host", "127.0.0.2"}, srv.URL)...).want(t, exitPartial)
		if canary.Requests() == 0 {
			t.Errorf("--allow-host did not let the redirect through")
		}
	})

	t.Run("Resource List", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
		canary, meta, redirect := canaryFor(t)
		list := src.ResourceListURL(0)
		u, _ := url.Parse(list)
		src.SetFault(u.Path, redirect)
		dest := t.TempDir()
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...)
		if r.code == 0 {
			t.Fatalf("a Resource List redirected to a host not allowed was read (exit 0)\n%s", r.stderr)
		}
		contains(t, r.stdout+r.stderr, list, meta, "redirect refused")
		if files := fixtures.MirrorFiles(t, dest); len(files) != 0 {
			t.Errorf("%d files written", len(files))
		}
		check(t, canary, dest, src.CapabilityListURL(0))
	})

	t.Run("Capability List", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
		canary, meta, redirect := canaryFor(t)
		u, _ := url.Parse(src.CapabilityListURL(0))
		src.SetFault(u.Path, redirect)
		dest := filepath.Join(t.TempDir(), "mirror")
		r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...)
		if r.code == 0 {
			t.Fatalf("a Capability List redirected to a host not allowed was read (exit 0)\n%s", r.stderr)
		}
		contains(t, r.stdout+r.stderr, meta, "redirect refused")
		check(t, canary, dest, src.CapabilityListURL(0))
	})
}

// Issue 22, item 2: credentials in clear text. --header given for the
// Source at https://127.0.0.3/ (port 443) went also to http://127.0.0.3/
// (port 80) when the Resource List named such URLs. A header is scoped to
// the scheme, host and port of the URL it was given for: the https Source
// gets it, the plain-http listener on port 80 of the same host - which
// serves the right bytes, so the run succeeds - never does. The default
// ports are the point, so the test needs to bind ports 80 and 443 of
// 127.0.0.3 (root, or CAP_NET_BIND_SERVICE); elsewhere it is skipped and
// source TestHTTPSHeadersNeverGoToHTTP covers the same with a dialer.
func TestGuaranteeHTTPSHeadersNeverGoOverHTTP(t *testing.T) {
	const host = "127.0.0.3"
	l443, err := net.Listen("tcp", host+":443")
	if err != nil {
		t.Skipf("cannot bind %s:443 (%v): source TestHTTPSHeadersNeverGoToHTTP covers this", host, err)
	}
	l80, err := net.Listen("tcp", host+":80")
	if err != nil {
		l443.Close()
		t.Skipf("cannot bind %s:80 (%v): source TestHTTPSHeadersNeverGoToHTTP covers this", host, err)
	}
	spec := fixtures.DefaultSpec()
	spec.Resources = 4
	src, err := fixtures.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	var secureAuth, plainAuth, plainHits atomic.Int64
	secure := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer s3cret" {
			secureAuth.Add(1)
		}
		src.Handler().ServeHTTP(w, r)
	}))
	secure.Listener.Close()
	secure.Listener = l443
	cert, caPEM := selfSignedCert(t, host)
	secure.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	secure.StartTLS()
	t.Cleanup(secure.Close)
	if err := src.SetBaseURL("https://" + host); err != nil {
		t.Fatal(err)
	}
	// The plain listener answers for the http twin of every resource with
	// the resource's own bytes.
	plain := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		if r.Header.Get("Authorization") != "" {
			plainAuth.Add(1)
		}
		body, ok := src.Content("https://" + host + r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	})}
	go plain.Serve(l80)
	t.Cleanup(func() { plain.Close() })

	twin := src.Resources(0)[1]
	clear := strings.Replace(twin.URI, "https://", "http://", 1)
	var locs []string
	for _, r := range src.Resources(0) {
		locs = append(locs, r.URI)
	}
	locs[1] = clear
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(locs))

	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest, "--ca-cert", ca, "--allow-host", host,
		"--header", "Authorization: Bearer s3cret"}, "https://"+host+"/")...).want(t, 0)
	if plainHits.Load() == 0 {
		t.Fatal("the http URL was never fetched; the test proved nothing")
	}
	if n := plainAuth.Load(); n != 0 {
		t.Errorf("the Authorization header given for https://%s/ went out over http %d times", host, n)
	}
	if secureAuth.Load() == 0 {
		t.Errorf("the https Source never received the header")
	}
	v := readState(t, dest, src.CapabilityListURL(0))
	if !heldURIs(v.held)[clear] || len(v.held) != len(locs) {
		t.Errorf("the state holds %d resources (the http one: %v), want %d", len(v.held), heldURIs(v.held)[clear], len(locs))
	}
	assertHeldOnDisk(t, dest, v.held)
	assertNoTempFiles(t, dest)
}

// selfSignedCert makes a TLS certificate for the IP address host, and its
// PEM to trust (--ca-cert).
func selfSignedCert(t *testing.T, host string) (tls.Certificate, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: host},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP(host)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// A URL that redirects to another host - example.org to www.example.org is
// the common case - is followed only with --allow-host, discover included;
// without it the refusal says what to allow.
func TestDiscoverRedirectToAnotherHostNeedsAllowHost(t *testing.T) {
	src, _ := served(t, nil)
	front := httptest.NewServer(http.RedirectHandler(src.SourceDescriptionURL(), http.StatusMovedPermanently))
	t.Cleanup(front.Close)
	u, _ := url.Parse(src.URL())
	r := runCLI(t, args([]string{"discover"}, front.URL+"/")...)
	if r.code == 0 {
		t.Fatalf("a redirect to another host was followed without --allow-host")
	}
	contains(t, r.stderr, "redirect refused", "--allow-host "+u.Hostname())
	runCLI(t, args([]string{"discover", "--allow-host", u.Host}, front.URL+"/")...).want(t, 0)
}
