package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Item 3: kill -9 at any moment. Each kind of run (a baseline from the
// Resource List, a baseline from the Resource Dump, an incremental run
// from the Change List and one from the Change Dump) is killed at seeded
// random moments; after each kill the state is intact and claims nothing
// the disk lacks, and the resumed run ends with a mirror identical to the
// Source, no temp files, and without redoing what was recorded.

// killIterations is how many kills each kind of run gets (CI runs the full
// count; -short does fewer).
const killIterations = 20

// killSeedEnv overrides the seed of the kill moments, to replay a failure
// (the seed is logged). Not RESYNC_DEST_...: the killed runs inherit the
// environment, and the binary refuses a variable of its prefix it does not read.
const killSeedEnv = "RESYNCTEST_KILL_SEED"

// killCase is one iteration: a fresh Source and an empty mirror.
type killCase struct {
	src  *fixtures.Source
	srv  *fixtures.Server
	dest string
}

// killRun is one kind of run the loop kills.
type killRun struct {
	name string
	// spec shapes the Source: big enough that a run commits several
	// batches, small enough for 20 iterations.
	spec func(*fixtures.Spec)
	// prepare readies the mirror and the Source before the run to kill
	// (nothing for a baseline; for an incremental run: a baseline, then
	// changes at the Source).
	prepare func(t *testing.T, k *killCase)
	// args is the command line of the run, killed and then resumed.
	args func(k *killCase) []string
	// owed is how many resources the resumed run must fetch (or extract)
	// given what the state recorded when the run was killed: what was
	// recorded is not done again, everything else is.
	owed func(t *testing.T, k *killCase, after stateView) int
	// slowPath and slowFault stretch the run so that kills land in its
	// middle; without them each resource is served slowly.
	slowPath  string
	slowFault fixtures.Fault
	// redone is how many resources the resumed run fetched or extracted;
	// nil means the resource bodies the Source served.
	redone func(t *testing.T, k *killCase, r result) int
	// updates: the run replaces files the state holds, so a file may be
	// newer than its record - published by a batch the kill kept from
	// being recorded - but never other bytes than one of the two.
	updates bool
}

// killRuns are the runs the loop kills.
func killRuns() []killRun {
	return []killRun{baselineKillRun(), dumpKillRun(), incrementalKillRun(), changeDumpKillRun()}
}

// written is what a run wrote into the mirror, from its --json summary:
// the resources created and updated (a dump's come out of its packages, so
// the Source's counts cannot tell). Not one was fetched one by one.
func written(t *testing.T, k *killCase, r result) int {
	t.Helper()
	if n := k.src.ResourceBodies(); n != 0 {
		t.Errorf("the resume fetched %d resources one by one; the packages hold them", n)
	}
	s := incJSON(t, r)
	return s.Counts["created"] + s.Counts["updated"]
}

// slowDown installs the fault that stretches kr's run.
func (kr killRun) slowDown(k *killCase) {
	if kr.slowPath != "" {
		k.src.SetFault(kr.slowPath, kr.slowFault)
		return
	}
	k.src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: slow})
}

// redoneBy is how many resources the resume r fetched or extracted.
func (kr killRun) redoneBy(t *testing.T, k *killCase, r result) int {
	if kr.redone != nil {
		return kr.redone(t, k, r)
	}
	return k.src.ResourceBodies()
}

// resourcesNotHeld is what a baseline owes: every resource the state does
// not hold.
func resourcesNotHeld(t *testing.T, k *killCase, after stateView) int {
	held := heldURIs(after.held)
	n := 0
	for _, r := range k.src.Resources(0) {
		if !held[r.URI] {
			n++
		}
	}
	return n
}

// changesOwed is what an incremental run owes: the resources whose last
// change is not a deletion and is not recorded as applied.
func changesOwed(t *testing.T, k *killCase, _ stateView) int {
	_, owed := incRecorded(t, k.src, k.dest)
	return owed
}

// baselineThenChanges prepares an incremental run: a baseline, then n
// changes.
func baselineThenChanges(n int) func(t *testing.T, k *killCase) {
	return func(t *testing.T, k *killCase) {
		runCLI(t, "baseline", "--dest", k.dest, "--via", "list", "--progress", "never", k.srv.URL).want(t, 0)
		if err := k.src.AdvanceRandom(n, time.Second); err != nil {
			t.Fatal(err)
		}
	}
}

// dumpKillRun is a baseline of an empty mirror from a Resource Dump of
// several packages, downloaded slowly so that kills land between them and
// while their entries are written.
func dumpKillRun() killRun {
	return killRun{
		name: "baseline from the Resource Dump",
		spec: func(s *fixtures.Spec) { s.Resources, s.DumpPackages = 1200, 6 },
		args: func(k *killCase) []string {
			return []string{"baseline", "--json", "--via", "dump", "--dest", k.dest, "--workers", "4", "--progress", "never", "--max-retry-wait", "5ms", k.srv.URL}
		},
		owed:      resourcesNotHeld,
		redone:    written,
		slowPath:  "/dataset1/resourcedump-*",
		slowFault: fixtures.Fault{Trickle: time.Millisecond, TrickleBytes: 32 << 10},
	}
}

// incrementalKillRun applies a Change List history to a mirror.
func incrementalKillRun() killRun {
	return killRun{
		name:    "incremental from the Change List",
		spec:    func(s *fixtures.Spec) { s.Resources, s.ChangeListMax = 300, 200 },
		prepare: baselineThenChanges(900),
		args: func(k *killCase) []string {
			return []string{"incremental", "--delete", "--max-delete", "100%", "--dest", k.dest, "--workers", "4", "--progress", "never", "--max-retry-wait", "5ms", k.srv.URL}
		},
		owed:    changesOwed,
		updates: true,
		// Fetches slow enough that the writer commits the resources'
		// final changes in more than one batch, even on a loaded machine
		// where a commit is slow and the fetched changes pile up behind it.
		slowPath:  "/dataset1/res/*",
		slowFault: fixtures.Fault{Delay: 8 * time.Millisecond},
	}
}

// changeDumpKillRun applies a Change Dump history: packages downloaded
// slowly, as the workers come to need them. About one change per resource
// spreads the resources' final changes over the packages, so that the run
// records its work package by package.
func changeDumpKillRun() killRun {
	return killRun{
		name:    "incremental from the Change Dump",
		spec:    func(s *fixtures.Spec) { s.Resources, s.ChangeListMax, s.ChangeDump = 800, 100, true },
		prepare: baselineThenChanges(800),
		args: func(k *killCase) []string {
			return []string{"incremental", "--json", "--via", "dump", "--delete", "--max-delete", "100%", "--dest", k.dest, "--workers", "4", "--progress", "never", "--max-retry-wait", "5ms", k.srv.URL}
		},
		owed:      changesOwed,
		updates:   true,
		redone:    written,
		slowPath:  "/dataset1/changedump-*",
		slowFault: fixtures.Fault{Trickle: time.Millisecond, TrickleBytes: 1 << 10},
	}
}

// baselineKillRun is a baseline of an empty mirror.
func baselineKillRun() killRun {
	return killRun{
		name: "baseline from the Resource List",
		spec: func(s *fixtures.Spec) { s.Resources = 600 },
		args: func(k *killCase) []string {
			return []string{"baseline", "--dest", k.dest, "--workers", "4", "--progress", "never", "--max-retry-wait", "5ms", k.srv.URL}
		},
		owed: resourcesNotHeld,
	}
}

func TestGuaranteeKill9AnywhereThenResume(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(killSeedEnv); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", killSeedEnv, s, err)
		}
	}
	t.Logf("kill moments seeded with %s=%d", killSeedEnv, seed)
	iterations := killIterations
	if testing.Short() {
		iterations = 5
	}
	// The kinds run side by side (each calibrates its own kill moments, on
	// the machine as loaded as it then is): they are most of this
	// package's time.
	for _, kr := range killRuns() {
		t.Run(kr.name, func(t *testing.T) {
			t.Parallel()
			killLoop(t, kr, iterations, rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)))
		})
	}
}

// slow is the delay the fixture adds to each resource, so that a run
// lasts long enough to be killed in the middle of its batches.
const slow = 2 * time.Millisecond

func newKillCase(t *testing.T, kr killRun) *killCase {
	t.Helper()
	src, srv := served(t, kr.spec)
	k := &killCase{src: src, srv: srv, dest: filepath.Join(t.TempDir(), "mirror")}
	if kr.prepare != nil {
		kr.prepare(t, k)
	}
	return k
}

// killLoop kills kr's run at random moments within (a little more than)
// the time one uninterrupted run takes, then checks and resumes.
func killLoop(t *testing.T, kr killRun, iterations int, rng *rand.Rand) {
	// Calibrate: how long does an uninterrupted run take? The quicker of
	// two, since the first run of a process is often the slower.
	var span time.Duration
	for range 2 {
		k := newKillCase(t, kr)
		kr.slowDown(k)
		start := time.Now()
		startProc(t, nil, kr.args(k)...).wantExit(t, 0)
		if d := time.Since(start); span == 0 || d < span {
			span = d
		}
	}
	t.Logf("an uninterrupted %s takes %s", kr.name, span)

	partial := 0
	for i := range iterations {
		k := newKillCase(t, kr)
		// Stratified: each iteration kills at a random moment of its own
		// slice of the span, so that every stretch of the run is hit.
		moment := time.Duration((float64(i) + rng.Float64()) / float64(iterations) * 1.2 * float64(span))
		full := kr.owed(t, k, readState(t, k.dest, k.src.CapabilityListURL(0)))
		kr.slowDown(k)
		k.src.ResetCounts()
		start := time.Now()
		p := startProc(t, nil, kr.args(k)...)
		time.Sleep(moment)
		p.cmd.Process.Kill()
		code, sig := p.wait()
		settle(t, k.srv)
		if sig != syscall.SIGKILL && code != 0 {
			t.Fatalf("iteration %d: the run failed before the kill: exit %d\n%s", i, code, p.stderr.String())
		}
		if sig != syscall.SIGKILL {
			// Quicker than calibrated: aim the later kills within runs as
			// quick as this one.
			span = min(span, time.Since(start))
		}

		after := readState(t, k.dest, k.src.CapabilityListURL(0))
		if kr.updates {
			incAssertHeldOnDisk(t, k.src, k.dest)
		} else {
			assertHeldOnDisk(t, k.dest, after.held)
		}
		owed := kr.owed(t, k, after)
		if owed > 0 && owed < full {
			partial++
		}
		how := "killed"
		if sig != syscall.SIGKILL {
			how = "finished before the kill"
		}
		t.Logf("iteration %d: %s after %s; %d held, %d owed", i, how, moment.Round(time.Millisecond), len(after.held), owed)

		k.src.ClearFaults()
		k.src.ResetCounts()
		r := runCLI(t, kr.args(k)...).want(t, 0)
		if got := kr.redoneBy(t, k, r); got != owed {
			t.Errorf("iteration %d: the resume fetched %d resources, want the %d not recorded", i, got, owed)
		}
		assertMirrorIsSource(t, k.src, k.dest)
		assertNoTempFiles(t, k.dest)
		readState(t, k.dest, k.src.CapabilityListURL(0)) // integrity after the resume too
		if t.Failed() {
			t.Fatalf("iteration %d failed; replay with %s", i, killSeedEnv)
		}
	}
	if partial == 0 {
		t.Errorf("no kill of %d landed while the run was half done; the test proved little", iterations)
	}
}

// Item 3, failpoints: the process is killed exactly after a batch of files
// was published (renamed into place and made durable: the renames are
// followed by a syncfs, which also covers the directories) but before it
// was recorded, and exactly after the batch was recorded. Either way the
// state claims no more than the disk holds, and the resume fetches what
// was not recorded - for "after-publish" that includes the published,
// unrecorded batch, whose files are complete and correct meanwhile.
func TestGuaranteeFailpoints(t *testing.T) {
	for _, fp := range []string{"after-publish:1", "after-publish:2", "after-commit:1", "after-commit:2"} {
		t.Run(fp, func(t *testing.T) {
			kr := baselineKillRun()
			k := newKillCase(t, kr)
			k.src.ResetCounts()
			p := startProc(t, []string{failpointEnv + "=" + fp}, kr.args(k)...)
			if code, sig := p.wait(); sig != syscall.SIGKILL {
				t.Fatalf("the run was not killed at %s: exit %d\n%s", fp, code, p.stderr.String())
			}
			settle(t, k.srv)
			after := readState(t, k.dest, k.src.CapabilityListURL(0))
			assertHeldOnDisk(t, k.dest, after.held)
			if len(after.held) == 0 && fp != "after-publish:1" {
				t.Errorf("nothing recorded before %s", fp)
			}
			// Published but not recorded: complete files the state does not
			// claim (at after-commit, none).
			held := heldURIs(after.held)
			files := fixtures.MirrorFiles(t, k.dest)
			unrecorded := 0
			for _, r := range k.src.Resources(0) {
				b, ok := files[relPath(t, r.URI)]
				if !ok || held[r.URI] {
					continue
				}
				want, _ := k.src.Content(r.URI)
				if !bytes.Equal(b, want) {
					t.Errorf("%s is on disk with wrong bytes", r.URI)
				}
				unrecorded++
			}
			switch {
			case strings.HasPrefix(fp, "after-publish") && unrecorded == 0:
				t.Errorf("killed after a publish but no published file is unrecorded")
			case strings.HasPrefix(fp, "after-commit") && unrecorded != 0:
				t.Errorf("killed after a commit but %d published files are unrecorded", unrecorded)
			}
			owed := kr.owed(t, k, after)
			k.src.ResetCounts()
			runCLI(t, kr.args(k)...).want(t, 0)
			if got := k.src.ResourceBodies(); got != owed {
				t.Errorf("the resume fetched %d bodies, want the %d not recorded", got, owed)
			}
			assertMirrorIsSource(t, k.src, k.dest)
			assertNoTempFiles(t, k.dest)
		})
	}
}

// The failpoint seam is inert unless set, and refuses a malformed value
// rather than running without its crash.
func TestFailpointFromEnv(t *testing.T) {
	if fp, err := failpointFromEnv(""); fp != nil || err != nil {
		t.Errorf("unset: %v %v", fp != nil, err)
	}
	for _, bad := range []string{"after-publish", "after-publish:0", "after-publish:x", "before-commit:1", ":1"} {
		if _, err := failpointFromEnv(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	fp, err := failpointFromEnv("after-commit:3")
	if err != nil || fp == nil {
		t.Fatalf("%v", err)
	}
	fp("after-publish") // another point, and hits 1 and 2 of this one: no kill
	fp("after-commit")
	fp("after-commit")
	p := startProc(t, []string{failpointEnv + "=after-commit"}, "discover", "http://127.0.0.1:1/")
	p.wantExit(t, exitUsage)
}
