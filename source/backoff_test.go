package source

import (
	"net/http"
	"testing"
	"time"
)

func TestBackoffIsBoundedJitteredAndGrows(t *testing.T) {
	lo, hi := 500*time.Millisecond, 60*time.Second
	prevFloor := time.Duration(0)
	for attempt := range 40 {
		ceiling := hi
		if attempt < 20 {
			ceiling = min(hi, lo<<(attempt+1))
		}
		floor := max(lo, ceiling/2)
		seen := map[time.Duration]bool{}
		for range 200 {
			d := backoff(lo, hi, attempt)
			if d < floor || d > ceiling {
				t.Fatalf("attempt %d: wait %s outside [%s, %s]", attempt, d, floor, ceiling)
			}
			seen[d] = true
		}
		if len(seen) < 100 {
			t.Errorf("attempt %d: only %d distinct waits in 200: not jittered", attempt, len(seen))
		}
		if floor < prevFloor {
			t.Errorf("attempt %d: floor %s fell below %s", attempt, floor, prevFloor)
		}
		prevFloor = floor
	}
	if d := backoff(lo, hi, 0); d > time.Second {
		t.Errorf("first wait %s, want at most 1s", d)
	}
}

func TestBackoffEdges(t *testing.T) {
	if d := backoff(0, 0, 3); d != 0 {
		t.Errorf("zero range: %s", d)
	}
	if d := backoff(time.Second, time.Second, 5); d != time.Second {
		t.Errorf("lo == hi: %s", d)
	}
	if d := backoff(0, time.Second, 2); d != 0 {
		t.Errorf("lo = 0 waits %s; doubling zero stays zero", d)
	}
	huge := time.Duration(1<<62) / 2
	if d := backoff(huge, 1<<62, 100); d < huge || d > 1<<62 {
		t.Errorf("near overflow: %s", d)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"120", 120 * time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"0", 0, true},
		{"86400", 24 * time.Hour, true},
		{"99999999999999999999", 0, false}, // does not fit: unreadable
		{"9999999999999", 1 << 62, true},   // fits, but not in a Duration
		{"-1", 0, false},
		{"1.5", 0, false},
		{"", 0, false},
		{"soon", 0, false},
		{"Fri, 01 Mar 2024 12:01:00 GMT", time.Minute, true},
		{"Friday, 01-Mar-24 12:00:30 GMT", 30 * time.Second, true},
		{"Fri Mar  1 12:00:10 2024", 10 * time.Second, true},
		{"Fri, 01 Mar 2024 11:00:00 GMT", 0, true}, // in the past: now
	}
	for _, tt := range tests {
		got, ok := retryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRetryWaitHonoursAndClampsRetryAfter(t *testing.T) {
	lo, hi := 10*time.Millisecond, time.Second
	now := time.Now()
	resp := func(code int, ra string) *http.Response {
		r := &http.Response{StatusCode: code, Header: http.Header{}}
		if ra != "" {
			r.Header.Set("Retry-After", ra)
		}
		return r
	}
	tests := []struct {
		name   string
		resp   *http.Response
		lo, hi time.Duration // bounds of the wait
	}{
		{"429 now, clamped up to lo", resp(429, "0"), lo, lo},
		{"503 a day clamped", resp(503, "86400"), hi, hi},
		{"429 in range", resp(429, "1"), time.Second, time.Second},
		{"500 ignores Retry-After", resp(500, "86400"), lo, 2 * lo},
		{"429 unreadable falls back", resp(429, "later"), lo, 2 * lo},
		{"connection error", nil, lo, 2 * lo},
	}
	for _, tt := range tests {
		if d := retryWait(lo, hi, 0, tt.resp, now); d < tt.lo || d > tt.hi {
			t.Errorf("%s: wait %s, want within [%s, %s]", tt.name, d, tt.lo, tt.hi)
		}
	}
}
