//go:build !race

package resourcesync

const raceEnabled = false
