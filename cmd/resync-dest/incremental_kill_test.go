package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// incRecorded counts the changes of src's history the state of dest
// records as applied (or passed by its cursor), and the resources still
// owed: those whose last change is not a deletion and is not done.
func incRecorded(t *testing.T, src *fixtures.Source, dest string) (recorded, owed int) {
	t.Helper()
	db := incState(t, dest)
	defer db.Close()
	set, _, err := db.Set(context.Background(), src.CapabilityListURL(0))
	if err != nil {
		t.Fatal(err)
	}
	return changesRecorded(t, src, set.Cursor, func(c fixtures.ChangeInfo) (bool, bool, error) {
		return db.ChangeStatus(context.Background(), set.ID, c.URI, c.Change, c.At)
	})
}

// changesRecorded is incRecorded of a state (SQLite or PostgreSQL) given
// by the set's cursor and how it records a change.
func changesRecorded(t *testing.T, src *fixtures.Source, cursor time.Time, status func(fixtures.ChangeInfo) (recorded, failed bool, err error)) (recorded, owed int) {
	t.Helper()
	done := func(c fixtures.ChangeInfo) bool {
		if c.At.Before(cursor) {
			return true // every change before the cursor is done (its record pruned)
		}
		rec, failed, err := status(c)
		if err != nil {
			t.Fatal(err)
		}
		return rec && !failed
	}
	last := map[string]fixtures.ChangeInfo{}
	for _, c := range src.Changes(0) {
		last[c.URI] = c
		if done(c) {
			recorded++
		}
	}
	for _, c := range last {
		if c.Change != resourcesync.ChangeDeleted && !done(c) {
			owed++
		}
	}
	return recorded, owed
}

func incState(t *testing.T, dest string) *state.DB {
	t.Helper()
	o := state.DefaultOptions()
	o.Path, o.ReadOnly = filepath.Join(dest, ".resync-dest", "state.db"), true
	db, err := state.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// incAssertHeldOnDisk checks, after a kill, that the state is intact and
// claims no file the disk lacks: every resource it holds is on disk with
// the bytes its record describes - or with the Source's current bytes,
// published by a batch the kill kept from being recorded.
func incAssertHeldOnDisk(t *testing.T, src *fixtures.Source, dest string) {
	t.Helper()
	db := incState(t, dest)
	defer db.Close()
	if err := db.IntegrityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
	set, _, err := db.Set(context.Background(), src.CapabilityListURL(0))
	if err != nil {
		t.Fatal(err)
	}
	err = db.EachHeld(context.Background(), set.ID, func(h resourcesync.Held) error {
		b, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(h.Path)))
		if err != nil {
			t.Errorf("the state holds %s but the disk does not: %v", h.URI, err)
			return nil
		}
		v := resourcesync.NewVerifier(h.Fixity, h.Length, true)
		v.Write(b)
		if now, _ := src.Content(h.URI); v.Verify() != nil && !bytes.Equal(b, now) {
			t.Errorf("the state holds %s, but the disk has other bytes", h.URI)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestKill9MidIncrementalThenResume kills incremental runs with SIGKILL -
// at a writer failpoint (after a batch was published but not recorded,
// after a batch was recorded) and from outside at a moment chosen by how
// many changes are recorded - and resumes each time. Every resume fetches
// exactly the resources whose changes were not recorded (nothing recorded
// is applied again), and the end result is the mirror an uninterrupted run
// makes.
func TestKill9MidIncrementalThenResume(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 300; s.ChangeListMax = 200 })
	killed, whole := filepath.Join(t.TempDir(), "killed"), filepath.Join(t.TempDir(), "whole")
	for _, d := range []string{killed, whole} {
		runCLI(t, args([]string{"baseline", "--dest", d}, srv.URL)...).want(t, 0)
	}
	if err := src.AdvanceRandom(2000, time.Second); err != nil {
		t.Fatal(err)
	}
	total := len(src.Changes(0))
	flags := []string{"--delete", "--max-delete", "100%", "--workers", "4", "--progress", "never", "--max-retry-wait", "5ms"}

	src.ResetCounts()
	runCLI(t, append([]string{"incremental", "--dest", whole}, append(flags, srv.URL)...)...).want(t, 0)
	wholeBodies := src.ResourceBodies()

	src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 20 * time.Millisecond})
	// Killed at the writer's two failpoints, then from outside after
	// every k-th change recorded (k = an eighth of the history) until a
	// run gets to the end before its kill.
	steps := []string{"after-publish:1", "after-commit:1"}
	k := total / 8
	var bodies, outside int
	for i := 0; ; i++ {
		failpoint := ""
		if i < len(steps) {
			failpoint = steps[i]
		}
		before, owedBefore := incRecorded(t, src, killed)
		src.ResetCounts()
		var env []string
		if failpoint != "" {
			env = []string{failpointEnv + "=" + failpoint}
		}
		p := startProc(t, env, append([]string{"incremental", "--dest", killed}, append(flags, srv.URL)...)...)
		if failpoint == "" {
			// Killed once k more changes are recorded, unless it ends first.
			for deadline := time.Now().Add(2 * time.Minute); !p.exited(); time.Sleep(5 * time.Millisecond) {
				if n, _ := incRecorded(t, src, killed); n >= before+k || time.Now().After(deadline) {
					p.cmd.Process.Kill()
					break
				}
			}
		}
		code, sig := p.wait()
		settle(t, srv)
		if sig != syscall.SIGKILL {
			if failpoint == "" && code == 0 {
				bodies += src.ResourceBodies()
				break // this run reached the end before its kill
			}
			t.Fatalf("step %d: the run was not killed (exit %d)\n%s", i, code, p.stderr.String())
		}
		if failpoint == "" {
			outside++
		}
		incAssertHeldOnDisk(t, src, killed)
		after, owed := incRecorded(t, src, killed)
		t.Logf("step %d (%s): %d changes recorded before, %d after; %d resources owed before, %d after; %d bodies fetched",
			i, failpoint, before, after, owedBefore, owed, src.ResourceBodies())
		if after <= before && failpoint != "after-publish:1" {
			t.Errorf("step %d: nothing recorded before the kill", i)
		}
		// Whatever a run fetched was owed: nothing recorded is applied
		// again (what it fetched and did not record is owed still).
		if got := src.ResourceBodies(); got > owedBefore {
			t.Errorf("step %d: fetched %d bodies, but only %d resources were owed", i, got, owedBefore)
		}
		bodies += src.ResourceBodies()
		if i > 20 {
			t.Fatalf("more than 20 kills and the history is not applied")
		}
	}
	// A commit records several hundred changes, so only two or three
	// outside kills fit in the history; a slow poll may miss one of them.
	if outside < 1 {
		t.Errorf("no kill from outside landed before a run finished")
	}

	_, owed := incRecorded(t, src, killed)
	src.ClearFaults()
	src.ResetCounts()
	runCLI(t, append([]string{"incremental", "--dest", killed}, append(flags, srv.URL)...)...).want(t, 0)
	if got := src.ResourceBodies(); got != owed {
		t.Errorf("the resume fetched %d bodies, want the %d resources whose changes were not recorded", got, owed)
	}
	bodies += src.ResourceBodies()
	t.Logf("interrupted runs fetched %d bodies in all, an uninterrupted run %d", bodies, wholeBodies)

	a, b := fixtures.MirrorFiles(t, killed), fixtures.MirrorFiles(t, whole)
	if len(a) != len(b) {
		t.Errorf("the resumed mirror has %d files, the uninterrupted one %d", len(a), len(b))
	}
	for rel, want := range b {
		if !bytes.Equal(a[rel], want) {
			t.Errorf("%s differs from the uninterrupted run", rel)
		}
	}
	incAssertIsSource(t, src, killed)
	incAssertHeldOnDisk(t, src, killed)
}
