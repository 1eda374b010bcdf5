package source

import (
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Options configure a Client. Start from DefaultOptions and change what you
// need; New rejects values that make no sense.
type Options struct {
	// UserAgent is sent with every request.
	UserAgent string

	// Headers are extra request headers (e.g. Authorization) sent only to
	// the origins in HeaderOrigins, never to another, redirects included.
	// Headers the client sets itself (User-Agent, Accept-Encoding,
	// conditional and framing headers) are rejected.
	Headers http.Header
	// HeaderOrigins are where Headers go, each "scheme://host[:port]": the
	// scheme, the host (any case) and the port (the scheme's default when
	// none is given) must all match the request's, so a header given for
	// an https origin never goes out over http.
	HeaderOrigins []string

	// Hosts decides where a redirect may lead: a hop to the server the
	// request was made to (or from its http to its https default port)
	// is always followed; any other hop only when Hosts.Check accepts its
	// URL. Nil follows no redirect to another server. See WithHosts.
	Hosts HostPolicy

	// CACertFile is a PEM file of CA certificates trusted in addition to
	// the system pool (not instead of it).
	CACertFile string
	// InsecureSkipVerify disables certificate verification. New logs a
	// warning when it is set.
	InsecureSkipVerify bool

	// MaxAttempts bounds the requests for one fetch, the first included.
	MaxAttempts int
	// MinRetryWait and MaxRetryWait bound the wait before a retry: the
	// exponential backoff (with jitter) and any Retry-After the Source sends
	// are clamped into [MinRetryWait, MaxRetryWait].
	MinRetryWait time.Duration
	MaxRetryWait time.Duration

	// ConnectTimeout bounds a TCP connect; TLSHandshakeTimeout the TLS
	// handshake; ResponseHeaderTimeout the wait for response headers after
	// the request is sent. IdleTimeout aborts (and retries) an attempt when
	// no body bytes arrive for that long; a body that keeps flowing is never
	// cut off, however long it takes. Zero disables a timeout. There is no
	// overall timeout: use the context.
	ConnectTimeout        time.Duration
	TLSHandshakeTimeout   time.Duration
	ResponseHeaderTimeout time.Duration
	IdleTimeout           time.Duration

	// MinRate (bytes per second) and MinRateWindow bound how slowly a body
	// may arrive, like curl's --speed-limit and --speed-time: an attempt
	// that receives fewer than MinRate*MinRateWindow bytes while waiting
	// MinRateWindow on the network is aborted (ErrTooSlow) and retried.
	// Only time spent waiting for the network counts, so a slow consumer
	// (or a bandwidth limit of ours) never trips it, and a download that
	// keeps flowing above the floor is never cut, however long it takes.
	// Zero MinRate disables the floor.
	MinRate       int64
	MinRateWindow time.Duration

	// MaxResourceBytes caps a bitstream whose Fetch gives no length
	// (Download): a longer body, or a Content-Length saying so, fails with
	// ErrTooLarge, not retried. A listed length is the cap otherwise. Zero
	// means no cap.
	MaxResourceBytes int64

	// ResumeAbove is the size (the listed length, else the Content-Length)
	// from which a bitstream's download is resumed rather than restarted
	// (Download): continued with Range when its connection drops, and kept
	// by a sink that can keep it (the mirror) for the next run. Zero
	// disables resuming.
	ResumeAbove int64

	// MaxDocumentBytes caps a document's decoded size (OpenDocument).
	MaxDocumentBytes int64
	// MaxDocumentTime bounds one OpenDocument, its retries included: a
	// document (or an index part) not read by then fails with ErrTooSlow.
	// Zero means no bound.
	MaxDocumentTime time.Duration
	// SpoolMemory is how much of a document is held in memory before it
	// is spooled to a temporary file in TempDir ("" = os.TempDir()).
	SpoolMemory int64
	TempDir     string

	// MaxRedirects bounds the redirects followed for one request.
	MaxRedirects int

	// PerHost bounds the requests in flight to one host (host:port), and
	// the idle keep-alive connections kept for it.
	PerHost int

	// TPSLimit bounds the requests that start per second to one host,
	// across every caller of the Client (documents and bitstreams, every
	// hop of a redirect), with bursts of TPSBurst (at least 1); zero means
	// no limit. Whatever it is, a 429 or 503 answer slows the whole host
	// down (an adaptive delay, doubled by each such answer up to 2s and
	// eased by the others), and its Retry-After (within MaxRetryWait)
	// pauses every request to the host.
	TPSLimit float64
	TPSBurst int
	// BWLimit bounds the bytes per second read from every body together;
	// zero means no limit. Time spent waiting for it never counts against
	// MinRate.
	BWLimit int64

	// Logger receives retries (info) and go-retryablehttp's own lines
	// (debug). The zero Logger logs nothing.
	Logger zerolog.Logger

	// Now is the clock, used to read a Retry-After date.
	Now func() time.Time
}

// HostPolicy is the host policy a redirect hop must pass:
// resourcesync.Scope satisfies it. Check returns nil when uri may be
// fetched, else an error saying why.
type HostPolicy interface {
	Check(uri string) error
}

// DefaultOptions returns the defaults: five attempts waiting 500ms to 60s,
// connect and TLS handshake 10s, response headers 30s, idle body 60s, at
// least 1 KiB/s over any 60s of waiting, documents up to 256 MiB read
// within 10 minutes with 1 MiB in memory, bitstreams without a listed
// length up to 4 GiB, 10 redirects, 8 requests in flight per host, and no
// logging.
func DefaultOptions() Options {
	return Options{
		UserAgent:             "resync-dest/dev",
		MaxAttempts:           5,
		MinRetryWait:          500 * time.Millisecond,
		MaxRetryWait:          60 * time.Second,
		ConnectTimeout:        10 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		IdleTimeout:           60 * time.Second,
		MinRate:               1 << 10,
		MinRateWindow:         60 * time.Second,
		MaxResourceBytes:      4 << 30,
		ResumeAbove:           8 << 20,
		MaxDocumentBytes:      256 << 20,
		MaxDocumentTime:       10 * time.Minute,
		SpoolMemory:           1 << 20,
		MaxRedirects:          10,
		PerHost:               8,
		Logger:                zerolog.Nop(),
		Now:                   time.Now,
	}
}

// reservedHeader reports whether the client sets header name (canonical
// form) itself, so Options.Headers may not override it: a stray
// Accept-Encoding would break length and hash checks, a stray If-None-Match
// would turn a fetch into a 304.
func reservedHeader(name string) bool {
	switch name {
	case "Accept-Encoding", "Cache-Control", "Connection", "Content-Length", "Host",
		"If-Match", "If-Modified-Since", "If-None-Match", "If-Range", "If-Unmodified-Since",
		"Keep-Alive", "Proxy-Connection", "Range", "Te", "Trailer", "Transfer-Encoding",
		"Upgrade", "User-Agent":
		return true
	}
	return false
}

// validHeader reports whether name is an HTTP token and every value is free
// of control characters, so a bad --header fails at start-up rather than on
// every request.
func validHeader(name string, values []string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	for _, v := range values {
		for _, r := range v {
			if (r < ' ' && r != '\t') || r == 0x7f {
				return false
			}
		}
	}
	return true
}

// validate reports every option that is out of range.
func (o Options) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if o.UserAgent == "" {
		bad("UserAgent is empty")
	}
	if o.MaxAttempts < 1 {
		bad("MaxAttempts is %d, want at least 1", o.MaxAttempts)
	}
	if o.MinRetryWait < 0 || o.MaxRetryWait < o.MinRetryWait {
		bad("retry waits [%s, %s] are not a range", o.MinRetryWait, o.MaxRetryWait)
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{
		{"ConnectTimeout", o.ConnectTimeout}, {"TLSHandshakeTimeout", o.TLSHandshakeTimeout},
		{"ResponseHeaderTimeout", o.ResponseHeaderTimeout}, {"IdleTimeout", o.IdleTimeout},
		{"MinRateWindow", o.MinRateWindow}, {"MaxDocumentTime", o.MaxDocumentTime},
	} {
		if t.d < 0 {
			bad("%s is negative", t.name)
		}
	}
	if o.ResumeAbove < 0 {
		bad("ResumeAbove is negative")
	}
	if o.MaxResourceBytes < 0 {
		bad("MaxResourceBytes is negative")
	}
	if o.MinRate < 0 {
		bad("MinRate is negative")
	}
	if o.MinRate > 0 && o.MinRateWindow <= 0 {
		bad("MinRate is set but MinRateWindow is %s", o.MinRateWindow)
	}
	if o.MaxDocumentBytes < 1 {
		bad("MaxDocumentBytes is %d, want at least 1", o.MaxDocumentBytes)
	}
	if o.SpoolMemory < 0 {
		bad("SpoolMemory is negative")
	}
	if o.TempDir != "" {
		if fi, err := os.Stat(o.TempDir); err != nil {
			bad("TempDir: %w", err)
		} else if !fi.IsDir() {
			bad("TempDir %s is not a directory", o.TempDir)
		}
	}
	if o.MaxRedirects < 0 {
		bad("MaxRedirects is negative")
	}
	if o.PerHost < 1 {
		bad("PerHost is %d, want at least 1", o.PerHost)
	}
	if o.TPSLimit < 0 || o.TPSBurst < 0 || o.BWLimit < 0 {
		bad("TPSLimit, TPSBurst and BWLimit must not be negative")
	}
	if len(o.Headers) > 0 && len(o.HeaderOrigins) == 0 {
		bad("Headers are set but HeaderOrigins is empty, so they would never be sent")
	}
	for name, values := range o.Headers {
		canon := textproto.CanonicalMIMEHeaderKey(name)
		switch {
		case !validHeader(name, values):
			bad("header %q is not a valid HTTP header", name)
		case reservedHeader(canon):
			bad("header %s is set by the client and cannot be overridden", canon)
		}
	}
	for _, h := range o.HeaderOrigins {
		if _, err := parseOrigin(h); err != nil {
			errs = append(errs, err)
		}
	}
	if o.Now == nil {
		bad("Now is nil")
	}
	if len(errs) > 0 {
		return fmt.Errorf("source options: %w", errors.Join(errs...))
	}
	return nil
}
