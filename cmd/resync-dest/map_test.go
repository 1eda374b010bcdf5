package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// --map end to end: files land under LOCAL_DIR, a rerun skips them all,
// --delete removes a deleted resource's file there, and an audit with the
// same --map finds the mirror in sync (without it, nothing is where the
// audit looks).
func TestMapCommand(t *testing.T) {
	src, srv := served(t, nil)
	dest := t.TempDir()
	prefix := srv.URL + "dataset1/res/"
	mapArg := []string{"--map", prefix + "=local/data"}
	// mapped is where --map stores each live resource, by mirror path.
	mapped := func() map[string][]byte {
		t.Helper()
		want := map[string][]byte{}
		for _, r := range src.Resources(0) {
			rest, ok := strings.CutPrefix(r.URI, prefix)
			if !ok || strings.ContainsAny(rest, "%?") {
				t.Fatalf("%s: not a plain path under %s", r.URI, prefix)
			}
			want["local/data/"+rest], _ = src.Content(r.URI)
		}
		return want
	}
	checkMirror := func(when string) {
		t.Helper()
		got, want := fixtures.MirrorFiles(t, dest), mapped()
		for p, b := range want {
			if !bytes.Equal(got[p], b) {
				t.Errorf("%s: %s: %d bytes, want the Source's %d", when, p, len(got[p]), len(b))
			}
			delete(got, p)
		}
		for p := range got {
			t.Errorf("%s: file outside the mapping: %s", when, p)
		}
	}
	baseline := func(more ...string) result {
		t.Helper()
		return runCLI(t, args(append([]string{"baseline", "--dest", dest}, mapArg...), append(more, srv.URL)...)...).want(t, exitOK)
	}

	r := baseline()
	contains(t, r.stdout, "40 created")
	checkMirror("first baseline")

	src.ResetCounts()
	r = baseline()
	contains(t, r.stdout, "40 unchanged")
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("second baseline fetched %d resource bodies", n)
	}
	checkMirror("second baseline")

	gone := src.Resources(0)[7]
	if err := src.Apply(src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Delete, Path: gone.Path}); err != nil {
		t.Fatal(err)
	}
	r = baseline("--delete")
	contains(t, r.stdout, "1 deleted")
	checkMirror("baseline --delete")

	runCLI(t, auditArgs(append([]string{"audit", "--dest", dest}, mapArg...), srv.URL)...).want(t, exitOK)
	runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
}

// A map whose LOCAL_DIR would leave the mirror root, or enter the state's
// directory, is a usage error for every command that takes --map.
func TestMapEscapingTheRoot(t *testing.T) {
	for _, dir := range []string{"../x", "a/../../x", "/tmp/x", ".resync-dest/x", ""} {
		m := "http://127.0.0.1:1/data/=" + dir
		for _, a := range [][]string{
			{"baseline", "--dest", t.TempDir(), "--map", m, "http://127.0.0.1:1/"},
			{"audit", "--dest", t.TempDir(), "--map", m, "http://127.0.0.1:1/"},
		} {
			r := runCLI(t, a...)
			if r.code != exitUsage {
				t.Errorf("%q: exit %d, want 2\n%s", a, r.code, r.stderr)
				continue
			}
			contains(t, r.stderr, "--map")
		}
	}
}
