package websub

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// request sends a subscribe or unsubscribe request for x to its hub and
// waits for the hub to verify it. The caller holds x's op.
func (s *Subscriber) request(ctx context.Context, x *Subscription, mode string) error {
	p := &pending{mode: mode, done: make(chan error, 1)}
	s.mu.Lock()
	x.pending = p
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if x.pending == p {
			x.pending = nil
		}
		s.mu.Unlock()
	}()

	// Registered before the POST: some hubs verify before they answer.
	if err := s.post(ctx, x, mode); err != nil {
		return err
	}
	t := time.NewTimer(s.opts.VerifyTimeout)
	defer t.Stop()
	select {
	case err := <-p.done:
		return err
	case <-t.C:
		return fmt.Errorf("%w (waited %s)", ErrVerifyTimeout, s.opts.VerifyTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// post sends the form of a request to the hub, retrying network errors,
// 429 and 5xx up to MaxAttempts times.
func (s *Subscriber) post(ctx context.Context, x *Subscription, mode string) error {
	form := url.Values{
		"hub.mode":     {mode},
		"hub.topic":    {x.topic},
		"hub.callback": {x.callback},
	}
	if mode == modeSubscribe {
		if s.opts.LeaseSeconds > 0 {
			form.Set("hub.lease_seconds", strconv.Itoa(s.opts.LeaseSeconds))
		}
		form.Set("hub.secret", string(x.secret))
	}
	body := form.Encode()
	for attempt := 1; ; attempt++ {
		retry, err := s.postOnce(ctx, x.hub, body)
		if err == nil {
			return nil
		}
		if !retry || attempt >= s.opts.MaxAttempts {
			if attempt > 1 {
				return fmt.Errorf("%w (after %d attempts)", err, attempt)
			}
			return err
		}
		wait := backoff(s.opts.MinRetryWait, s.opts.MaxRetryWait, attempt)
		s.log.Info().Err(err).Str("hub", x.hub).Str("topic", x.topic).Str("mode", mode).
			Int("attempt", attempt).Dur("wait", wait).Msg("hub request failed; retrying")
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (after %d attempts, the last: %v)", ctx.Err(), attempt, err)
		case <-s.opts.After(wait):
		}
	}
}

// postOnce sends one POST. retry says whether a failure is worth another
// attempt: a network error (not ctx's), 429 or 5xx.
func (s *Subscriber) postOnce(ctx context.Context, hub, body string) (retry bool, err error) {
	rctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, hub, strings.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.doer.Do(req)
	if err != nil {
		return ctx.Err() == nil, err
	}
	defer resp.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // reuse the connection
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return false, nil
	}
	herr := &HubError{Status: resp.StatusCode, Body: printable(head, 200)}
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500, herr
}

// printable is the start of b as one line of at most n runes of text.
func printable(b []byte, n int) string {
	var sb strings.Builder
	for _, r := range strings.ToValidUTF8(string(b), "\uFFFD") {
		if n == 0 {
			sb.WriteString("…")
			break
		}
		if !unicode.IsPrint(r) {
			r = ' '
		}
		sb.WriteRune(r)
		n--
	}
	return strings.Join(strings.Fields(sb.String()), " ")
}
