//go:build race

package resourcesync

// raceEnabled: the race detector slows the Reader about tenfold, so the
// longest tests read fewer entries under it.
const raceEnabled = true
