package mirror

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// fakeNames is a RenameState in memory: the records of each set by URI,
// the sets named by an older version, and the calls Rename made.
type fakeNames struct {
	held    map[int64]map[string]resourcesync.Held
	older   map[int64]int
	repaths [][]resourcesync.Moved
	current []int64
}

func (f *fakeNames) OlderNames(context.Context) (map[int64]int, error) {
	return cloneOlder(f.older), nil
}

func cloneOlder(m map[int64]int) map[int64]int {
	out := map[int64]int{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (f *fakeNames) EachHeld(_ context.Context, setID int64, fn func(resourcesync.Held) error) error {
	var hs []resourcesync.Held
	for _, h := range f.held[setID] {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Path < hs[j].Path })
	for _, h := range hs {
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeNames) Repath(_ context.Context, moves []resourcesync.Moved) error {
	f.repaths = append(f.repaths, slices.Clone(moves))
	for _, set := range f.held {
		for _, mv := range moves {
			if h, ok := set[mv.URI]; ok && h.Path == mv.From {
				h.Path = mv.To
				set[mv.URI] = h
			}
		}
	}
	return nil
}

func (f *fakeNames) NamesCurrent(_ context.Context, setID int64) error {
	f.current = append(f.current, setID)
	delete(f.older, setID)
	return nil
}

// oldMirror writes, for each URI, a file at its version-1 path under m's
// maps and a record of it in set 1 (set 2 for those in foreign, recorded at
// the path given there), as a mirror of the first naming rules held them.
func oldMirror(t *testing.T, m *Mirror, dir string, uris []string) *fakeNames {
	t.Helper()
	f := &fakeNames{held: map[int64]map[string]resourcesync.Held{1: {}}, older: map[int64]int{1: 1}}
	for _, u := range uris {
		old, err := m.mapper.PathIn(1, u)
		if err != nil {
			t.Fatal(err)
		}
		body := "body of " + u
		writeFile(t, dir, old, body)
		sum := md5.Sum([]byte(body))
		f.held[1][u] = resourcesync.Held{URI: u, Path: old, Length: int64(len(body)),
			Fixity: resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: hex.EncodeToString(sum[:])}}}
	}
	return f
}

func writeFile(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// files lists the regular files below dir (but .resync-dest) and their
// bytes, and the directories.
func files(t *testing.T, dir string) (map[string]string, []string) {
	t.Helper()
	out := map[string]string{}
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".resync-dest":
			return fs.SkipDir
		case d.IsDir():
			if rel != "." {
				dirs = append(dirs, rel)
			}
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, dirs
}

var renamedURIs = []string{
	"http://h/with%20space.txt",
	"http://h/Pi%C3%B1a.txt",
	"http://h/dir%20one/a%20b/c.txt",
	"http://h/dir%20one/plain.txt",
	"http://h/s?q=Piña/x",
	"http://h/" + strings.Repeat("%C3%A9", 40), // a shortened name in version 1, not in 2
	"http://h/plain/same.txt",                  // the same name in both
}

// Rename moves each held file from its version-1 name to its current one,
// with its bytes, prunes the directories it empties, records the moves
// after making them durable, and marks the set; a second call has nothing
// to do.
func TestRenameGivesCurrentNames(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	st := oldMirror(t, m, dir, renamedURIs)
	rep, err := m.Rename(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Renamed != len(renamedURIs)-1 || rep.Recorded != 0 || len(rep.Conflicts) != 0 || rep.Pending != 0 {
		t.Errorf("report %+v, want %d renamed", rep, len(renamedURIs)-1)
	}
	got, dirs := files(t, dir)
	want := map[string]string{}
	for _, u := range renamedURIs {
		p, _ := m.Path(u)
		want[p] = "body of " + u
		if h := st.held[1][u]; h.Path != p {
			t.Errorf("%s is recorded at %q, want %q", u, h.Path, p)
		}
	}
	if !maps2Equal(got, want) {
		t.Errorf("files after Rename:\n%q\nwant\n%q", keys(got), keys(want))
	}
	if slices.Contains(dirs, "h/dir%20one") || slices.Contains(dirs, "h/dir%20one/a%20b") {
		t.Errorf("the emptied version-1 directories are left: %q", dirs)
	}
	if len(st.repaths) != 1 || len(st.repaths[0]) != len(renamedURIs)-1 || !slices.Equal(st.current, []int64{1}) {
		t.Errorf("Repath calls %v, NamesCurrent calls %v", st.repaths, st.current)
	}
	again, err := m.Rename(context.Background(), st)
	if err != nil || again.Renamed+again.Recorded+len(again.Conflicts)+again.Pending != 0 || len(st.repaths) != 1 {
		t.Errorf("second Rename: %+v, %v, %d Repath calls", again, err, len(st.repaths))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func maps2Equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Under --map, the files below a map's directory are renamed inside it.
func TestRenameUnderMaps(t *testing.T) {
	mp, err := ParseMap("http://h/data/=local dir", "")
	if err != nil {
		t.Fatal(err)
	}
	m, dir := openLocked(t, Options{Maps: []Map{mp}})
	uris := []string{"http://h/data/a%20b.txt", "http://h/other%20x"}
	st := oldMirror(t, m, dir, uris)
	if _, err := m.Rename(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	got, _ := files(t, dir)
	want := map[string]string{"local dir/a b.txt": "body of " + uris[0], "h/other x": "body of " + uris[1]}
	if !maps2Equal(got, want) {
		t.Errorf("files %q, want %q", keys(got), keys(want))
	}
}

// What stands at the new name stays: the file keeps its old name and is
// reported, and so is one whose new name has a file for a parent. A file
// already at its new name with the recorded bytes (a run stopped between
// renaming and recording) is recorded there; one with other bytes is a
// conflict. A missing file is left to the run. The set is marked in every
// case: the conflicts were reported.
func TestRenameConflicts(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	uris := []string{
		"http://h/taken%20file", "http://h/taken%20dir", "http://h/under%20file/x",
		"http://h/moved%20already", "http://h/moved%20other", "http://h/missing%20file", "http://h/fine%20one",
	}
	st := oldMirror(t, m, dir, uris)
	writeFile(t, dir, "h/taken file", "someone else's")
	writeFile(t, dir, "h/taken dir/inside", "someone else's")
	writeFile(t, dir, "h/under file", "a file where a directory goes")
	for _, old := range []string{"h/moved%20already", "h/moved%20other", "h/missing%20file"} {
		if err := os.Remove(filepath.Join(dir, old)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, dir, "h/moved already", "body of http://h/moved%20already")
	writeFile(t, dir, "h/moved other", "body of http://h/moved%20otheR")

	rep, err := m.Rename(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	var conflicts []string
	for _, c := range rep.Conflicts {
		conflicts = append(conflicts, c.URI)
	}
	sort.Strings(conflicts)
	wantConflicts := []string{"http://h/moved%20other", "http://h/taken%20dir", "http://h/taken%20file", "http://h/under%20file/x"}
	if !slices.Equal(conflicts, wantConflicts) || rep.Renamed != 1 || rep.Recorded != 1 || rep.Pending != 0 {
		t.Errorf("report %+v: conflicts %q, want %q, 1 renamed, 1 recorded", rep, conflicts, wantConflicts)
	}
	wantPaths := map[string]string{
		"http://h/taken%20file": "h/taken%20file", "http://h/taken%20dir": "h/taken%20dir",
		"http://h/under%20file/x": "h/under%20file/x", "http://h/moved%20already": "h/moved already",
		"http://h/moved%20other": "h/moved%20other", "http://h/missing%20file": "h/missing%20file",
		"http://h/fine%20one": "h/fine one",
	}
	for u, p := range wantPaths {
		if got := st.held[1][u].Path; got != p {
			t.Errorf("%s recorded at %q, want %q", u, got, p)
		}
	}
	got, _ := files(t, dir)
	for _, p := range []string{"h/taken%20file", "h/taken%20dir", "h/under%20file/x", "h/fine one"} {
		if !strings.HasPrefix(got[p], "body of ") {
			t.Errorf("%s: %q, want the resource's bytes", p, got[p])
		}
	}
	for _, p := range []string{"h/taken file", "h/taken dir/inside", "h/under file"} {
		if !strings.HasPrefix(got[p], "someone else's") && !strings.HasPrefix(got[p], "a file where") {
			t.Errorf("%s: %q, want what was there", p, got[p])
		}
	}
	if !slices.Equal(st.current, []int64{1}) {
		t.Errorf("NamesCurrent calls %v", st.current)
	}
}

// A set with a record made under other maps than the mirror's is renamed
// as far as it can be and left for a run with those maps.
func TestRenameLeavesForeignRecords(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	st := oldMirror(t, m, dir, []string{"http://h/a%20b"})
	writeFile(t, dir, "elsewhere/c%20d", "mapped elsewhere")
	st.held[1]["http://h/c%20d"] = resourcesync.Held{URI: "http://h/c%20d", Path: "elsewhere/c%20d", Length: 16}
	rep, err := m.Rename(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Renamed != 1 || rep.Pending != 1 || len(st.current) != 0 {
		t.Errorf("report %+v, NamesCurrent calls %v; want 1 renamed, the set pending", rep, st.current)
	}
	if got := st.held[1]["http://h/c%20d"].Path; got != "elsewhere/c%20d" {
		t.Errorf("the foreign record moved to %q", got)
	}
}

// The renames are durable before they are recorded: when making them
// durable fails, nothing is recorded and the run stops; the next Rename
// finds the files at their new names and records them.
func TestRenameRecordsOnlyDurableRenames(t *testing.T) {
	m, dir, armed := faultMirror(t, func(op, _ string) error {
		if op == OpSyncFS || op == OpSyncDir {
			return syscall.EIO
		}
		return nil
	})
	uris := []string{"http://h/a%20b", "http://h/c%20d"}
	st := oldMirror(t, m, dir, uris)
	armed.Store(true)
	_, err := m.Rename(context.Background(), st)
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("Rename with a failing sync: %v, want EIO", err)
	}
	if len(st.repaths) != 0 || len(st.current) != 0 {
		t.Fatalf("recorded %v and %v before the renames were durable", st.repaths, st.current)
	}
	armed.Store(false)
	rep, err := m.Rename(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Recorded != 2 || rep.Renamed != 0 || len(rep.Conflicts) != 0 {
		t.Errorf("report %+v, want both recorded at their new names", rep)
	}
	for _, u := range uris {
		if p, _ := m.Path(u); st.held[1][u].Path != p {
			t.Errorf("%s recorded at %q, want %q", u, st.held[1][u].Path, p)
		}
	}
}

func TestRenameNeedsTheLock(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, err := m.Rename(context.Background(), &fakeNames{}); !errors.Is(err, ErrNotLocked) {
		t.Errorf("Rename without the lock: %v", err)
	}
	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Rename(context.Background(), &fakeNames{}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Rename of a read-only mirror: %v", err)
	}
}
