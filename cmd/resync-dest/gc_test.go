package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	for _, tc := range []struct {
		name, gogc string
		want       int
	}{
		{"unset: ours", "", gcPercent},
		{"the user's", "50", 100},
		{"the user's off", "off", 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100) // stands for what the runtime took from GOGC
			tuneGC(envWith("GOGC", tc.gogc))
			if got := debug.SetGCPercent(100); got != tc.want {
				t.Errorf("GOGC %q: the collector's percent is %d, want %d", tc.gogc, got, tc.want)
			}
		})
	}
}

// envWith is a getenv for an environment that holds name=value and nothing
// else ("" for a variable that is not set).
func envWith(name, value string) func(string) string {
	return func(k string) string {
		if k == name {
			return value
		}
		return ""
	}
}
