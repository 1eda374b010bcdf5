package source

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// backoff is the wait before retry number attempt+1 (attempt counts from
// 0): exponential with "equal jitter". The ceiling doubles from 2*lo per
// attempt up to hi; the wait is drawn uniformly from the upper half of the
// ceiling, never below lo. Jitter spreads out many workers that failed
// together; keeping the lower half out keeps the backoff growing.
func backoff(lo, hi time.Duration, attempt int) time.Duration {
	ceiling := lo
	for i := 0; i <= attempt && ceiling < hi; i++ {
		if ceiling > hi/2 {
			ceiling = hi
			break
		}
		ceiling *= 2
	}
	ceiling = min(ceiling, hi)
	floor := max(lo, ceiling/2)
	if ceiling <= floor {
		return floor
	}
	return floor + rand.N(ceiling-floor+1)
}

// retryAfter reads a Retry-After header (delay-seconds or an HTTP-date) as
// a wait from now. ok is false when the header is absent or unreadable.
func retryAfter(value string, now time.Time) (wait time.Duration, ok bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(value, 10, 64); err == nil {
		if secs > uint64(1<<62/time.Second) { // would overflow a Duration
			return 1 << 62, true
		}
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(at.Sub(now), 0), true
}

// retryWait is the wait before the retry that follows resp (nil after a
// connection failure): the Source's Retry-After on 429 and 503, else the
// backoff; clamped into [lo, hi] either way.
func retryWait(lo, hi time.Duration, attempt int, resp *http.Response, now time.Time) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := retryAfter(resp.Header.Get("Retry-After"), now); ok {
			return min(max(d, lo), hi)
		}
	}
	return backoff(lo, hi, attempt)
}
