package source

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Errors callers inspect with errors.Is, besides resourcesync.ErrNotFound,
// resourcesync.ErrUnavailable and resourcesync.ErrMismatch.
var (
	// ErrTLS: the TLS connection could not be set up safely (unknown
	// authority, bad certificate, hostname mismatch, a peer that does not
	// speak TLS). Never retried and never ErrUnavailable: a run should stop
	// rather than carry on against a Source it cannot authenticate.
	ErrTLS = errors.New("TLS failure")
	// ErrUnsupportedURL: the URL (or a redirect target) is not an absolute
	// http or https URL. Never retried.
	ErrUnsupportedURL = errors.New("not an absolute http or https URL")
	// ErrRedirect: a redirect was refused (too many, or https to http).
	// Never retried.
	ErrRedirect = errors.New("redirect refused")
	// ErrTooLarge: a document decodes to more than Options.MaxDocumentBytes,
	// or a bitstream without a listed length is longer than
	// Options.MaxResourceBytes. Never retried.
	ErrTooLarge = errors.New("too large")
	// ErrTooSlow: a transfer stayed below Options.MinRate for
	// Options.MinRateWindow (retried, like a failed connection, then
	// resourcesync.ErrUnavailable), or a document was not read within
	// Options.MaxDocumentTime (also resourcesync.ErrUnavailable, not
	// retried). A Source that trickles cannot hold a run forever.
	ErrTooSlow = errors.New("too slow")
)

// StatusError is a response with a status the client does not accept: any
// non-2xx status (bar 304 to a conditional GET) and 206. For 429 and 5xx it
// is returned only once every attempt has been used.
//
// It matches resourcesync.ErrNotFound (errors.Is) for 404 and 410, and
// resourcesync.ErrUnavailable for 429 and 5xx.
type StatusError struct {
	URL      string // the URL asked for
	FinalURL string // the URL that answered, after redirects
	Status   int    // HTTP status code
	Attempts int    // requests made, retries included
}

// Error names the URL asked for, where it was redirected, the status and
// how many attempts were made.
func (e *StatusError) Error() string {
	var b strings.Builder
	b.WriteString("get ")
	b.WriteString(e.URL)
	if e.FinalURL != "" && e.FinalURL != e.URL {
		b.WriteString(" (redirected to ")
		b.WriteString(e.FinalURL)
		b.WriteString(")")
	}
	fmt.Fprintf(&b, ": HTTP %d %s", e.Status, http.StatusText(e.Status))
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	return b.String()
}

// Is makes errors.Is(err, resourcesync.ErrNotFound) true for 404 and 410,
// and errors.Is(err, resourcesync.ErrUnavailable) true for 429 and 5xx.
func (e *StatusError) Is(target error) bool {
	switch target {
	case resourcesync.ErrNotFound:
		return e.Status == http.StatusNotFound || e.Status == http.StatusGone
	case resourcesync.ErrUnavailable:
		return retryableStatus(e.Status)
	}
	return false
}

// retryableStatus reports whether a status says "try again later".
func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// bodyError is a failure while reading a response body off the network:
// reset, truncated, idle. It is retried like a connection failure.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return "read body: " + e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// idleError is the cause of a bodyError when the idle watchdog fired.
type idleError struct{ idle time.Duration }

func (e *idleError) Error() string { return "no data received for " + e.idle.String() }

// slowError is the cause of a bodyError when a body stayed below the rate
// floor for a whole window.
type slowError struct {
	floor rateFloor
	got   int64
	over  time.Duration
}

func (e *slowError) Error() string {
	return fmt.Sprintf("%v: %d bytes received in %s, less than the minimum rate of %s/s over %s",
		ErrTooSlow, e.got, e.over, sizeText(e.floor.rate), e.floor.window)
}

func (e *slowError) Unwrap() error { return ErrTooSlow }

// sizeText writes a byte count the way the flags take it (1K, 1.5M).
func sizeText(n int64) string {
	for _, u := range []struct {
		unit string
		size int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.size {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', -1, 64) + u.unit
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// sinkError is a failure of the caller's Sink. It is not the Source's
// fault and not retried.
type sinkError struct {
	op  string
	err error
}

func (e *sinkError) Error() string { return e.op + " sink: " + e.err.Error() }
func (e *sinkError) Unwrap() error { return e.err }

// isTLSError reports whether err is a TLS failure that retrying cannot fix.
// Handshake timeouts are not among them: those are a slow network.
func isTLSError(err error) bool {
	var (
		verify    *tls.CertificateVerificationError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
		record    tls.RecordHeaderError
		alert     tls.AlertError
	)
	switch {
	case errors.As(err, &verify), errors.As(err, &authority), errors.As(err, &hostname),
		errors.As(err, &invalid), errors.As(err, &record), errors.As(err, &alert):
		return true
	}
	// An alert from the server (it rejected our handshake) has no exported
	// type outside QUIC, and net/http replaces the RecordHeaderError of a
	// plain-http server with a bare error; both texts are stable.
	msg := err.Error()
	return strings.Contains(msg, "remote error: tls: ") || strings.Contains(msg, "server gave HTTP response to HTTPS client")
}
