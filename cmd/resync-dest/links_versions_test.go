package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// --keep-versions keeps the version an update replaces and the one a
// deletion removes, under .resync-dest/versions (or --versions-dir), at
// the resource's mirror path followed by @ and the version's lastmod;
// without it nothing is kept; the versions are not mirror content.
func TestLinksKeepVersions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		flags func(dir string) []string
		where func(dest, dir string) string
	}{
		{"default", func(string) []string { return []string{"--keep-versions"} },
			func(dest, _ string) string { return filepath.Join(dest, ".resync-dest", "versions") }},
		{"--versions-dir", func(dir string) []string { return []string{"--keep-versions", "--versions-dir", dir} },
			func(_, dir string) string { return dir }},
		{"off", func(string) []string { return nil }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
			dest, dir := t.TempDir(), filepath.Join(t.TempDir(), "kept")
			runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
			res := src.Resources(0)
			old := map[string][]byte{}
			for _, r := range res[:2] {
				b, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(relPath(t, r.URI))))
				if err != nil {
					t.Fatal(err)
				}
				old[r.Path] = b
			}
			if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: res[0].Path},
				fixtures.Mutation{Kind: fixtures.Delete, Path: res[1].Path}); err != nil {
				t.Fatal(err)
			}
			runCLI(t, args(append([]string{"incremental", "--dest", dest, "--delete", "--max-delete", "100%"}, tc.flags(dir)...), srv.URL)...).want(t, 0)
			incAssertIsSource(t, src, dest)
			if tc.where == nil {
				if _, err := os.Stat(filepath.Join(dest, ".resync-dest", "versions")); err == nil {
					t.Errorf("versions were kept without --keep-versions")
				}
				return
			}
			root := tc.where(dest, dir)
			for _, r := range res[:2] {
				b, err := os.ReadFile(keptPath(t, root, r.URI, r.LastMod))
				if err != nil || string(b) != string(old[r.Path]) {
					t.Errorf("version of %s: %v; holds the old bytes: %v", r.Path, err, string(b) == string(old[r.Path]))
				}
			}
			if n := countKept(t, root); n != 2 {
				t.Errorf("%d versions kept, want 2", n)
			}
			// A second run changes nothing and keeps nothing more.
			runCLI(t, args(append([]string{"sync", "--dest", dest, "--delete"}, tc.flags(dir)...), srv.URL)...).want(t, 0)
			audit := runCLI(t, args([]string{"audit", "--dest", dest}, srv.URL)...)
			if audit.code != 0 {
				t.Errorf("audit after --keep-versions: exit %d\n%s", audit.code, audit.stdout)
			}
		})
	}
}
