package websub

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"
)

// Options configure a Subscriber. Start from DefaultOptions and change what
// you need; New rejects values that make no sense.
type Options struct {
	// CallbackURL is the public base URL hubs call, e.g.
	// "http://dest.example.net:8080/websub/". Each subscription's callback
	// is this URL followed by a random id. It must be an absolute http or
	// https URL without query or fragment.
	CallbackURL string

	// LeaseSeconds is the lease asked of the hub (hub.lease_seconds); 0
	// leaves it to the hub. The hub's grant, not this, is what counts.
	LeaseSeconds int

	// RenewFraction and RenewMargin place a renewal: at RenewFraction of the
	// granted lease, or RenewMargin before the lease ends if that is
	// earlier; but never before half the lease nor sooner than 30s after
	// the grant, so that a hub granting tiny leases cannot make us spin.
	RenewFraction float64
	RenewMargin   time.Duration
	// RenewRetryWait is the wait after a failed renewal; it doubles with
	// each further failure up to RenewRetryMaxWait. Failed renewals are
	// retried, even past the end of the lease, until one succeeds.
	RenewRetryWait    time.Duration
	RenewRetryMaxWait time.Duration

	// VerifyTimeout bounds the wait for the hub's verification GET once
	// it has accepted a subscribe or unsubscribe request. It is measured
	// on the real clock, not Now/After.
	VerifyTimeout time.Duration

	// RequestTimeout bounds one POST to a hub. MaxAttempts bounds the POSTs
	// of one request, the first included; network errors, 429 and 5xx are
	// retried after MinRetryWait, doubling up to MaxRetryWait (waited with
	// After). Other statuses are not retried.
	RequestTimeout time.Duration
	MaxAttempts    int
	MinRetryWait   time.Duration
	MaxRetryWait   time.Duration

	// MaxPayload caps the body of a delivery; a larger one is answered 413
	// and dropped.
	MaxPayload int64
	// QueueSize is the buffer of the Notifications channel. When it is
	// full, a notification is dropped (and logged); the next one of the
	// same subscription that gets through says how many were dropped.
	QueueSize int

	// Now is the clock: lease bookkeeping and renewal times.
	Now func() time.Time
	// After waits for d, as time.After; it schedules renewals and the waits
	// between retried POSTs.
	After func(d time.Duration) <-chan time.Time
	// Rand is the source of callback ids and hub secrets.
	Rand io.Reader
}

// DefaultOptions returns the defaults, with CallbackURL still to be set:
// ask for a lease of a day, renew at 80% of the grant and at least 5
// minutes before its end, retry a failed renewal after 30s doubling to 10
// minutes, wait 30s for a verification, 30s for a hub's answer, 4 attempts
// waiting 1s to 30s, payloads up to 1 MiB, a queue of 64 notifications,
// the real clock and crypto/rand.
func DefaultOptions() Options {
	return Options{
		LeaseSeconds:      86400,
		RenewFraction:     0.8,
		RenewMargin:       5 * time.Minute,
		RenewRetryWait:    30 * time.Second,
		RenewRetryMaxWait: 10 * time.Minute,
		VerifyTimeout:     30 * time.Second,
		RequestTimeout:    30 * time.Second,
		MaxAttempts:       4,
		MinRetryWait:      time.Second,
		MaxRetryWait:      30 * time.Second,
		MaxPayload:        1 << 20,
		QueueSize:         64,
		Now:               time.Now,
		After:             time.After,
		Rand:              rand.Reader,
	}
}

// minRenewInterval is the shortest time from a grant to its renewal.
const minRenewInterval = 30 * time.Second

// renewIn is how long after a grant of lease the subscription is renewed.
func (o *Options) renewIn(lease time.Duration) time.Duration {
	d := time.Duration(float64(lease) * o.RenewFraction)
	d = min(d, lease-o.RenewMargin)
	return max(d, lease/2, minRenewInterval)
}

// validate reports every option that is out of range.
func (o *Options) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if _, err := parseCallbackBase(o.CallbackURL); err != nil {
		errs = append(errs, err)
	}
	if o.LeaseSeconds < 0 {
		bad("LeaseSeconds is negative")
	}
	if !(o.RenewFraction > 0 && o.RenewFraction <= 1) {
		bad("RenewFraction is %v, want (0, 1]", o.RenewFraction)
	}
	if o.RenewMargin < 0 {
		bad("RenewMargin is negative")
	}
	if o.RenewRetryWait <= 0 || o.RenewRetryMaxWait < o.RenewRetryWait {
		bad("renewal retry waits [%s, %s] are not a positive range", o.RenewRetryWait, o.RenewRetryMaxWait)
	}
	if o.VerifyTimeout <= 0 {
		bad("VerifyTimeout is %s, want more than 0", o.VerifyTimeout)
	}
	if o.RequestTimeout <= 0 {
		bad("RequestTimeout is %s, want more than 0", o.RequestTimeout)
	}
	if o.MaxAttempts < 1 {
		bad("MaxAttempts is %d, want at least 1", o.MaxAttempts)
	}
	if o.MinRetryWait < 0 || o.MaxRetryWait < o.MinRetryWait {
		bad("retry waits [%s, %s] are not a range", o.MinRetryWait, o.MaxRetryWait)
	}
	if o.MaxPayload < 1 {
		bad("MaxPayload is %d, want at least 1", o.MaxPayload)
	}
	if o.QueueSize < 1 {
		bad("QueueSize is %d, want at least 1", o.QueueSize)
	}
	if o.Now == nil {
		bad("Now is nil")
	}
	if o.After == nil {
		bad("After is nil")
	}
	if o.Rand == nil {
		bad("Rand is nil")
	}
	return errors.Join(errs...)
}

// parseCallbackBase checks CallbackURL.
func parseCallbackBase(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case s == "":
		return nil, errors.New("CallbackURL is empty")
	case err != nil:
		return nil, fmt.Errorf("CallbackURL: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("CallbackURL %s is not an absolute http or https URL", s)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, fmt.Errorf("CallbackURL %s has a query or fragment", s)
	}
	return u, nil
}

// backoff is lo doubled n-1 times, capped at hi (n counts from 1).
func backoff(lo, hi time.Duration, n int) time.Duration {
	d := lo
	for i := 1; i < n && d < hi; i++ {
		d *= 2
	}
	return min(d, hi)
}
