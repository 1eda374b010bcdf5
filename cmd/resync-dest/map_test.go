package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
)

// --map end to end: files land under LOCAL_DIR, a rerun skips them all,
// --delete removes a deleted resource's file there, and an audit with the
// same --map finds the mirror in sync (without it, nothing is where the
// audit looks).
func TestMapCommand(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// rootMapper is the mapping of --map prefix=. (for the expected layout).
func rootMapper(t *testing.T, prefix string) *mirror.Mapper {
	t.Helper()
	m, err := mirror.NewMapper([]mirror.Map{{Prefix: prefix, Dir: "."}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// --map URL=. stores the Source's tree at the mirror's root, as
// resync-sync and wget -nH do, with the names as they are; an absolute
// LOCAL_DIR that is --dest itself is the same map. A rerun fetches
// nothing, audit finds the mirror in sync, and an extra file is reported
// with its URI.
func TestMapOntoTheRoot(t *testing.T) {
	src, srv := servedWithNames(t)
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--map", srv.URL + "=."}, srv.URL)...).want(t, exitOK)
	contains(t, r.stdout, "45 created")
	mp := rootMapper(t, srv.URL)
	got := fixtures.MirrorFiles(t, dest)
	for _, res := range src.Resources(0) {
		rel, err := mp.Path(res.URI)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := src.Content(res.URI)
		if !bytes.Equal(got[rel], want) {
			t.Errorf("%s: %d bytes at %s, want the Source's %d", res.URI, len(got[rel]), rel, len(want))
		}
		delete(got, rel)
	}
	for p := range got {
		t.Errorf("file outside the mapping: %s", p)
	}
	for _, p := range []string{"dataset1/res/with space.txt", "dataset1/res/Piña.txt", "dataset1/res/dir with space/a b.txt"} {
		if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(p))); err != nil {
			t.Errorf("not at the root with its name: %v", err)
		}
	}

	src.ResetCounts()
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--map", srv.URL + "=" + dest + "/"}, srv.URL)...).want(t, exitOK)
	contains(t, r.stdout, "45 unchanged")
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("the rerun with --map %s=%s/ fetched %d resource bodies", srv.URL, dest, n)
	}
	runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--map", srv.URL + "=."}, srv.URL)...).want(t, exitOK)

	extra := filepath.Join(dest, "dataset1", "res", "extra file ñ.txt")
	if err := os.WriteFile(extra, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--map", srv.URL + "=.", "--json"}, srv.URL)...)
	if r.code != exitDifferences {
		t.Fatalf("audit: exit %d, want 4\n%s%s", r.code, r.stdout, r.stderr)
	}
	var doc struct{ Extra []struct{ URI, Path string } }
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatal(err)
	}
	want := struct{ URI, Path string }{srv.URL + "dataset1/res/extra%20file%20%C3%B1.txt", "dataset1/res/extra file ñ.txt"}
	if len(doc.Extra) != 1 || doc.Extra[0] != want {
		t.Errorf("extra %+v, want %+v", doc.Extra, want)
	}
}

// A map onto the root takes the whole mirror: another map beside it is a
// usage error naming both, as is a LOCAL_DIR outside --dest; resources
// outside its prefix fail one by one as unmappable (exit 3) while the rest
// are stored at the root.
func TestMapOntoTheRootLimits(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--map", srv.URL + "dataset1/=.", "--map", srv.URL + "dataset2/=two"}, srv.URL)...)
	if r.code != exitUsage {
		t.Fatalf("a root map and another: exit %d, want 2\n%s", r.code, r.stderr)
	}
	contains(t, r.stderr, srv.URL+"dataset1/=.", srv.URL+"dataset2/=two", "mirror's root")
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--map", srv.URL + "=" + filepath.Dir(dest)}, srv.URL)...)
	if r.code != exitUsage {
		t.Fatalf("a LOCAL_DIR above --dest: exit %d, want 2\n%s", r.code, r.stderr)
	}
	contains(t, r.stderr, "is outside the mirror "+dest+" (--dest)")
	if ents, _ := os.ReadDir(dest); len(ents) != 0 {
		t.Errorf("a refused command left %d entries in the mirror", len(ents))
	}

	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--map", srv.URL + "dataset1/=."}, srv.URL)...).want(t, exitPartial)
	contains(t, r.stdout, "the prefix mapped onto the mirror's root")
	got := fixtures.MirrorFiles(t, dest)
	for k := range src.Sets() {
		for _, res := range src.Resources(k) {
			rel := strings.TrimPrefix(res.Path, "/dataset1/")
			_, held := got[rel]
			switch {
			case k == 0 && !held:
				t.Errorf("%s is not at %s", res.URI, rel)
			case k == 1 && strings.HasPrefix(res.Path, "/dataset1/"):
				t.Errorf("set 2 holds %s", res.Path)
			case k == 1 && !strings.Contains(r.stdout, res.URI):
				t.Errorf("%s (outside the prefix) is not reported", res.URI)
			}
		}
	}
	if len(got) != len(src.Resources(0)) {
		t.Errorf("%d files in the mirror, want set 1's %d", len(got), len(src.Resources(0)))
	}
}

// Nothing maps into .resync-dest: under a map onto the root, a loc that
// names it fails alone (exit 3), the state stays intact, and nothing is
// written there.
func TestMapOntoTheRootSparesTheState(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 5 })
	dest := t.TempDir()
	host := strings.TrimSuffix(src.URL(), "/")
	good := src.Resources(0)[0]
	locs := []string{good.URI, host + "/.resync-dest/state.db", host + "/.resync-dest/x", host + "/%2Eresync-dest/lock"}
	for _, p := range []string{"/.resync-dest/state.db", "/.resync-dest/x", "/.resync-dest/lock"} {
		src.SetRaw(p, "text/plain", []byte("hostile"))
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(locs))
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--map", srv.URL + "=."}, srv.URL)...).want(t, exitPartial)
	contains(t, r.stdout, "it would land in .resync-dest")
	for _, l := range locs[1:] {
		contains(t, r.stdout, l)
	}
	for _, p := range []string{"state.db", "x", "lock"} {
		if b, err := os.ReadFile(filepath.Join(dest, ".resync-dest", p)); err == nil && string(b) == "hostile" {
			t.Errorf(".resync-dest/%s was written from the Source", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dest, ".resync-dest", "x")); !os.IsNotExist(err) {
		t.Errorf(".resync-dest/x: %v", err)
	}
	want, _ := src.Content(good.URI)
	if got, _ := os.ReadFile(filepath.Join(dest, "dataset1", "res", "000", "r000000.txt")); !bytes.Equal(got, want) {
		t.Errorf("the good resource is not at the root")
	}
	runCLI(t, "status", "--dest", dest).want(t, exitOK)
}
