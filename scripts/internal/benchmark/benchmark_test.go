package benchmark

import (
	"testing"
	"time"
)

func TestRoundRatios(t *testing.T) {
	s := time.Second
	tests := []struct {
		a, b []time.Duration
		want string
	}{
		{[]time.Duration{9 * s, 12 * s, 10 * s}, []time.Duration{10 * s, 10 * s, 10 * s}, "0.90 1.20 1.00 (median 1.00)"},
		{[]time.Duration{7 * s, 8 * s}, []time.Duration{10 * s, 10 * s}, "0.70 0.80 (median 0.80)"},
		{[]time.Duration{5 * s, 6 * s}, []time.Duration{10 * s}, "0.50 (median 0.50)"}, // a round cut short
		{nil, nil, "none"},
	}
	for _, tt := range tests {
		if got := RoundRatios(tt.a, tt.b); got != tt.want {
			t.Errorf("RoundRatios(%v, %v) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

// A run after a deletion starts no sooner than Wait after it (a lower
// bound only: the machine may always be slower).
func TestQuietWaitsAfterADeletion(t *testing.T) {
	q := Quiet{Wait: 2 * time.Second} // well past Settle's own pause
	q.Deleted()
	start := time.Now()
	q.Before()
	if d := time.Since(start); d < q.Wait-50*time.Millisecond {
		t.Errorf("Before returned %s after the deletion, want at least %s", d, q.Wait)
	}
}
