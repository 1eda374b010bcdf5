package source

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/rs/zerolog"
)

// Client fetches documents and bitstreams from Sources. It is safe for
// concurrent use; one Client serves a whole run so that keep-alive
// connections and per-host limits are shared.
type Client struct {
	opts    Options
	http    *http.Client
	base    *http.Transport
	retLog  retryablehttp.LeveledLogger // nil unless debug lines would be written
	bufPool *sync.Pool                  // *[]byte copy buffers for bodies
}

// New returns a Client for opts. It fails when an option is out of range
// or the CA file cannot be read or holds no certificate. It logs a warning
// through opts.Logger when certificate verification is disabled.
func New(opts Options) (*Client, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	tlsConf, err := tlsConfig(opts)
	if err != nil {
		return nil, err
	}
	if opts.InsecureSkipVerify {
		opts.Logger.Warn().Msg("TLS certificate verification is disabled: any server can impersonate the Source")
	}
	headers := http.Header{} // canonical keys, and a copy the caller cannot change
	for k, vs := range opts.Headers {
		for _, v := range vs {
			headers.Add(k, v)
		}
	}
	origins := make([]origin, len(opts.HeaderOrigins))
	for i, h := range opts.HeaderOrigins {
		origins[i], _ = parseOrigin(h) // validated above
	}
	dialer := &net.Dialer{Timeout: opts.ConnectTimeout, KeepAlive: 30 * time.Second}
	base := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       tlsConf,
		TLSHandshakeTimeout:   opts.TLSHandshakeTimeout,
		ResponseHeaderTimeout: opts.ResponseHeaderTimeout,
		MaxIdleConnsPerHost:   opts.PerHost,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
		// Big enough for a typical small resource and its headers in one
		// read: with the default 4 KiB, a 4 KiB body took two reads and
		// two writes to disk.
		ReadBufferSize: 64 << 10,
	}
	c := &Client{opts: opts, base: base}
	if opts.Logger.GetLevel() <= zerolog.DebugLevel && zerolog.GlobalLevel() <= zerolog.DebugLevel {
		// go-retryablehttp builds its log arguments on every request; spare
		// that when they would be dropped anyway.
		c.retLog = leveledLogger{opts.Logger}
	}
	// The roundTripper deliberately lacks CloseIdleConnections: go-retryablehttp
	// calls it after every failed fetch, which would drop the keep-alive
	// connections of every other worker. The transport discards broken
	// connections by itself.
	c.http = &http.Client{
		Transport: &roundTripper{
			base:    base,
			headers: headers,
			origins: origins,
			limit:   newHostLimiter(opts.PerHost),
			pace:    newPacer(opts),
			bw:      newBandwidth(opts.BWLimit),
			watch:   watchOf(opts),
		},
		CheckRedirect: c.checkRedirect,
	}
	c.bufPool = &sync.Pool{New: func() any {
		b := make([]byte, 32<<10)
		return &b
	}}
	return c, nil
}

// WithHosts returns a Client that follows redirects to the hosts p
// accepts (besides the server each request was made to), sharing c's
// connections, limits and everything else. A run builds its Client with the
// hosts it knows before discovery (the URL given, --allow-host) and widens
// it to the Source's own hosts once discovery has found them. c is not
// changed; both are safe for concurrent use.
func (c *Client) WithHosts(p HostPolicy) *Client {
	n := &Client{opts: c.opts, base: c.base, retLog: c.retLog, bufPool: c.bufPool}
	n.opts.Hosts = p
	n.http = &http.Client{Transport: c.http.Transport, CheckRedirect: n.checkRedirect}
	return n
}

// watchOf is the watchdog configuration of opts.
func watchOf(opts Options) watch {
	w := watch{idle: opts.IdleTimeout}
	if opts.MinRate > 0 {
		w.floor = rateFloor{rate: opts.MinRate, bytes: max(1, int64(float64(opts.MinRate)*opts.MinRateWindow.Seconds())), window: opts.MinRateWindow}
	}
	return w
}

// tlsConfig builds the client TLS configuration: the system roots plus
// opts.CACertFile, TLS 1.2 at least.
func tlsConfig(opts Options) (*tls.Config, error) {
	conf := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: opts.InsecureSkipVerify}
	if opts.CACertFile == "" {
		return conf, nil
	}
	pem, err := os.ReadFile(opts.CACertFile)
	if err != nil {
		return nil, fmt.Errorf("read CA certificates: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil { // no system pool on this platform: the file alone
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("read CA certificates: %s holds no PEM certificate", opts.CACertFile)
	}
	conf.RootCAs = pool
	return conf, nil
}

// checkRedirect refuses redirects past MaxRedirects, to anything but http
// and https, from https down to http (which would expose the request, and
// let anyone on the path answer for the Source), and to a server the host
// policy does not allow: a Source must not make the Destination ask an
// internal host (a cloud metadata service, say) and store its answer. It
// runs before the next hop is requested, so a refused host is never
// contacted.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	prev := via[len(via)-1].URL
	if len(via) > c.opts.MaxRedirects {
		return fmt.Errorf("%w: more than %d redirects, last from %s to %s", ErrRedirect, c.opts.MaxRedirects, prev, req.URL)
	}
	if err := checkURL(req.URL); err != nil {
		return fmt.Errorf("%w from %s to %s: %w", ErrRedirect, prev, req.URL, err)
	}
	if prev.Scheme == "https" && req.URL.Scheme == "http" {
		return fmt.Errorf("%w: from %s to %s downgrades https to http", ErrRedirect, prev, req.URL)
	}
	if sameServerOrUpgrade(via[0].URL, req.URL) {
		return nil
	}
	if c.opts.Hosts == nil {
		return fmt.Errorf("%w: from %s to %s leaves the server %s", ErrRedirect, prev, req.URL, via[0].URL.Host)
	}
	if err := c.opts.Hosts.Check(req.URL.String()); err != nil {
		return fmt.Errorf("%w: from %s to %s: %w", ErrRedirect, prev, req.URL, err)
	}
	return nil
}

// checkURL accepts absolute http and https URLs with a host.
func checkURL(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return ErrUnsupportedURL
	}
	return nil
}

// CloseIdleConnections closes the keep-alive connections not in use. Call
// it when a run is over; the Client stays usable. Safe for concurrent use.
func (c *Client) CloseIdleConnections() {
	c.base.CloseIdleConnections()
}

func (c *Client) getBuf() *[]byte  { return c.bufPool.Get().(*[]byte) }
func (c *Client) putBuf(b *[]byte) { c.bufPool.Put(b) }
