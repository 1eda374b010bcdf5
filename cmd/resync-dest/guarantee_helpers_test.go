package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// This file holds what the guarantee tests (guarantee_*_test.go) share:
// comparing snapshots of a mirror (fixtures.TreeSnapshot), checks that it matches the Source, reading the
// state after a run, and a Toxiproxy in front of a fixture Source.

// filesOnly keeps the lines of a snapshot that describe files and
// symlinks, not directories.
func filesOnly(snapshot string) string {
	var keep []string
	for _, l := range strings.Split(snapshot, "\n") {
		if !strings.HasPrefix(l, "d") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// sameSnapshot fails the test when two snapshots differ, showing the
// lines that differ.
func sameSnapshot(t *testing.T, what, before, after string) {
	t.Helper()
	if before == after {
		return
	}
	b, a := lineSet(before), lineSet(after)
	var diff []string
	for l := range b {
		if !a[l] {
			diff = append(diff, "- "+l)
		}
	}
	for l := range a {
		if !b[l] {
			diff = append(diff, "+ "+l)
		}
	}
	sort.Strings(diff)
	t.Errorf("%s changed:\n%s", what, strings.Join(diff, "\n"))
}

func lineSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		m[l] = true
	}
	return m
}

// relPath is where the mirror (without --map) stores uri.
func relPath(t *testing.T, uri string) string {
	t.Helper()
	m, err := mirror.NewMapper(nil)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := m.Path(uri)
	if err != nil {
		t.Fatalf("map %s: %v", uri, err)
	}
	return rel
}

// assertMirrorIsSource checks that dest holds exactly the live resources
// of every set of src, byte for byte, and nothing else (temp files
// included) outside .resync-dest.
func assertMirrorIsSource(t *testing.T, src *fixtures.Source, dest string) {
	t.Helper()
	got := fixtures.MirrorFiles(t, dest)
	for set := range src.Sets() {
		for _, r := range src.Resources(set) {
			want, _ := src.Content(r.URI)
			rel := relPath(t, r.URI)
			if !bytes.Equal(got[rel], want) {
				t.Errorf("%s: the mirror has %d bytes at %s, the Source %d (or other bytes)", r.URI, len(got[rel]), rel, len(want))
			}
			delete(got, rel)
		}
	}
	for rel := range got {
		t.Errorf("extra file in the mirror: %s", rel)
	}
}

// assertNoTempFiles fails for any temp file left under dest (the mirror's
// "%tmp-" files and the state's listings under .resync-dest/tmp).
func assertNoTempFiles(t *testing.T, dest string) {
	t.Helper()
	filepath.WalkDir(dest, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), "%tmp-") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
	if ents, err := os.ReadDir(filepath.Join(dest, ".resync-dest", "tmp")); err == nil && len(ents) > 0 {
		t.Errorf("%d files left in .resync-dest/tmp", len(ents))
	}
}

// stateView is what the state of a mirror says, read without writing.
type stateView struct {
	set  resourcesync.SetState
	ok   bool // the set is known
	held []resourcesync.Held
	runs []state.Run
	fail []resourcesync.Failure
}

// readState opens the state of dest read-only, checks its integrity
// (PRAGMA integrity_check and foreign keys) and reads what it says about
// one set. A missing state file is an empty state.
func readState(t *testing.T, dest, capabilityList string) stateView {
	t.Helper()
	ctx := context.Background()
	o := state.DefaultOptions()
	o.Path, o.ReadOnly = filepath.Join(dest, ".resync-dest", "state.db"), true
	db, err := state.Open(ctx, o)
	if err != nil {
		t.Fatalf("open the state read-only: %v", err)
	}
	defer db.Close()
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Fatalf("state integrity: %v", err)
	}
	var v stateView
	if v.runs, err = db.Runs(ctx, 100); err != nil {
		t.Fatal(err)
	}
	v.set, v.ok, err = db.Set(ctx, capabilityList)
	if err != nil || !v.ok {
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	err = db.EachHeld(ctx, v.set.ID, func(h resourcesync.Held) error {
		v.held = append(v.held, h)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if v.fail, err = db.Failures(ctx, v.set.ID); err != nil {
		t.Fatal(err)
	}
	return v
}

// assertHeldOnDisk checks invariant 2 from the outside: every resource the
// state records as held is on disk, complete, with the bytes its record's
// digests describe.
func assertHeldOnDisk(t *testing.T, dest string, held []resourcesync.Held) {
	t.Helper()
	for _, h := range held {
		b, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(h.Path)))
		if err != nil {
			t.Errorf("the state holds %s but the disk does not: %v", h.URI, err)
			continue
		}
		if int64(len(b)) != h.Length {
			t.Errorf("the state holds %s with %d bytes, the disk has %d", h.URI, h.Length, len(b))
			continue
		}
		v := resourcesync.NewVerifier(h.Fixity, h.Length, true)
		v.Write(b)
		if err := v.Verify(); err != nil {
			t.Errorf("the state holds %s, but the bytes on disk differ: %v", h.URI, err)
		}
	}
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

// toxic is a Toxiproxy proxy, in-process, between the client and a
// fixture Source: the Source's documents name the proxy, so every request
// goes through it and the toxics added act on all of them.
type toxic struct {
	p   *toxiproxy.Proxy
	URL string // the Source's root URL through the proxy
}

// throughToxiproxy puts a proxy in front of srv and makes src name it.
func throughToxiproxy(t *testing.T, src *fixtures.Source, srv *fixtures.Server) *toxic {
	t.Helper()
	upstream := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/")
	ts := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(ts, "source", "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatalf("start toxiproxy: %v", err)
	}
	t.Cleanup(p.Stop)
	base := "http://" + p.Listen
	if err := src.SetBaseURL(base); err != nil {
		t.Fatal(err)
	}
	return &toxic{p: p, URL: base + "/"}
}

// add installs a toxic on the downstream (Source to client) or upstream
// stream with the given toxicity (the share of connections it acts on)
// and attributes, as Toxiproxy's JSON API takes them.
func (x *toxic) add(t *testing.T, name, typ, stream string, toxicity float64, attrs string) {
	t.Helper()
	js := fmt.Sprintf(`{"name":%q,"type":%q,"stream":%q,"toxicity":%g,"attributes":%s}`, name, typ, stream, toxicity, attrs)
	if _, err := x.p.Toxics.AddToxicJson(strings.NewReader(js)); err != nil {
		t.Fatalf("add toxic %s: %v", js, err)
	}
}
