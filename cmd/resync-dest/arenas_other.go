//go:build !linux || !cgo

package main

// arenasCapped is false here: the arena cap (arenas.go) is glibc's.
func arenasCapped() bool { return false }
