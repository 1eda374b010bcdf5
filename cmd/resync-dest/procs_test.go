package main

import (
	"runtime"
	"testing"
)

func TestTuneProcs(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	for _, tc := range []struct {
		name, env   string
		start, want int
	}{
		{"unset, fewer cores: ours", "", 2, minProcs},
		{"unset, one core: ours", "", 1, minProcs},
		{"unset, more cores: one a core", "", minProcs + 4, minProcs + 4},
		{"the user's", "3", 3, 3},
		{"the user's one", "1", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GOMAXPROCS(tc.start) // stands for what the runtime took from the machine or GOMAXPROCS
			tuneProcs(envWith("GOMAXPROCS", tc.env))
			if got := runtime.GOMAXPROCS(0); got != tc.want {
				t.Errorf("GOMAXPROCS %q from %d: %d Ps, want %d", tc.env, tc.start, got, tc.want)
			}
		})
	}
}
