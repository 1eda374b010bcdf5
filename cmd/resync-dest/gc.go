package main

import "runtime/debug"

// gcPercent is the garbage collector's target, as GOGC, unless the
// environment sets GOGC. Every download allocates its request, response
// and digests while little stays live, so at Go's default, 100, the
// collector runs often; 200 halves that at a few MiB of peak RSS (the
// README's "How it works" has the figures; 400 cost far more memory for
// little more).
const gcPercent = 200

// tuneGC sets GOGC to gcPercent unless getenv gives one: a GOGC the user
// set (the runtime has already applied it, "off" included) is theirs.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(gcPercent)
}
