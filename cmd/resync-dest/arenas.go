//go:build linux && cgo

package main

/*
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

// MALLOC_ARENAS caps glibc's malloc arenas. SQLite allocates through it,
// from whichever thread runs its call, and glibc gives each new thread that
// allocates an arena of its own (up to eight per core), each keeping the
// memory freed into it. SQLite runs one writer and a few readers, so two
// arenas are seldom contended.
#define MALLOC_ARENAS 2

// arena_cap_wanted: glibc applies a user's MALLOC_ARENA_MAX or tunable
// itself, and theirs wins.
static int arena_cap_wanted(const char *arena_max, const char *tunables) {
	if (arena_max != NULL && arena_max[0] != '\0') return 0;
	if (tunables != NULL && strstr(tunables, "glibc.malloc.arena_max") != NULL) return 0;
	return 1;
}

static int arenas_capped;

// cap_arenas runs when the program is loaded, before Go's runtime starts a
// thread: glibc fixes its arena limit the first time a thread needs an
// arena, so a mallopt from main would come too late.
__attribute__((constructor)) static void cap_arenas(void) {
#ifdef M_ARENA_MAX
	if (arena_cap_wanted(getenv("MALLOC_ARENA_MAX"), getenv("GLIBC_TUNABLES"))) {
		arenas_capped = mallopt(M_ARENA_MAX, MALLOC_ARENAS);
	}
#endif
}

static int arenas_were_capped(void) { return arenas_capped; }
*/
import "C"

import "unsafe"

// arenasCapped reports whether the cap took in this process: false when
// the user set one, or where the C library has no arenas to cap.
func arenasCapped() bool { return C.arenas_were_capped() == 1 }

// arenaCapWanted is cap_arenas' rule: the cap unless MALLOC_ARENA_MAX or a
// GLIBC_TUNABLES arena_max is set.
func arenaCapWanted(arenaMax, tunables string) bool {
	m, t := C.CString(arenaMax), C.CString(tunables)
	defer C.free(unsafe.Pointer(m))
	defer C.free(unsafe.Pointer(t))
	return C.arena_cap_wanted(m, t) == 1
}
