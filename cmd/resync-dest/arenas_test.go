//go:build linux && cgo

package main

import (
	"os"
	"testing"
)

func TestArenaCapWanted(t *testing.T) {
	for _, tc := range []struct {
		name, arenaMax, tunables string
		want                     bool
	}{
		{"unset: ours", "", "", true},
		{"the user's MALLOC_ARENA_MAX", "8", "", false},
		{"the user's tunable", "", "glibc.malloc.trim_threshold=0:glibc.malloc.arena_max=4", false},
		{"other tunables: ours", "", "glibc.malloc.trim_threshold=0", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := arenaCapWanted(tc.arenaMax, tc.tunables); got != tc.want {
				t.Errorf("arenaCapWanted(%q, %q) = %v, want %v", tc.arenaMax, tc.tunables, got, tc.want)
			}
		})
	}
}

// TestArenasCapped: the cap took when this test binary was loaded - on
// glibc (Debian, the build machines and the release images), unless the
// environment set one.
func TestArenasCapped(t *testing.T) {
	if !arenaCapWanted(os.Getenv("MALLOC_ARENA_MAX"), os.Getenv("GLIBC_TUNABLES")) {
		t.Skip("the environment sets the arenas")
	}
	if !arenasCapped() {
		t.Error("the malloc arenas were not capped when the program was loaded")
	}
}
