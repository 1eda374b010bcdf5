package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// heldNow reads, read-only, what the state of dest records for a set.
func heldNow(t *testing.T, dest, capabilityList string) ([]resourcesync.Held, error) {
	t.Helper()
	o := state.DefaultOptions()
	o.Path, o.ReadOnly = filepath.Join(dest, ".resync-dest", "state.db"), true
	db, err := state.Open(context.Background(), o)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	set, ok, err := db.Set(context.Background(), capabilityList)
	if err != nil || !ok {
		return nil, err
	}
	var out []resourcesync.Held
	err = db.EachHeld(context.Background(), set.ID, func(h resourcesync.Held) error {
		out = append(out, h)
		return nil
	})
	if err == nil {
		err = db.IntegrityCheck(context.Background())
	}
	return out, err
}

func TestKill9MidBaselineThenResume(t *testing.T) {
	const n = 1000
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = n })
	src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: 10 * time.Millisecond})
	dest := t.TempDir()
	p := startProc(t, nil, "baseline", "--dest", dest, "--workers", "4", "--progress", "never", srv.URL)

	// Kill once the state has recorded a first batch.
	var held []resourcesync.Held
	deadline := time.Now().Add(60 * time.Second)
	for len(held) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the baseline recorded nothing in 60 s")
		}
		time.Sleep(20 * time.Millisecond)
		held, _ = heldNow(t, dest, src.CapabilityListURL(0))
	}
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait()
	settle(t, srv)

	held, err := heldNow(t, dest, src.CapabilityListURL(0))
	if err != nil {
		t.Fatalf("state after kill -9: %v", err)
	}
	if len(held) >= n {
		t.Fatalf("the baseline finished (%d held) before the kill", len(held))
	}
	// The state never claims a file the disk does not hold.
	for _, h := range held {
		got, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(h.Path)))
		want, _ := src.Content(h.URI)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("state holds %s but the disk does not have it: %v", h.URI, err)
		}
	}

	src.ClearFaults()
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if got := src.ResourceBodies(); got != n-len(held) {
		t.Errorf("resume fetched %d bodies; %d were recorded of %d, so want %d", got, len(held), n, n-len(held))
	}
	final, err := heldNow(t, dest, src.CapabilityListURL(0))
	if err != nil || len(final) != n {
		t.Fatalf("after resume %d held, %v", len(final), err)
	}
	// No temp file survives the resumed run.
	filepath.WalkDir(dest, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "%tmp-") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
}
