package main

import "runtime"

// minProcs is the fewest Ps (GOMAXPROCS) the runtime gets unless the
// environment sets GOMAXPROCS. A goroutine in a system call or a call into
// SQLite keeps its P until the runtime's monitor takes it back, which can be
// late for a call of a millisecond or two - and on a local disk mounted with
// discard an unlink, the last close of a replaced file and a syncfs each
// wait that long for the device. With Go's one P a core, a trace of 180,000
// changes applied on two cores showed the feed runnable without a P for 25 s
// of the engine's 53 while the cores stood idle or waited for the device a
// fifth of the time. Four Ps ran that apply and a first baseline a little
// quicker for about the same CPU (the README's "How it works" has the
// figures); eight cost more CPU in both. A P costs a core only while its
// goroutine runs.
const minProcs = 4

// tuneProcs raises GOMAXPROCS to minProcs unless getenv gives one: a
// GOMAXPROCS the user set is theirs, and a machine with more cores keeps
// one P a core.
func tuneProcs(getenv func(string) string) {
	if getenv("GOMAXPROCS") != "" {
		return
	}
	if runtime.GOMAXPROCS(0) < minProcs {
		runtime.GOMAXPROCS(minProcs)
	}
}
