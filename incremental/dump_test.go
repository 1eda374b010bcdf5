package incremental_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// runDump runs an incremental sync from the set's Change Dump, keeping its
// packages in tmp.
func (h *harness) runDump(tmp string, cursor time.Time, mod func(*incremental.Options)) (*incremental.Summary, error) {
	h.T.Helper()
	o := incremental.DefaultOptions()
	o.Workers, o.Scope = 4, h.Scope()
	if mod != nil {
		mod(&o)
	}
	set := incremental.Set{ID: h.SetID, CapabilityList: h.Src.CapabilityListURL(0), ChangeDump: h.Src.ChangeDumpURL(0),
		ChangeDumpArchive: h.Src.ChangeDumpArchiveURL(0), Cursor: cursor}
	d := h.IncrementalDeps()
	d.TempDir = tmp
	return incremental.Run(context.Background(), set, d, o)
}

func (h *harness) mustRunDump(tmp string, mod func(*incremental.Options)) *incremental.Summary {
	h.T.Helper()
	sum, err := h.runDump(tmp, h.state().Cursor, mod)
	if err != nil {
		h.T.Fatalf("incremental from the Change Dump: %v (%+v)", err, sum)
	}
	return sum
}

// packageRequests counts the requests for set 0's Change Dump packages.
func (h *harness) packageRequests(n int) int {
	total := 0
	for i := 1; i <= n; i++ {
		total += h.Src.Requests(fmt.Sprintf("/dataset1/changedump-%d.zip", i))
	}
	return total
}

func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		t.Errorf("left in the temp directory: %s", e.Name())
	}
}

func dumpSpec(s *fixtures.Spec) { s.ChangeDump = true }

// The changes come out of the packages - not one resource is fetched from
// the Source - and the mirror ends as the Source is; closed packages are
// then done and not read again, and the open one is.
func TestAppliesChangeDump(t *testing.T) {
	h := newHarness(t, dumpSpec)
	h.baseline()
	h.advance(25) // five closed lists of 5, so five closed packages
	tmp := t.TempDir()
	h.Src.ResetCounts()
	sum := h.mustRunDump(tmp, withDelete)
	if sum.Via != "dump" || sum.ChangeDump != h.Src.ChangeDumpURL(0) || sum.ListsRead != 5 || sum.Changes != 25 ||
		sum.Applied != 25 || sum.Failed != 0 || sum.Packages < 1 || sum.Packages > 5 {
		t.Fatalf("%+v", sum)
	}
	if got := h.Src.ResourceBodies(); got != 0 {
		t.Errorf("fetched %d resources from the Source; the packages hold them all", got)
	}
	if got := h.packageRequests(5); int64(got) != sum.Packages {
		t.Errorf("%d package requests for %d packages downloaded", got, sum.Packages)
	}
	h.assertIdentical()
	assertEmptyDir(t, tmp)
	changes := h.Src.Changes(0)
	if st := h.state(); !st.Cursor.Equal(changes[len(changes)-1].At) {
		t.Errorf("cursor %v, want the last change %v", st.Cursor, changes[len(changes)-1].At)
	}
	for n := 1; n <= 5; n++ {
		u := h.Src.URI(fmt.Sprintf("/dataset1/changedump-%d.zip", n))
		if done, err := h.DB.ListDone(context.Background(), h.SetID, u); err != nil || !done {
			t.Errorf("closed package %s not recorded as done (%v)", u, err)
		}
	}

	// Nothing new: nothing is read but the dump itself (the packages
	// before the cursor are passed over; the last one, ending at it, is
	// recorded as done).
	h.Src.ResetCounts()
	sum = h.mustRunDump(tmp, withDelete)
	if sum.ListsSkipped != 1 || sum.ListsRead != 0 || sum.Changes != 0 || sum.Packages != 0 {
		t.Errorf("second run: %+v", sum)
	}
	if got := h.Src.TotalRequests(); got != 1 {
		t.Errorf("second run made %d requests, want the Change Dump's only", got)
	}

	// Changes in the open list: its package is read (by its manifest copy)
	// and downloaded once.
	h.advance(3)
	h.Src.ResetCounts()
	sum = h.mustRunDump(tmp, withDelete)
	if sum.ListsRead != 1 || sum.Changes != 3 || sum.Applied != 3 || sum.ListsSkipped != 1 {
		t.Errorf("third run: %+v", sum)
	}
	if h.Src.ResourceBodies() != 0 || h.Src.Requests("/dataset1/changedump-6.zip") > 1 {
		t.Errorf("third run: %d bodies, %d requests for the open package", h.Src.ResourceBodies(), h.Src.Requests("/dataset1/changedump-6.zip"))
	}
	h.assertIdentical()
	assertEmptyDir(t, tmp)
}

// Without manifest copies every package is downloaded to read its changes,
// and a package whose changes were all applied is not kept.
func TestChangeDumpWithoutManifestCopies(t *testing.T) {
	h := newHarness(t, dumpSpec)
	h.baseline()
	h.advance(15)
	for n := 1; n <= 3; n++ {
		h.Src.SetNotFound(fmt.Sprintf("/dataset1/changedump-%d-manifest.xml", n))
	}
	tmp := t.TempDir()
	h.Src.ResetCounts()
	sum := h.mustRunDump(tmp, withDelete)
	if sum.ListsRead != 3 || sum.Applied != 15 || sum.Packages != 3 || h.Src.ResourceBodies() != 0 {
		t.Fatalf("%+v, %d bodies", sum, h.Src.ResourceBodies())
	}
	if got := h.packageRequests(3); got != 3 {
		t.Errorf("%d package requests, want each of the 3 once", got)
	}
	h.assertIdentical()
	assertEmptyDir(t, tmp)
}

// A package that cannot be downloaded does not stop the run when its
// manifest copy says what it holds: those resources are fetched from the
// Source instead.
func TestChangeDumpUnusablePackageFallsBackToTheSource(t *testing.T) {
	h := newHarness(t, dumpSpec)
	h.baseline()
	h.advance(10)
	h.Src.SetNotFound("/dataset1/changedump-1.zip")
	tmp := t.TempDir()
	h.Src.ResetCounts()
	sum := h.mustRunDump(tmp, withDelete)
	if sum.Applied != 10 || sum.Failed != 0 {
		t.Fatalf("%+v", sum)
	}
	if h.Src.ResourceBodies() == 0 {
		t.Errorf("nothing fetched from the Source for the missing package")
	}
	h.assertIdentical()
	assertEmptyDir(t, tmp)

	// Without a copy as well, the changes cannot be known: the run stops
	// with an error naming the package, and nothing is changed.
	h2 := newHarness(t, dumpSpec)
	h2.baseline()
	h2.advance(10)
	h2.Src.SetNotFound("/dataset1/changedump-1.zip")
	h2.Src.SetNotFound("/dataset1/changedump-1-manifest.xml")
	before := h2.state().Cursor
	_, err := h2.runDump(t.TempDir(), before, withDelete)
	if err == nil || !strings.Contains(err.Error(), "changedump-1.zip") || !errors.Is(err, resourcesync.ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if !h2.state().Cursor.Equal(before) {
		t.Errorf("the cursor moved")
	}
}

// A run stopped in the middle of a package resumes exactly: the changes it
// recorded are not applied again, the rest are.
func TestChangeDumpResumeIsExactPerEntry(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.ChangeDump, s.Resources, s.ChangeListMax = true, 60, 40 })
	h.baseline()
	h.advance(40) // one closed package of 40 changes
	drain, stop := context.WithCancel(context.Background())
	o := incremental.DefaultOptions()
	withDelete(&o)
	o.Workers, o.BatchSize, o.Scope, o.Drain = 1, 4, h.Scope(), drain
	set := incremental.Set{ID: h.SetID, CapabilityList: h.Src.CapabilityListURL(0), ChangeDump: h.Src.ChangeDumpURL(0), Cursor: h.state().Cursor}
	d := h.IncrementalDeps()
	d.Mirror = &desttest.DrainingMirror{Mirror: h.Mirror, After: 8, Stop: stop}
	d.TempDir = t.TempDir()
	sum, err := incremental.Run(context.Background(), set, d, o)
	if !errors.Is(err, resourcesync.ErrInterrupted) {
		t.Fatalf("err = %v (%+v)", err, sum)
	}
	first := sum.Applied
	if first == 0 || first >= 40 {
		t.Fatalf("the first run applied %d of 40 changes; want some", first)
	}
	tmp := t.TempDir()
	sum = h.mustRunDump(tmp, withDelete)
	// Changes before the new cursor are done and not read; of those after
	// it, the ones recorded are not applied again.
	if sum.Applied != 40-first || sum.Applied != sum.Changes-sum.AlreadyDone || sum.Packages != 1 {
		t.Errorf("resume after %d applied: %+v", first, sum)
	}
	h.assertIdentical()
	assertEmptyDir(t, tmp)
}

// A hostile package cannot write outside the mirror: where a bitstream
// goes is decided by its URI, and a path climbing out of the package, a
// symlink entry or a name given twice fails that change alone.
func TestChangeDumpHostilePackage(t *testing.T) {
	h := newHarness(t, dumpSpec)
	h.baseline()
	res := h.Src.Resources(0)
	good, climb, link, dup, plain := res[0], res[1], res[2], res[3], res[4]
	body := func(s string) []byte { return []byte("new bytes of " + s) }
	from := h.state().Cursor
	at := func(i int) string { return resourcesync.FormatDatetime(from.Add(time.Duration(i+1) * time.Second)) }
	entry := func(i int, r fixtures.ResourceInfo, path string) string {
		b := body(r.URI)
		return fmt.Sprintf(`<url><loc>%s</loc><lastmod>%s</lastmod><rs:md change="updated" hash="sha-256:%s" length="%d" path=%q/></url>`,
			r.URI, at(i), sha256hex(b), len(b), path)
	}
	manifest := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changedump-manifest" from="` + resourcesync.FormatDatetime(from) + `"/>
` + entry(0, good, "/changes/good") + entry(1, climb, "/../../../outside") + entry(2, link, "/changes/link") +
		entry(3, dup, "/changes/dup") + entry(4, plain, "changes/plain") + "\n</urlset>\n"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, mode fs.FileMode, b []byte) {
		fh := &zip.FileHeader{Name: name, Method: zip.Deflate}
		if mode != 0 {
			fh.SetMode(mode)
		}
		w, err := zw.CreateHeader(fh)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	add("manifest.xml", 0, []byte(manifest))
	add("changes/good", 0, body(good.URI))
	add("../../../outside", 0, body(climb.URI))
	add("changes/link", fs.ModeSymlink|0o777, []byte("/etc/passwd"))
	add("changes/dup", 0, body(dup.URI))
	add("changes/dup", 0, body(dup.URI))
	add("changes/plain", 0, body(plain.URI))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	h.Src.SetRaw("/dataset1/evil.zip", "application/zip", buf.Bytes())
	h.Src.SetRaw("/dataset1/changedump.xml", "application/xml", []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changedump" from="`+resourcesync.FormatDatetime(from)+`"/>
<url><loc>evil.zip</loc><rs:md type="application/zip" from="`+resourcesync.FormatDatetime(from)+`"/></url>
</urlset>`))
	outside := filepath.Dir(h.Dest)
	before := treeOf(t, outside, h.Dest)
	tmp := t.TempDir()
	sum, err := h.runDump(tmp, from, withDelete)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if sum.Changes != 5 || sum.Applied != 2 || sum.ChangesFailed != 3 || sum.Failed != 3 {
		t.Errorf("%+v", sum)
	}
	for _, r := range []fixtures.ResourceInfo{good, plain} {
		if b, _ := os.ReadFile(h.PathOf(r.URI)); !bytes.Equal(b, body(r.URI)) {
			t.Errorf("%s: %q", r.URI, b)
		}
	}
	causes := map[string]string{}
	fails, err := h.DB.Failures(context.Background(), h.SetID)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fails {
		causes[f.URI] = f.Cause
	}
	for r, want := range map[string]string{climb.URI: "unsafe name", link.URI: "not a regular file", dup.URI: "more than one ZIP entry"} {
		if !strings.Contains(causes[r], want) {
			t.Errorf("%s: cause %q, want %q", r, causes[r], want)
		}
		// The old copy stays.
		old, _ := h.Src.Content(r)
		if b, _ := os.ReadFile(h.PathOf(r)); !bytes.Equal(b, old) {
			t.Errorf("%s: the old copy was not kept", r)
		}
	}
	if after := treeOf(t, outside, h.Dest); after != before {
		t.Errorf("something changed outside the mirror:\n%s\n---\n%s", before, after)
	}
	assertEmptyDir(t, tmp)
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// treeOf lists the files under dir, except those under skip.
func treeOf(t *testing.T, dir, skip string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p == skip {
			return filepath.SkipDir
		}
		fmt.Fprintln(&b, p, d.Type())
		return nil
	})
	return b.String()
}

// A dry run reads the Change Dump and its packages, says what it would
// do, and changes nothing.
func TestChangeDumpDryRun(t *testing.T) {
	h := newHarness(t, dumpSpec)
	h.baseline()
	h.advance(10)
	h.Reopen(true)
	before := fixtures.TreeSnapshot(t, h.Dest, false)
	var plan bytes.Buffer
	sum, err := h.runDump(t.TempDir(), h.state().Cursor, func(o *incremental.Options) {
		withDelete(o)
		o.DryRun, o.Plan = true, &plan
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Changes != 10 || plan.Len() == 0 {
		t.Errorf("%+v\n%s", sum, plan.String())
	}
	if after := fixtures.TreeSnapshot(t, h.Dest, false); after != before {
		t.Errorf("a dry run wrote to the mirror")
	}
}
