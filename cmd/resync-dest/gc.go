package main

import "runtime/debug"

// gcPercent is the garbage collector's target, as GOGC, unless the
// environment sets GOGC. Every download allocates its request, response
// and digests while little stays live, so at Go's default, 100, the
// collector ran often; at 200 it runs half as often. A first baseline of
// 50,000 resources used 7% less CPU (bench-baseline, the one binary at
// both settings alternated, 6 rounds on tmpfs) at the same peak RSS; on
// disk the difference was inside the noise. Applying 180,000 changes
// peaked 4-7 MiB higher (91-92 MiB on disk, 74 on tmpfs), 1,000,000 at
// 69 MiB. At 400 the baseline's peak RSS rose from 51 to 66 MiB for
// little more.
const gcPercent = 200

// tuneGC sets GOGC to gcPercent unless getenv gives one: a GOGC the user
// set (the runtime has already applied it, "off" included) is theirs.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(gcPercent)
}
