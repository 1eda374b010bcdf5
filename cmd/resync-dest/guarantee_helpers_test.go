package main

import (
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// This file holds what the guarantee tests (guarantee_*_test.go) share.
// The checks of a mirror and its state live in fixtures/desttest, shared
// with the network-fault tests of the nettest module (Toxiproxy, against
// the built binary); these names keep the tests short.

func filesOnly(snapshot string) string { return desttest.FilesOnly(snapshot) }

func sameSnapshot(t *testing.T, what, before, after string) {
	t.Helper()
	desttest.SameSnapshot(t, what, before, after)
}

func relPath(t *testing.T, uri string) string {
	t.Helper()
	return desttest.RelPath(t, uri)
}

func assertMirrorIsSource(t *testing.T, src *fixtures.Source, dest string) {
	t.Helper()
	desttest.MirrorIsSource(t, src, dest)
}

func assertNoTempFiles(t *testing.T, dest string) {
	t.Helper()
	desttest.NoTempFiles(t, dest)
}

// stateView is what the state of a mirror says, read without writing.
type stateView struct {
	set  resourcesync.SetState
	ok   bool // the set is known
	held []resourcesync.Held
	runs []state.Run
	fail []resourcesync.Failure
}

// readState reads the state of dest read-only, after an integrity check
// (desttest.ReadState). A missing state file is an empty state.
func readState(t *testing.T, dest, capabilityList string) stateView {
	t.Helper()
	v := desttest.ReadState(t, dest, capabilityList)
	return stateView{set: v.Set, ok: v.OK, held: v.Held, runs: v.Runs, fail: v.Fail}
}

func assertHeldOnDisk(t *testing.T, dest string, held []resourcesync.Held) {
	t.Helper()
	desttest.HeldOnDisk(t, dest, held)
}

// heldURIs is the set of URIs of held records.
func heldURIs(held []resourcesync.Held) map[string]bool {
	m := make(map[string]bool, len(held))
	for _, h := range held {
		m[h.URI] = true
	}
	return m
}

// waitUntil polls cond until it holds; the deadline only keeps a broken
// test from hanging, it asserts nothing about speed.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
