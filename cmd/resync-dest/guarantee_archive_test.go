package main

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 16, catching up from the archives: a mirror offline while the
// Source dropped old Change Lists from its index catches up from the
// Change List Archive - exit 0, the mirror identical to the Source, no
// resource copied again that did not change, and the summary, --json and
// status say where the changes came from. An archive that cannot close
// the gap leaves it a gap: exit 7, nothing changed.
func TestGuaranteeCatchUpFromTheArchive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		closes bool
		via    string
	}{{"closes the gap", true, "list"}, {"cannot close the gap", false, "list"}, {"Change Dump Archive", true, "dump"}} {
		closes := tc.closes
		t.Run(tc.name, func(t *testing.T) {
			src, srv := served(t, func(s *fixtures.Spec) {
				s.ChangeListMax, s.ChangeListArchive, s.ChangeDump = 5, true, tc.via == "dump"
			})
			archiveURL := src.ChangeListArchiveURL(0)
			if tc.via == "dump" {
				archiveURL = src.ChangeDumpArchiveURL(0)
			}
			dest := t.TempDir()
			runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
			start := src.At()
			if err := src.AdvanceRandom(17, time.Second); err != nil {
				t.Fatal(err)
			}
			src.TrimHistory(start.Add(12 * time.Second))
			flags := args([]string{"sync", "--dest", dest, "--delete", "--max-delete", "100%", "--via", tc.via}, srv.URL)
			if !closes {
				u, err := url.Parse(src.ChangeListArchiveURL(0))
				if err != nil {
					t.Fatal(err)
				}
				src.SetRaw(u.Path, "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="changelist-archive"/></urlset>`))
				r := runCLI(t, flags...).want(t, exitSafetyStop)
				contains(t, r.stderr, "new baseline is needed")
				if v := checkState(t, dest, src.CapabilityListURL(0)); !v.set.Cursor.Equal(start) {
					t.Errorf("the cursor moved to %v on a gap", v.set.Cursor)
				}
				return
			}
			src.ResetCounts()
			r := runCLI(t, append(flags, "--json")...).want(t, 0)
			var res struct {
				Sets []struct {
					Incremental struct {
						Archive      string `json:"archive"`
						ArchiveLists int    `json:"archive_lists"`
						Applied      int64  `json:"applied"`
					} `json:"incremental"`
				} `json:"sets"`
			}
			if err := resultOf(r.stdout, &res); err != nil || len(res.Sets) != 1 {
				t.Fatalf("%v: %s", err, r.stdout)
			}
			if got := res.Sets[0].Incremental; got.Archive != archiveURL || got.ArchiveLists < 2 || got.Applied != 17 {
				t.Errorf("incremental %+v: want the archive's lists and the 17 changes", got)
			}
			// Only what changed was fetched: at most one body per change
			// (none with the packages).
			if n := src.ResourceBodies(); n > 17 {
				t.Errorf("%d bodies fetched for 17 changes: the mirror was copied again", n)
			}
			assertMirrorIsSource(t, src, dest)
			st := runCLI(t, "status", "--dest", dest).want(t, 0)
			contains(t, st.stdout, "caught up from the archive "+archiveURL)
			r = runCLI(t, flags...).want(t, 0)
			if strings.Contains(r.stdout, "Archive") {
				t.Errorf("the next run caught up again:\n%s", r.stdout)
			}
		})
	}
}
