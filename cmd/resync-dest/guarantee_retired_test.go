package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
)

// withoutSet is the Source Description doc without its entry for the
// Capability List capList.
func withoutSet(t *testing.T, doc, capList string) []byte {
	t.Helper()
	re := regexp.MustCompile(`(?s)<url>\s*<loc>` + regexp.QuoteMeta(capList) + `</loc>.*?</url>`)
	out := re.ReplaceAllString(doc, "")
	if out == doc {
		t.Fatalf("the Source Description does not name %s:\n%s", capList, doc)
	}
	return []byte(out)
}

// Issue 22, item 5c: a set the Source Description no longer names, with
// no successor, is retired after a discovery that read every set - never
// after a partial one, never a set of another Source - and its files are
// kept, reported in the summary, the --json result and status.
func TestGuaranteeOrphanedSetIsRetired(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 12; s.Sets = 2 })
	other, _ := served(t, func(s *fixtures.Spec) { s.Resources = 4 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, src.URL())...).want(t, 0)
	runCLI(t, args([]string{"baseline", "--dest", dest}, other.URL())...).want(t, 0)
	gone, kept := src.CapabilityListURL(1), src.CapabilityListURL(0)
	goneFiles := readState(t, dest, gone).held
	if len(goneFiles) != 6 {
		t.Fatalf("set %s holds %d files, want 6", gone, len(goneFiles))
	}
	sdPath := fixtures.PathOf(t, src.SourceDescriptionURL())
	src.SetRaw(sdPath, "application/xml", withoutSet(t, sourceDoc(t, srv, sdPath), gone))

	// A discovery that could not read a set it names proves nothing.
	src.SetNotFound(fixtures.PathOf(t, kept))
	r := runCLI(t, args([]string{"sync", "--dest", dest, "--delete"}, src.URL())...)
	if r.code == 0 {
		t.Fatalf("sync with an unreadable Capability List exited 0:\n%s", r.stderr)
	}
	if !readState(t, dest, gone).ok {
		t.Fatal("a partial discovery retired a set")
	}
	src.ClearRaw(fixtures.PathOf(t, kept))

	// A dry run says what it would do and does nothing.
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--delete", "--dry-run"}, src.URL())...).want(t, 0)
	contains(t, r.stdout, "would retire "+gone)
	if !readState(t, dest, gone).ok {
		t.Fatal("a dry run retired a set")
	}

	r = runCLI(t, args([]string{"sync", "--dest", dest, "--delete", "--json"}, src.URL())...).want(t, 0)
	var res struct {
		Retired []struct {
			CapabilityList string   `json:"capability_list"`
			Source         string   `json:"source"`
			Files          int64    `json:"files"`
			Tree           []string `json:"tree"`
		} `json:"retired_sets"`
	}
	if err := resultOf(r.stdout, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Retired) != 1 || res.Retired[0].CapabilityList != gone || res.Retired[0].Files != 6 ||
		res.Retired[0].Source != src.SourceDescriptionURL() || len(res.Retired[0].Tree) != 1 {
		t.Fatalf("retired_sets = %+v; want %s with its 6 files", res.Retired, gone)
	}
	contains(t, r.stderr, "no longer names this set")
	if readState(t, dest, gone).ok {
		t.Error("the set the Source no longer names is still in the state")
	}
	// Its files stay: retiring deletes nothing, even with --delete.
	assertHeldOnDisk(t, dest, goneFiles)
	if v := checkState(t, dest, kept); len(v.held) != 6 {
		t.Errorf("the set still named holds %d files, want 6", len(v.held))
	}
	if !readState(t, dest, other.CapabilityListURL(0)).ok {
		t.Error("the set of another Source was retired")
	}
	st := runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, st.stdout, "retired set "+gone, "6 files are kept in "+res.Retired[0].Tree[0])
	if want := filepath.ToSlash(filepath.Dir(goneFiles[0].Path)); res.Retired[0].Tree[0] != want {
		t.Errorf("tree %s, want %s", res.Retired[0].Tree[0], want)
	}
	// The next run has nothing to retire; the mirror is in step.
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--json"}, src.URL())...).want(t, 0)
	if strings.Contains(r.stdout, "retired_sets") {
		t.Errorf("a set was retired twice:\n%s", r.stdout)
	}
	runCLI(t, args([]string{"audit", "--dest", dest}, src.URL())...).want(t, 0)
	if _, err := os.Stat(filepath.Join(dest, filepath.FromSlash(goneFiles[0].Path))); err != nil {
		t.Error(err)
	}
}
