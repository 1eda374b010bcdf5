//go:build race

package nettest

// raceEnabled: the tests run under the race detector, and so does the
// binary they build.
const raceEnabled = true
