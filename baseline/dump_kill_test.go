package baseline_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
	"github.com/resync-dest/resync-dest/state"
)

// childEnv makes the test binary a baseline process that kills itself
// (SIGKILL, as kill -9) right after its first batch is recorded.
const childEnv = "RESYNC_DEST_BASELINE_DUMP_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := dumpChild(); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "child: the baseline finished before it was killed")
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// killingStore is the real state, and a kill -9 of the whole process once
// a batch of copies is recorded.
type killingStore struct {
	*state.DB
	commits atomic.Int64
	after   int64
}

func (s *killingStore) Commit(ctx context.Context, setID int64, b *resourcesync.Batch) error {
	err := s.DB.Commit(ctx, setID, b)
	if err == nil && len(b.Held) > 0 && s.commits.Add(1) == s.after {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // SIGKILL cannot be caught; wait for it to land
	}
	return err
}

// dumpChild runs a baseline from the Resource Dump the environment names.
func dumpChild() error {
	env := func(k string) string { return os.Getenv("CHILD_" + k) }
	ctx := context.Background()
	m, err := mirror.Open(env("DEST"), mirror.DefaultOptions())
	if err != nil {
		return err
	}
	if _, err := m.Lock(); err != nil {
		return err
	}
	so := state.DefaultOptions()
	so.Path = filepath.Join(env("DEST"), ".resync-dest", "state.db")
	db, err := state.Open(ctx, so)
	if err != nil {
		return err
	}
	set, err := db.EnsureSet(ctx, env("CAPLIST"), env("SOURCE"))
	if err != nil {
		return err
	}
	client, err := source.New(source.DefaultOptions())
	if err != nil {
		return err
	}
	after, _ := strconv.ParseInt(env("KILL_AFTER"), 10, 64)
	d := baseline.Deps{Open: desttest.Opener(client), Fetcher: client, Mirror: m, Store: &killingStore{DB: db, after: after}, TempDir: env("TMP"), Log: zerolog.Nop(),
		NewListing: func() (baseline.Listing, error) { return state.NewListing(env("TMP")) }}
	o := baseline.DefaultOptions()
	o.Workers, o.BatchSize = 2, 25
	o.Scope = resourcesync.NewScope([]string{env("SOURCE")}, nil)
	_, err = baseline.Run(ctx, baseline.Set{ID: set.ID, CapabilityList: env("CAPLIST"), ResourceDump: env("DUMP")}, d, o)
	return err
}

func TestDumpKill9InsidePackageThenResume(t *testing.T) {
	const n = 400
	h := newDumpHarness(t, func(s *fixtures.Spec) { s.Resources, s.DumpPackages = n, 2 })
	h.Close() // the child takes the mirror's lock
	childTmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", "CHILD_DEST="+h.Dest, "CHILD_CAPLIST="+h.Src.CapabilityListURL(0),
		"CHILD_SOURCE="+h.Src.SourceDescriptionURL(), "CHILD_DUMP="+h.Src.ResourceDumpURL(0), "CHILD_TMP="+childTmp, "CHILD_KILL_AFTER=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v\n%s", err, stderr.String())
	}

	h.open(false)
	ctx := context.Background()
	fetched := map[string]string{}
	err = h.DB.EachHeld(ctx, h.set.ID, func(hd resourcesync.Held) error {
		fetched[hd.URI] = hd.Fetched.String()
		// The state never claims a file the disk does not hold.
		got, err := os.ReadFile(filepath.Join(h.Dest, filepath.FromSlash(hd.Path)))
		want, _ := h.Src.Content(hd.URI)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("state holds %s but the disk does not: %v", hd.URI, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(fetched) == 0 || len(fetched) >= n/2 {
		t.Fatalf("%d held after the kill; want some of the first package's %d", len(fetched), n/2)
	}

	h.Src.ResetCounts()
	tmp := t.TempDir()
	sum := h.mustRunDump("", tmp, nil)
	if sum.Created != int64(n-len(fetched)) || sum.Unchanged != int64(len(fetched)) || sum.Packages != 2 {
		t.Fatalf("resume after %d recorded: %+v, %d packages", len(fetched), sum.Counts, sum.Packages)
	}
	if got := h.Src.ResourceBodies(); got != 0 {
		t.Errorf("resume fetched %d resources one by one", got)
	}
	// Nothing recorded was done again: the records are the child's.
	err = h.DB.EachHeld(ctx, h.set.ID, func(hd resourcesync.Held) error {
		if was, ok := fetched[hd.URI]; ok && was != hd.Fetched.String() {
			t.Errorf("%s was redone (fetched %s, then %s)", hd.URI, was, hd.Fetched)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h.AssertIdentical()
	assertEmptyDir(t, tmp)

	if sum := h.mustRunDump("", tmp, nil); sum.PackagesSkipped != 2 || sum.Unchanged != n {
		t.Errorf("third run: %+v, %d skipped", sum.Counts, sum.PackagesSkipped)
	}
}
