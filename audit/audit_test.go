package audit_test

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"reflect"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

func TestInSync(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.ListMax = 15 }) // a Resource List Index with parts
	h.baseline(0, nil)
	for _, fast := range []bool{false, true} {
		rep := h.mustAudit(func(_ *audit.Set, o *audit.Options) { o.Fast = fast })
		want := audit.Counts{Listed: 40, InSync: 40}
		if !rep.InSync || rep.Counts != want {
			t.Errorf("fast=%v: in sync %v, counts %+v, want %+v", fast, rep.InSync, rep.Counts, want)
		}
		if m := rep.Sets[0].Method; (m == "fast") != fast {
			t.Errorf("fast=%v: method %q", fast, m)
		}
	}
}

// differences gives the mirror one difference of each kind and returns
// the report an audit by re-hashing must make of them.
type differences struct {
	missing, extra, changed []audit.Difference
}

func makeDifferences(t *testing.T, h *harness) differences {
	t.Helper()
	rs := h.Src.Resources(0)
	var d differences
	// Missing: the file is gone.
	if err := os.Remove(h.file(h.rel(rs[0].URI))); err != nil {
		t.Fatal(err)
	}
	d.missing = append(d.missing, audit.Difference{URI: rs[0].URI, Path: h.rel(rs[0].URI)})
	// Changed length: a byte appended.
	f, err := os.OpenFile(h.file(h.rel(rs[1].URI)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{'!'})
	f.Close()
	d.changed = append(d.changed, audit.Difference{URI: rs[1].URI, Path: h.rel(rs[1].URI), Reason: "length",
		Expected: fmt.Sprint(rs[1].Size), Actual: fmt.Sprint(rs[1].Size + 1)})
	// Changed content, same size and mtime: only re-hashing sees it.
	p := h.file(h.rel(rs[2].URI))
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	b[len(b)/2] ^= 0x01
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	want, _ := rs[2].Fixity.Get(resourcesync.AlgMD5)
	got := md5.Sum(b)
	d.changed = append(d.changed, audit.Difference{URI: rs[2].URI, Path: h.rel(rs[2].URI), Reason: "md5",
		Expected: want, Actual: hex.EncodeToString(got[:])})
	// Changed type: a symlink where a file should be.
	p = h.file(h.rel(rs[3].URI))
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(h.file(h.rel(rs[4].URI)), p); err != nil {
		t.Fatal(err)
	}
	d.changed = append(d.changed, audit.Difference{URI: rs[3].URI, Path: h.rel(rs[3].URI), Reason: "type",
		Expected: "regular file", Actual: "symlink"})
	// Extra, never written by resync-dest: reported with the URI the
	// mapping stores there.
	stray := path.Join(path.Dir(h.rel(rs[5].URI)), "stray file ñ.txt")
	strayURI := rs[5].URI[:strings.LastIndexByte(rs[5].URI, '/')] + "/stray%20file%20%C3%B1.txt"
	if err := os.WriteFile(h.file(stray), []byte("not from the Source"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Extra, held: the Source deleted it.
	if err := h.Src.Apply(h.Src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Delete, Path: rs[6].Path}); err != nil {
		t.Fatal(err)
	}
	d.extra = []audit.Difference{{URI: rs[6].URI, Path: h.rel(rs[6].URI)}, {URI: strayURI, Path: stray}}
	return d
}

func TestDifferences(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	want := makeDifferences(t, h)
	rep := h.mustAudit(nil)
	wantCounts := audit.Counts{Listed: 39, InSync: 35, Missing: 1, Extra: 2, Changed: 3}
	if rep.InSync || rep.Counts != wantCounts {
		t.Errorf("in sync %v, counts %+v, want %+v", rep.InSync, rep.Counts, wantCounts)
	}
	checkFindings(t, "missing", rep.Missing, want.missing)
	checkFindings(t, "extra", rep.Extra, want.extra)
	checkFindings(t, "changed", rep.Changed, want.changed)
	if len(rep.Errors) != 0 {
		t.Errorf("errors: %+v", rep.Errors)
	}
}

// --fast trusts the state for a file whose size and mtime are the
// recorded ones: the bit flip, whose mtime was set back, goes unseen; the
// rest does not.
func TestFast(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	want := makeDifferences(t, h)
	rep := h.mustAudit(func(_ *audit.Set, o *audit.Options) { o.Fast = true })
	wantCounts := audit.Counts{Listed: 39, InSync: 36, Missing: 1, Extra: 2, Changed: 2}
	if rep.Counts != wantCounts {
		t.Errorf("counts %+v, want %+v", rep.Counts, wantCounts)
	}
	checkFindings(t, "missing", rep.Missing, want.missing)
	checkFindings(t, "extra", rep.Extra, want.extra)
	checkFindings(t, "changed", rep.Changed, []audit.Difference{want.changed[0], want.changed[2]})
}

// --fast is a quick check: a same-size edit that gives the file a new
// mtime is re-hashed and found; with the mtime set back it passes, and
// only re-hashing every file (the default) finds it.
func TestFastQuickCheck(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	r := h.Src.Resources(0)[0]
	p := h.file(h.rel(r.URI))
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if !info.ModTime().Equal(r.LastMod) {
		t.Fatalf("mtime %v, want the lastmod %v", info.ModTime(), r.LastMod)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x01
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	edited := time.Now().Add(-time.Hour) // unlike any lastmod of the fixture
	if err := os.Chtimes(p, edited, edited); err != nil {
		t.Fatal(err)
	}
	wantMD5, _ := r.Fixity.Get(resourcesync.AlgMD5)
	gotMD5 := md5.Sum(b)
	changed := []audit.Difference{{URI: r.URI, Path: h.rel(r.URI), Reason: "md5",
		Expected: wantMD5, Actual: hex.EncodeToString(gotMD5[:])}}
	fast := func(_ *audit.Set, o *audit.Options) { o.Fast = true }

	rep := h.mustAudit(fast)
	if want := (audit.Counts{Listed: 40, InSync: 39, Changed: 1}); rep.Counts != want {
		t.Errorf("new mtime, --fast: counts %+v, want %+v", rep.Counts, want)
	}
	checkFindings(t, "new mtime, --fast: changed", rep.Changed, changed)

	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	rep = h.mustAudit(fast)
	if want := (audit.Counts{Listed: 40, InSync: 40}); !rep.InSync || rep.Counts != want {
		t.Errorf("mtime set back, --fast: in sync %v, counts %+v, want %+v (the trade-off: the edit is not seen)",
			rep.InSync, rep.Counts, want)
	}
	rep = h.mustAudit(nil)
	if want := (audit.Counts{Listed: 40, InSync: 39, Changed: 1}); rep.Counts != want {
		t.Errorf("mtime set back, re-hashing: counts %+v, want %+v", rep.Counts, want)
	}
	checkFindings(t, "mtime set back, re-hashing: changed", rep.Changed, changed)
}

func checkFindings(t *testing.T, kind string, got, want []audit.Difference) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", kind, got, want)
	}
}

// A Source updated after the baseline, whose Resource List is older than
// its changes: the audit must compare with the list brought forward by
// the Change Lists.
func TestSourceUpdatedAfterBaseline(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	oldList := get(t, h.Src.ResourceListURL(0))
	rs := h.Src.Resources(0)
	at := h.Src.At().Add(time.Hour)
	newPath := "/dataset1/res/new/n000001.txt"
	if err := h.Src.Apply(at,
		fixtures.Mutation{Kind: fixtures.Update, Path: rs[0].Path},
		fixtures.Mutation{Kind: fixtures.Create, Path: newPath},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[1].Path},
	); err != nil {
		t.Fatal(err)
	}
	h.Src.SetRaw("/dataset1/resourcelist.xml", "application/xml", oldList)

	// The old list alone matches the mirror.
	rep := h.mustAudit(func(s *audit.Set, _ *audit.Options) { s.ChangeList = "" })
	if !rep.InSync {
		t.Fatalf("against the old list alone: %+v", rep.Counts)
	}

	sr, rep, err := h.audit(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sr.ChangesApplied != 3 || !sr.Through.Equal(at) || !sr.At.Equal(fixtures.DefaultSpec().Start) {
		t.Errorf("changes applied %d through %v, list at %v", sr.ChangesApplied, sr.Through, sr.At)
	}
	updated, _ := h.Src.Resource(rs[0].URI)
	created, _ := h.Src.Resource(newPath)
	wantMD5, _ := updated.Fixity.Get(resourcesync.AlgMD5)
	oldMD5, _ := rs[0].Fixity.Get(resourcesync.AlgMD5)
	checkFindings(t, "changed", rep.Changed, []audit.Difference{{URI: rs[0].URI, Path: h.rel(rs[0].URI),
		Reason: "md5", Expected: wantMD5, Actual: oldMD5}})
	checkFindings(t, "missing", rep.Missing, []audit.Difference{{URI: created.URI, Path: h.rel(created.URI)}})
	checkFindings(t, "extra", rep.Extra, []audit.Difference{{URI: rs[1].URI, Path: h.rel(rs[1].URI)}})
	if want := (audit.Counts{Listed: 40, InSync: 38, Missing: 1, Extra: 1, Changed: 1}); rep.Counts != want {
		t.Errorf("counts %+v, want %+v", rep.Counts, want)
	}
}

// Resources without a hash are compared by length and lastmod, and
// counted as unverifiable.
func TestUnverifiable(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.HashAlgs = []string{} })
	h.baseline(0, nil)
	rep := h.mustAudit(nil)
	if want := (audit.Counts{Listed: 40, InSync: 40, Unverifiable: 40}); rep.Counts != want {
		t.Fatalf("counts %+v, want %+v", rep.Counts, want)
	}
	rs := h.Src.Resources(0)
	// The Source updates a resource, keeping its size: its lastmod tells.
	at := h.Src.At().Add(time.Hour)
	if err := h.Src.Apply(at, fixtures.Mutation{Kind: fixtures.Update, Path: rs[0].Path}); err != nil {
		t.Fatal(err)
	}
	rep = h.mustAudit(nil)
	checkFindings(t, "changed", rep.Changed, []audit.Difference{{URI: rs[0].URI, Path: h.rel(rs[0].URI),
		Reason: "lastmod", Expected: resourcesync.FormatDatetime(at), Actual: resourcesync.FormatDatetime(rs[0].LastMod)}})
	if rep.Counts.Unverifiable != 40 {
		t.Errorf("unverifiable %d, want 40", rep.Counts.Unverifiable)
	}
	// Without a record in the state, the file's mtime is its lastmod.
	p := h.file(h.rel(rs[1].URI))
	touched := rs[1].LastMod.Add(-time.Minute)
	if err := os.Chtimes(p, touched, touched); err != nil {
		t.Fatal(err)
	}
	rep = h.mustAudit(func(s *audit.Set, _ *audit.Options) { s.ID = 0 })
	checkFindings(t, "changed", rep.Changed, []audit.Difference{
		{URI: rs[0].URI, Path: h.rel(rs[0].URI), Reason: "lastmod", Expected: resourcesync.FormatDatetime(at), Actual: resourcesync.FormatDatetime(rs[0].LastMod)},
		{URI: rs[1].URI, Path: h.rel(rs[1].URI), Reason: "lastmod", Expected: resourcesync.FormatDatetime(rs[1].LastMod), Actual: resourcesync.FormatDatetime(touched)},
	})
}

// What audit lists, baseline --checksum --delete repairs: afterwards the
// audit is clean.
func TestRepairRoundTrip(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	makeDifferences(t, h)
	if rep := h.mustAudit(nil); rep.InSync {
		t.Fatal("no differences found")
	}
	h.baseline(0, func(o *baseline.Options) {
		o.Checksum, o.Delete = true, true
		o.MaxDelete, _ = transfer.ParseDeleteLimit("100%")
	})
	if rep := h.mustAudit(nil); !rep.InSync {
		t.Fatalf("after the repair: %+v\nmissing %v\nextra %v\nchanged %v", rep.Counts, rep.Missing, rep.Extra, rep.Changed)
	}
}

// An audit writes nothing: not the mirror, not the state.
func TestReadOnly(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	makeDifferences(t, h)
	before := fixtures.TreeSnapshot(t, h.Dest, false)
	h.mustAudit(nil)
	h.mustAudit(func(_ *audit.Set, o *audit.Options) { o.Fast = true })
	if after := fixtures.TreeSnapshot(t, h.Dest, false); after != before {
		t.Errorf("the audit changed the mirror:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// Files another set holds are that set's, even inside this set's tree.
func TestOtherSetsFilesAreNotExtra(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.Sets = 2 })
	h.baseline(0, nil)
	rs := h.Src.Resources(0)
	// Set 2 lists one resource of set 1's directory: its tree is that
	// directory, where every other file is set 1's.
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>`)
	fmt.Fprintf(&b, `<url><loc>%s</loc><lastmod>%s</lastmod><rs:md hash="%s" length="%d"/></url></urlset>`,
		rs[0].URI, resourcesync.FormatDatetime(rs[0].LastMod), rs[0].Fixity, rs[0].Size)
	h.Src.SetRaw("/dataset2/resourcelist.xml", "application/xml", []byte(b.String()))
	h.baseline(1, nil)
	stray := path.Join(path.Dir(h.rel(rs[0].URI)), "stray.txt")
	if err := os.WriteFile(h.file(stray), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, rep, err := h.audit(1, func(s *audit.Set, _ *audit.Options) { s.ChangeList = "" })
	if err != nil {
		t.Fatal(err)
	}
	if want := (audit.Counts{Listed: 1, InSync: 1, Extra: 1}); rep.Counts != want {
		t.Errorf("counts %+v, want %+v", rep.Counts, want)
	}
	strayURI := rs[0].URI[:strings.LastIndexByte(rs[0].URI, '/')] + "/stray.txt"
	checkFindings(t, "extra", rep.Extra, []audit.Difference{{URI: strayURI, Path: stray}})
}

// Resources that map to no path are errors; those out of scope are
// skipped, and a file at their path is extra, as baseline --delete sees it.
func TestUnlistable(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	rs := h.Src.Resources(0)
	long := h.Src.URL() + "dataset1/res/" + strings.Repeat("a/", 2000) + "x"
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>`)
	for _, r := range rs[:3] {
		fmt.Fprintf(&b, `<url><loc>%s</loc><lastmod>%s</lastmod><rs:md hash="%s" length="%d"/></url>`,
			r.URI, resourcesync.FormatDatetime(r.LastMod), r.Fixity, r.Size)
	}
	fmt.Fprintf(&b, `<url><loc>%s</loc></url><url><loc>http://elsewhere.example/x</loc></url></urlset>`, long)
	h.Src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(b.String()))
	_, rep, err := h.audit(0, func(s *audit.Set, _ *audit.Options) { s.ChangeList = "" })
	if err != nil {
		t.Fatal(err)
	}
	if want := (audit.Counts{Listed: 5, InSync: 3, Extra: 37, Errors: 1, Skipped: 1}); rep.Counts != want {
		t.Errorf("counts %+v, want %+v", rep.Counts, want)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].URI != long || !strings.Contains(rep.Errors[0].Message, "unmappable") {
		t.Errorf("errors: %+v", rep.Errors)
	}
}

// MaxListed bounds the lists, not the counts.
func TestMaxListed(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	for _, r := range h.Src.Resources(0)[:5] {
		os.Remove(h.file(h.rel(r.URI)))
	}
	rep := h.mustAudit(func(_ *audit.Set, o *audit.Options) { o.MaxListed = 2 })
	if rep.Counts.Missing != 5 || len(rep.Missing) != 2 || rep.Counts.Unlisted != 3 {
		t.Errorf("counts %+v, %d listed", rep.Counts, len(rep.Missing))
	}
}

func TestSourceUnreachable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault func(h *harness)
		is    error
	}{
		{"resource list", func(h *harness) {
			h.Src.SetFault("/dataset1/resourcelist.xml", fixtures.Fault{Status: []int{503, 503, 503, 503}})
		}, resourcesync.ErrUnavailable},
		{"change list", func(h *harness) { h.Src.SetNotFound("/dataset1/changelist.xml") }, resourcesync.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.baseline(0, nil)
			os.Remove(h.file(h.rel(h.Src.Resources(0)[0].URI)))
			tc.fault(h)
			sr, rep, err := h.audit(0, nil)
			if !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want %v", err, tc.is)
			}
			if rep.InSync || len(rep.Missing) != 0 || rep.Counts != (audit.Counts{Errors: 1}) {
				t.Errorf("a set that could not be audited has findings: %+v %+v", rep.Counts, rep.Missing)
			}
			if len(rep.Errors) != 1 || rep.Errors[0].CapabilityList != sr.CapabilityList || sr.Error == "" {
				t.Errorf("errors %+v, set error %q", rep.Errors, sr.Error)
			}
		})
	}
}

func get(t *testing.T, u string) []byte {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", u, resp.StatusCode, err)
	}
	return b
}

// Memory does not grow with the number of resources: auditing an empty
// mirror (every resource missing, few kept for the report) against
// 200,000 listed resources takes about the live heap it takes against
// 10,000: what is in flight (a batch of the listing, a document being
// read), which comes and goes. Keeping the listed entries in memory would
// add ~75 MB for the whole comparison, most of the run: the median of
// the samples would show it.
func TestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 200,000-resource Source")
	}
	small, large := auditHeapGrowth(t, 10_000), auditHeapGrowth(t, 200_000)
	t.Logf("live heap growth, median (max) of the samples: %.1f MB (%.1f MB) auditing 10,000 resources, %.1f MB (%.1f MB) auditing 200,000",
		mb(small.median), mb(small.max), mb(large.median), mb(large.max))
	if large.median > small.median+24<<20 {
		t.Errorf("the heap grows with the number of resources")
	}
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

type heapGrowth struct{ median, max int64 }

// auditHeapGrowth audits an empty mirror of an n-resource Source and
// returns how much the live heap grew, sampled every few milliseconds.
func auditHeapGrowth(t *testing.T, n int) heapGrowth {
	h := newHarness(t, func(s *fixtures.Spec) {
		s.Resources, s.SizeMin, s.SizeMax, s.ListMax = n, 16, 16, 5_000
	})
	// Render and cache the Source's documents first: the fixture keeps
	// them in this process's heap.
	get(t, h.Src.ResourceListURL(0))
	get(t, h.Src.ChangeListURL(0))
	get(t, h.Src.ChangeListURL(0)[:len(h.Src.ChangeListURL(0))-len(".xml")]+"-1.xml")
	for i := range n / 5_000 {
		get(t, fmt.Sprintf("%sdataset1/resourcelist-%d.xml", h.Src.URL(), i+1))
	}
	before := int64(liveHeap())
	var samples []int64
	done, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
				samples = append(samples, int64(liveHeap())-before)
			}
		}
	}()
	_, rep, err := h.audit(0, func(_ *audit.Set, o *audit.Options) { o.MaxListed = 10 })
	close(done)
	<-sampled
	if err != nil || rep.Counts.Missing != int64(n) || len(rep.Missing) != 10 {
		t.Fatalf("%v %+v", err, rep.Counts)
	}
	if len(samples) == 0 {
		samples = append(samples, int64(liveHeap())-before)
	}
	slices.Sort(samples)
	return heapGrowth{median: samples[len(samples)/2], max: samples[len(samples)-1]}
}

// liveHeap collects and returns the bytes the collection found live (what
// is allocated while it runs does not count).
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
