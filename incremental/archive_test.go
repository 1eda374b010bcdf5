package incremental_test

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Issue 16, catching up from the archives: a Change List Index that no
// longer reaches back to the cursor is not a gap when the Change List
// Archive names the lists in between - they are applied, in order, then
// the current ones, and the mirror ends identical to the Source. An
// archive that does not close the gap leaves it a gap, changing nothing.
func TestCatchUpFromTheArchive(t *testing.T) {
	for _, tc := range []struct {
		name    string
		archive bool // the Source publishes an archive
		hole    bool // the archive lacks the list right after the cursor
	}{
		{"the archive closes the gap", true, false},
		{"the archive has a hole", true, true},
		{"no archive", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, func(s *fixtures.Spec) { s.ChangeListArchive = tc.archive })
			h.baseline()
			cursor := h.state().Cursor
			h.advance(17)
			if n := h.Src.TrimHistory(cursor.Add(12 * time.Second)); n == 0 {
				t.Fatal("nothing trimmed")
			}
			if tc.hole {
				u, err := url.Parse(h.Src.ChangeListArchiveURL(0))
				if err != nil {
					t.Fatal(err)
				}
				doc := getDoc(t, h.Srv.URL, u.Path)
				// The first list of the archive (the one after the cursor)
				// is no longer named.
				first := regexp.MustCompile(`(?s)<url>.*?</url>`).FindString(doc)
				if first == "" {
					t.Fatalf("an empty archive:\n%s", doc)
				}
				h.Src.SetRaw(u.Path, "application/xml", []byte(regexp.MustCompile(regexp.QuoteMeta(first)).ReplaceAllString(doc, "")))
			}
			before := h.Files()
			sum, err := h.run(withDelete)
			if !tc.archive || tc.hole {
				if !errors.Is(err, resourcesync.ErrSafetyStop) || !errors.As(err, new(*incremental.GapError)) {
					t.Fatalf("err = %v, want a gap", err)
				}
				if after := h.Files(); len(after) != len(before) || sum.Listed != 0 || !h.state().Cursor.Equal(cursor) {
					t.Errorf("a run stopped by a gap changed something: %+v", sum)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sum.Archive != h.Src.ChangeListArchiveURL(0) || sum.ArchiveLists < 2 || sum.Applied != 17 {
				t.Errorf("archive %q, %d lists from it, %d changes applied; want the archive's lists and every change: %+v",
					sum.Archive, sum.ArchiveLists, sum.Applied, sum)
			}
			h.assertIdentical()
			// The next run starts from the current history: no archive.
			again := h.mustRun(withDelete)
			if again.Archive != "" || again.Applied != 0 {
				t.Errorf("the next run: %+v", again)
			}
			if st := h.state(); !st.Cursor.After(cursor) {
				t.Errorf("cursor %v did not move", st.Cursor)
			}
		})
	}
}

// getDoc is the body of the document the fixture Source serves at path.
func getDoc(t *testing.T, base, path string) string {
	t.Helper()
	resp, err := http.Get(base + path[1:])
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
	}
	return string(b)
}

// The same from the Change Dump Archive, with --via dump: the packages of
// the archived Change Dumps that cover the gap, then the current ones.
func TestCatchUpFromTheChangeDumpArchive(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.ChangeListArchive, s.ChangeDump = true, true })
	h.baseline()
	cursor := h.state().Cursor
	h.advance(17)
	if n := h.Src.TrimHistory(cursor.Add(12 * time.Second)); n == 0 {
		t.Fatal("nothing trimmed")
	}
	sum, err := h.runDump(t.TempDir(), cursor, withDelete)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Archive != h.Src.ChangeDumpArchiveURL(0) || sum.ArchiveLists < 2 || sum.Applied != 17 {
		t.Errorf("archive %q, %d packages from it, %d changes applied: %+v", sum.Archive, sum.ArchiveLists, sum.Applied, sum)
	}
	h.assertIdentical()
	if again, err := h.runDump(t.TempDir(), h.state().Cursor, withDelete); err != nil || again.Archive != "" || again.Applied != 0 {
		t.Errorf("the next run: %v %+v", err, again)
	}
}
