package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// exchange is one logical GET: all its attempts, retries and redirects.
// go-retryablehttp runs the loop; the hooks below, which close over this
// state, decide what is retried and what error comes out. An exchange is
// used by one goroutine.
type exchange struct {
	c      *Client
	ctx    context.Context
	url    string
	header http.Header // request headers of every attempt
	// conditional makes a 304 an answer rather than an error.
	conditional bool
	// once makes a single attempt (resourcesync.Fetch.Once).
	once bool
	// read consumes an accepted response (2xx, or 304 when conditional).
	// Its error decides: a *bodyError is retried, a mismatch is re-fetched
	// once, anything else is final.
	read func(*http.Response) error
	// reset discards what a failed read delivered, before the next attempt.
	reset func() error
	// resume, for a bitstream, decides whether a failed body is continued
	// (Range) rather than fetched again; nil for a document.
	resume *resumption

	attempts  int
	lastErr   error // why the latest attempt failed, for the retry log
	settled   error // the final outcome handle reached, if it is an error
	refetched bool  // the one re-fetch after a mismatch is spent
	failure   error // built by giveUp
}

// retryError marks an error of read that the next attempt may cure.
type retryError struct{ err error }

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

// run performs the exchange. It returns nil when read accepted a response,
// else an error naming the URL and the cause.
func (x *exchange) run() error {
	u, err := url.Parse(x.url)
	if err != nil {
		return fmt.Errorf("get %q: %w: %v", x.url, ErrUnsupportedURL, err)
	}
	if err := checkURL(u); err != nil {
		return fmt.Errorf("get %q: %w", x.url, err)
	}
	req, err := retryablehttp.NewRequestWithContext(x.ctx, http.MethodGet, x.url, nil)
	if err != nil {
		return fmt.Errorf("get %q: %w: %v", x.url, ErrUnsupportedURL, err)
	}
	for k, v := range x.header {
		req.Header[k] = v
	}
	// net/http copies it onto every redirect.
	req.Header.Set("User-Agent", x.c.opts.UserAgent)
	req.SetResponseHandler(x.handle)
	o := x.c.opts
	retries := o.MaxAttempts - 1
	if x.once {
		retries = 0
	}
	rc := &retryablehttp.Client{
		HTTPClient:     x.c.http,
		Logger:         x.c.retLog,
		RetryWaitMin:   o.MinRetryWait,
		RetryWaitMax:   o.MaxRetryWait,
		RetryMax:       retries,
		RequestLogHook: x.onAttempt,
		CheckRetry:     x.checkRetry,
		Backoff:        x.backoff,
		ErrorHandler:   x.giveUp,
		PrepareRetry:   x.prepareRetry,
	}
	_, err = rc.Do(req)
	if err == nil && x.settled == nil {
		return nil
	}
	if cerr := x.ctx.Err(); cerr != nil {
		// Whatever the last attempt saw, the caller gave up first - or
		// our own bound on a document's time ran out.
		if cause := context.Cause(x.ctx); errors.Is(cause, ErrTooSlow) {
			return fmt.Errorf("get %s: %w", x.url, cause)
		}
		return fmt.Errorf("get %s: %w", x.url, cerr)
	}
	switch {
	case err != nil && x.failure != nil:
		return x.failure // built by giveUp
	case err != nil:
		return fmt.Errorf("get %s: %w", x.url, unwrapURLError(err))
	case errors.As(x.settled, new(*StatusError)):
		return x.settled
	}
	return fmt.Errorf("get %s: %w", x.url, x.settled)
}

func (x *exchange) onAttempt(_ retryablehttp.Logger, _ *http.Request, i int) {
	x.attempts = i + 1
}

// handle receives each response that checkRetry did not retry on its
// status. It returns an error only to ask for another attempt; a final
// outcome is kept in x.settled and handle returns nil, so that
// go-retryablehttp neither logs a plain 404 as a failed request nor wraps
// it in its own "giving up" error.
func (x *exchange) handle(resp *http.Response) error {
	defer resp.Body.Close()
	x.settled = nil
	if !x.accepts(resp.StatusCode) {
		drain(resp.Body)
		x.settled = &StatusError{URL: x.url, FinalURL: responseURL(resp), Status: resp.StatusCode, Attempts: x.attempts}
		return nil
	}
	err := x.read(resp)
	if err == nil {
		return nil
	}
	if cerr := x.ctx.Err(); cerr != nil {
		x.settled = cerr // the read failed because the caller gave up
		return nil
	}
	var mismatch *resourcesync.MismatchError
	switch {
	case errors.As(err, new(*bodyError)):
		if x.resume != nil && x.resume.keepOnFailure() {
			return &retryError{err: err} // the next attempt asks for the rest
		}
	case errors.As(err, new(*restartError)):
	case errors.As(err, &mismatch) && !x.refetched && !x.once:
		x.refetched = true
	default:
		x.settled = err
		return nil
	}
	if x.resume != nil {
		x.resume.restart() // what the sink held is dropped, or wrong
	}
	if rerr := x.reset(); rerr != nil {
		x.settled = &sinkError{op: "reset", err: rerr}
		return nil
	}
	return &retryError{err: err}
}

// accepts reports whether a status carries the content asked for. 206
// (and 416) answer only a request that asked for a range: read checks it.
func (x *exchange) accepts(code int) bool {
	switch code {
	case http.StatusNotModified:
		return x.conditional
	case http.StatusPartialContent, http.StatusRequestedRangeNotSatisfiable:
		return x.resume != nil && x.resume.ranged()
	}
	return code >= 200 && code < 300 && code != http.StatusPartialContent
}

// checkRetry decides whether to try again. It never returns an error:
// giveUp classifies the outcome.
func (x *exchange) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, nil
	}
	if err != nil {
		var re *retryError
		if !errors.As(err, &re) && permanent(err) {
			return false, nil
		}
		x.lastErr = err
		return true, nil
	}
	if retryableStatus(resp.StatusCode) {
		x.lastErr = nil
		return true, nil
	}
	return false, nil
}

// permanent reports whether a transport error is one a retry cannot cure.
func permanent(err error) bool {
	return errors.Is(err, ErrRedirect) || errors.Is(err, ErrUnsupportedURL) || isTLSError(err)
}

// backoff is the wait before the next attempt; it also logs the retry.
func (x *exchange) backoff(lo, hi time.Duration, i int, resp *http.Response) time.Duration {
	wait := retryWait(lo, hi, i, resp, x.c.opts.Now())
	e := x.c.opts.Logger.Info().Str("url", x.url).Int("attempt", i+1).Dur("wait", wait)
	if resp != nil {
		e = e.Int("status", resp.StatusCode)
	}
	if x.lastErr != nil {
		e = e.Err(unwrapURLError(x.lastErr))
	}
	e.Msg("retrying")
	return wait
}

// prepareRetry asks caches to revalidate once a mismatch was seen: a stale
// cache between us and the Source is a common cause of one.
// It also asks for the rest of a body whose bytes the sink kept, or for
// the whole body again.
func (x *exchange) prepareRetry(req *http.Request) error {
	if x.refetched || x.resume != nil {
		req.Header = req.Header.Clone() // the previous attempt's request shares the map
	}
	if x.refetched {
		req.Header.Set("Cache-Control", "no-cache")
	}
	if x.resume != nil {
		x.resume.setHeaders(req.Header)
	}
	return nil
}

// giveUp builds the error once attempts are spent or a permanent failure
// occurred. resp's body, if any, is still open.
func (x *exchange) giveUp(resp *http.Response, err error, tries int) (*http.Response, error) {
	if resp != nil {
		drain(resp.Body)
		resp.Body.Close()
	}
	x.attempts = tries
	x.failure = x.classify(resp, err)
	return nil, x.failure
}

// classify turns the last attempt of a failed exchange into its error.
// Cancellation is not its business: run checks the context first.
func (x *exchange) classify(resp *http.Response, err error) error {
	var re *retryError
	switch {
	case errors.As(err, &re):
		if errors.Is(re.err, resourcesync.ErrMismatch) {
			return fmt.Errorf("get %s: %w", x.url, re.err)
		}
		return x.unavailable(re.err)
	case err == nil && resp != nil:
		return &StatusError{URL: x.url, FinalURL: responseURL(resp), Status: resp.StatusCode, Attempts: x.attempts}
	case err != nil && isTLSError(err):
		return fmt.Errorf("get %s: %w: %w", x.url, ErrTLS, unwrapURLError(err))
	case err != nil && permanent(err):
		return fmt.Errorf("get %s: %w", x.url, unwrapURLError(err))
	}
	return x.unavailable(err)
}

func (x *exchange) unavailable(cause error) error {
	return fmt.Errorf("get %s: %w after %d attempts: %w", x.url, resourcesync.ErrUnavailable, x.attempts, unwrapURLError(cause))
}

// unwrapURLError drops net/http's *url.Error wrapper, whose text repeats
// the method and URL that our own messages already name.
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// responseURL is the URL that answered, after redirects.
func responseURL(resp *http.Response) string {
	if resp.Request != nil && resp.Request.URL != nil {
		return resp.Request.URL.String()
	}
	return ""
}

// drain reads a little of a body we do not want, so that a short error
// page leaves its connection reusable; a long one is cut off instead.
func drain(body io.Reader) {
	_, _ = io.CopyN(io.Discard, body, 64<<10)
}
