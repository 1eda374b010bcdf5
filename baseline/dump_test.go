package baseline_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// zipPaths are the URL paths of the fixture dump's packages.
func zipPaths(n int) []string {
	var out []string
	for i := range n {
		out = append(out, "/dataset1/resourcedump-"+string(rune('1'+i))+".zip")
	}
	return out
}

func TestDumpCopyThenSkip(t *testing.T) {
	h := newDumpHarness(t, nil)
	tmp := t.TempDir()
	sum := h.mustRunDump("", tmp, nil)
	if sum.Created != 60 || sum.Listed != 60 || sum.Failed != 0 || !sum.ListComplete || sum.Packages != 3 || sum.Via != "dump" {
		t.Fatalf("first run: %+v packages %d via %s", sum.Counts, sum.Packages, sum.Via)
	}
	h.AssertIdentical()
	assertEmptyDir(t, tmp)
	if n := h.Src.ResourceBodies(); n != 0 {
		t.Errorf("%d resources fetched one by one; the dump holds them all", n)
	}
	st, _, err := h.DB.Set(context.Background(), h.set.CapabilityList)
	if err != nil || !st.BaselineAt.Equal(h.Src.At()) || st.Via != "dump" {
		t.Fatalf("baseline point %v via %q (err %v), want the dump's at %v", st.BaselineAt, st.Via, err, h.Src.At())
	}
	r := h.Src.Resources(0)[7]
	if info, err := os.Stat(h.PathOf(r.URI)); err != nil || !info.ModTime().Equal(r.LastMod) {
		t.Errorf("mtime %v, want the lastmod %v (%v)", info.ModTime(), r.LastMod, err)
	}

	// Everything held: the manifest copies say so, no package is fetched.
	h.Src.ResetCounts()
	sum = h.mustRunDump("", tmp, nil)
	if sum.Unchanged != 60 || sum.Created+sum.Updated != 0 || sum.PackagesSkipped != 3 || sum.Packages != 0 {
		t.Fatalf("second run: %+v, %d packages, %d skipped", sum.Counts, sum.Packages, sum.PackagesSkipped)
	}
	for _, p := range zipPaths(3) {
		if n := h.Src.Requests(p); n != 0 {
			t.Errorf("%s fetched %d times though every entry is held", p, n)
		}
	}

	// One file lost: only its package is fetched, only it is written.
	lost := h.Src.Resources(0)[25] // in the second package
	if err := os.Remove(h.PathOf(lost.URI)); err != nil {
		t.Fatal(err)
	}
	h.Src.ResetCounts()
	sum = h.mustRunDump("", tmp, func(o *baseline.Options) { o.Checksum = true })
	if sum.Created != 1 || sum.Unchanged != 59 || sum.Packages != 1 || sum.PackagesSkipped != 2 {
		t.Fatalf("after a loss: %+v, %d packages, %d skipped", sum.Counts, sum.Packages, sum.PackagesSkipped)
	}
	if n := h.Src.Requests(zipPaths(3)[1]); n != 1 {
		t.Errorf("the package holding the lost file fetched %d times", n)
	}
	h.AssertIdentical()
	assertEmptyDir(t, tmp)
}

func TestDumpIndex(t *testing.T) {
	h := newDumpHarness(t, func(s *fixtures.Spec) { s.Resources, s.DumpPackages, s.DumpMax = 50, 5, 2 })
	tmp := t.TempDir()
	sum := h.mustRunDump("", tmp, nil)
	if sum.Created != 50 || sum.Packages != 5 || !sum.ListComplete || !sum.At.Equal(h.Src.At()) {
		t.Fatalf("%+v, %d packages, at %v", sum.Counts, sum.Packages, sum.At)
	}
	h.AssertIdentical()
	assertEmptyDir(t, tmp)
}

// A baseline limited to one package (a worker's share of a split one)
// downloads and applies that package only, even behind a Resource Dump
// Index, and records no baseline point; the whole baseline after it skips
// that package by its manifest copy.
func TestDumpOnePackage(t *testing.T) {
	h := newDumpHarness(t, func(s *fixtures.Spec) { s.Resources, s.DumpPackages, s.DumpMax = 50, 5, 2 })
	tmp := t.TempDir()
	pkgs := zipPaths(5)
	sum := h.mustRunDump("", tmp, func(o *baseline.Options) { o.Package = h.Src.URI(pkgs[3]) })
	if sum.Created != 10 || sum.Packages != 1 || sum.ListComplete {
		t.Fatalf("one package: %+v, %d packages, list complete %v", sum.Counts, sum.Packages, sum.ListComplete)
	}
	for i, p := range pkgs {
		if n, want := h.Src.Requests(p), map[bool]int{true: 1, false: 0}[i == 3]; n != want {
			t.Errorf("%s requested %d times, want %d", p, n, want)
		}
	}
	if st, _, err := h.DB.Set(context.Background(), h.set.CapabilityList); err != nil || st.Baselined() {
		t.Fatalf("a baseline of one package recorded a baseline point (%v)", err)
	}
	h.Src.ResetCounts()
	sum = h.mustRunDump("", tmp, nil)
	if sum.Created != 40 || sum.Unchanged != 10 || sum.PackagesSkipped != 1 || !sum.ListComplete {
		t.Fatalf("the whole baseline after it: %+v, %d skipped", sum.Counts, sum.PackagesSkipped)
	}
	if n := h.Src.Requests(pkgs[3]); n != 0 {
		t.Errorf("the package already applied was downloaded again (%d)", n)
	}
	h.AssertIdentical()
	assertEmptyDir(t, tmp)
}

// TestDumpManifestPaths: the standard's leading "/" and its absence both
// find the bitstream; where it goes is decided by the URI.
func TestDumpManifestPaths(t *testing.T) {
	h := newDumpHarness(t, nil)
	a, b := []byte("with a leading slash"), []byte("without one")
	url := serveDump(t, h.Src, "paths",
		pkgSpec{members: []member{{uri: h.Src.URI("/custom/res/a.txt"), path: "/resources/a.txt", body: a}},
			files: []zfile{{Name: "resources/a.txt", Body: a}}},
		pkgSpec{members: []member{{uri: h.Src.URI("/custom/res/b.txt"), path: "deep/in/the/zip/b", body: b}},
			files: []zfile{{Name: "deep/in/the/zip/b", Body: b}}, noCopy: true},
	)
	tmp := t.TempDir()
	sum := h.mustRunDump(url, tmp, nil)
	if sum.Created != 2 || sum.Failed != 0 {
		t.Fatalf("%+v", sum.Counts)
	}
	for uri, want := range map[string][]byte{h.Src.URI("/custom/res/a.txt"): a, h.Src.URI("/custom/res/b.txt"): b} {
		if got, err := os.ReadFile(h.PathOf(uri)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %q %v", uri, got, err)
		}
	}
	assertEmptyDir(t, tmp)
}

// TestDumpVerificationFailure: a bitstream that does not match its
// manifest fails alone; the rest of the package is applied.
func TestDumpVerificationFailure(t *testing.T) {
	h := newDumpHarness(t, nil)
	good, promised, served := []byte("good"), []byte("what the manifest promises"), []byte("what the package really has")
	bad := h.Src.URI("/custom/res/bad")
	url := serveDump(t, h.Src, "verify", pkgSpec{
		members: []member{
			{uri: h.Src.URI("/custom/res/one"), path: "/one", body: good},
			{uri: bad, path: "/bad", body: promised},
			{uri: h.Src.URI("/custom/res/two"), path: "/two", body: good},
		},
		files: []zfile{{Name: "one", Body: good}, {Name: "bad", Body: served}, {Name: "two", Body: good}},
	})
	tmp := t.TempDir()
	sum, err := h.runDump(url, tmp, nil)
	if err != nil {
		t.Fatalf("a bad bitstream stopped the run: %v", err)
	}
	if sum.Created != 2 || sum.Failed != 1 || sum.Failures[0].URI != bad || !strings.Contains(sum.Failures[0].Cause, "does not match") {
		t.Fatalf("%+v %+v", sum.Counts, sum.Failures)
	}
	if _, err := os.Stat(h.PathOf(bad)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the bad bitstream was written: %v", err)
	}
	fails, _ := h.DB.Failures(context.Background(), h.set.ID)
	if len(fails) != 1 || fails[0].URI != bad {
		t.Errorf("state failures %+v", fails)
	}
	assertEmptyDir(t, tmp)
}

// TestDumpHostilePackage: whatever names a package holds, nothing is
// written outside the mirror, each hostile member fails alone with a
// reason, and a bomb is stopped.
func TestDumpHostilePackage(t *testing.T) {
	h := newDumpHarness(t, nil)
	outside := filepath.Dir(h.Dest)
	for _, c := range []string{"canary.txt", "etc/passwd", "mirror-sibling/x"} {
		p := filepath.Join(outside, c)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("canary "+c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmp := filepath.Join(outside, "tmp")
	os.Mkdir(tmp, 0o755)
	before := treeOutside(t, outside, h.Dest)

	evil, good := []byte("evil"), []byte("good")
	uri := func(n string) string { return h.Src.URI("/custom/res/" + n) }
	members := []member{
		{uri: uri("good"), path: "/good", body: good},
		{uri: uri("slip"), path: "/../canary.txt", body: evil},
		{uri: uri("slip2"), path: "/../../mirror-sibling/x", body: evil},
		{uri: uri("absolute"), path: "//etc/passwd", body: evil},
		{uri: uri("backslash"), path: "/..\\canary.txt", body: evil},
		{uri: uri("symlink"), path: "/link", body: []byte("../etc/passwd")},
		{uri: uri("twice"), path: "/twice", body: evil},
		{uri: uri("long"), path: "/long", body: evil},
		{uri: uri("bomb"), path: "/bomb", body: make([]byte, 4096)},
	}
	files := []zfile{
		{Name: "good", Body: good},
		{Name: "../canary.txt", Body: evil},
		{Name: "../../mirror-sibling/x", Body: evil},
		{Name: "/etc/passwd", Body: evil},
		{Name: "..\\canary.txt", Body: evil},
		{Name: "link", Body: []byte("../etc/passwd"), Mode: fs.ModeSymlink},
		{Name: "twice", Body: evil},
		{Name: "twice", Body: good},
		{Name: "long", Body: append(bytes.Clone(evil), bytes.Repeat([]byte("!"), 1<<20)...)},
		{Name: "bomb", Raw: deflateBomb(1 << 30), Declared: 4096},
		{Name: "../unnamed", Body: evil}, // named by no entry: never read
	}
	url := serveDump(t, h.Src, "hostile", pkgSpec{members: members, files: files})
	sum, err := h.runDump(url, tmp, nil)
	if err != nil {
		t.Fatalf("hostile members stopped the run: %v", err)
	}
	if sum.Created != 1 || sum.Failed != int64(len(members)-1) {
		t.Fatalf("%+v %+v", sum.Counts, sum.Failures)
	}
	causes := map[string]string{}
	for _, f := range sum.Failures {
		causes[f.URI] = f.Cause
	}
	for n, want := range map[string]string{"slip": "unsafe name", "slip2": "unsafe name", "absolute": "unsafe name",
		"backslash": "unsafe name", "symlink": "not a regular file", "twice": "more than one", "long": "length", "bomb": ""} {
		if c, ok := causes[uri(n)]; !ok || !strings.Contains(c, want) {
			t.Errorf("%s: cause %q, want it to say %q", n, c, want)
		}
		if _, err := os.Stat(h.PathOf(uri(n))); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s was written: %v", n, err)
		}
	}
	if got, _ := os.ReadFile(h.PathOf(uri("good"))); !bytes.Equal(got, good) {
		t.Errorf("good member: %q", got)
	}
	after := treeOutside(t, outside, h.Dest)
	for p, s := range after {
		if before[p] != s {
			t.Errorf("written outside the mirror: %s", p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("removed outside the mirror: %s", p)
		}
	}
	assertEmptyDir(t, tmp)
}

// TestDumpMaxSize: a package over --max-dump-size is refused: before it is
// downloaded when the dump gives its length, before anything is extracted
// when it inflates past it. With a manifest copy its entries are fetched
// one by one; without one the run says the dump was not completely
// applied.
func TestDumpMaxSize(t *testing.T) {
	h := newDumpHarness(t, nil)
	tmp := t.TempDir()
	sum := h.mustRunDump("", tmp, func(o *baseline.Options) { o.Dump.MaxSize = 1000 })
	if sum.Created != 60 || sum.Packages != 0 || h.Src.ResourceBodies() != 60 {
		t.Fatalf("%+v, %d packages, %d fetched one by one", sum.Counts, sum.Packages, h.Src.ResourceBodies())
	}
	for _, p := range zipPaths(3) {
		if n := h.Src.Requests(p); n != 0 {
			t.Errorf("an oversized package was fetched %d times", n)
		}
	}

	big := bytes.Repeat([]byte("big "), 1000)
	url := serveDump(t, h.Src, "big", pkgSpec{members: []member{{uri: h.Src.URI("/custom/res/big"), path: "/big", body: big}},
		files: []zfile{{Name: "big", Body: big}}, noCopy: true})
	sum, err := h.runDump(url, tmp, func(o *baseline.Options) { o.Dump.MaxSize = 1000 })
	if !errors.Is(err, dumpzip.ErrTooLarge) || sum.ListComplete || sum.Created != 0 {
		t.Fatalf("err %v, %+v", err, sum.Counts)
	}
	// Small compressed, it was fetched, then refused for what it would
	// inflate to, before anything was extracted.
	if _, err := os.Stat(h.PathOf(h.Src.URI("/custom/res/big"))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a member of a refused package was written: %v", err)
	}
	assertEmptyDir(t, tmp)
}

// TestDumpPackageFailures: a package that cannot be used is replaced by
// its manifest copy (its entries fetched one by one); without a copy the
// dump is incomplete: the other packages are applied, nothing is deleted,
// no baseline point is recorded.
func TestDumpPackageFailures(t *testing.T) {
	t.Run("corrupt package with a copy", func(t *testing.T) {
		h := newDumpHarness(t, nil)
		tmp := t.TempDir()
		h.Src.SetFault(zipPaths(3)[1], fixtures.Fault{Body: fixtures.FlipByte, At: 300})
		sum := h.mustRunDump("", tmp, nil)
		if sum.Created != 60 || sum.Packages != 2 || !sum.ListComplete {
			t.Fatalf("%+v, %d packages", sum.Counts, sum.Packages)
		}
		if n := h.Src.ResourceBodies(); n != 20 {
			t.Errorf("%d resources fetched one by one, want the 20 of the broken package", n)
		}
		h.AssertIdentical()
		assertEmptyDir(t, tmp)
	})
	t.Run("missing package without a copy", func(t *testing.T) {
		h := newDumpHarness(t, nil)
		tmp := t.TempDir()
		a := []byte("a")
		url := serveDump(t, h.Src, "gone",
			pkgSpec{members: []member{{uri: h.Src.URI("/custom/res/a"), path: "/a", body: a}}, files: []zfile{{Name: "a", Body: a}}, noCopy: true},
			pkgSpec{members: []member{{uri: h.Src.URI("/custom/res/b"), path: "/b", body: a}}, files: []zfile{{Name: "b", Body: a}}, noCopy: true},
			pkgSpec{zip: []byte("not a zip"), noCopy: true},
		)
		h.Src.SetNotFound("/custom/gone/p2.zip")
		extra := filepath.Join(h.Dest, strings.TrimPrefix(filepath.Dir(h.PathOf(h.Src.URI("/custom/res/a"))), h.Dest), "extra")
		os.MkdirAll(filepath.Dir(extra), 0o755)
		os.WriteFile(extra, []byte("not in the dump"), 0o644)
		sum, err := h.runDump(url, tmp, func(o *baseline.Options) { o.Delete = true; o.MaxDelete = transfer.DeleteLimit{Count: 100} })
		if !errors.Is(err, resourcesync.ErrNotFound) || !strings.Contains(err.Error(), "2 of 3 packages") {
			t.Fatalf("err %v", err)
		}
		if sum.Created != 1 || sum.ListComplete || sum.Deleted != 0 {
			t.Fatalf("%+v", sum.Counts)
		}
		if _, err := os.Stat(extra); err != nil {
			t.Errorf("a file was deleted though the dump was not completely read: %v", err)
		}
		if st, _, _ := h.DB.Set(context.Background(), h.set.CapabilityList); st.Baselined() {
			t.Errorf("an incomplete dump recorded a baseline point")
		}
		assertEmptyDir(t, tmp)
	})
}

// cancellingMirror cancels the run's context at the n-th staged file: a
// user's interruption in the middle of a package.
type cancellingMirror struct {
	baseline.Mirror
	n      int
	cancel context.CancelFunc
	puts   chan struct{}
}

func (m *cancellingMirror) Put(rel string, mtime time.Time, fill func(resourcesync.Sink) (bool, error)) (string, error) {
	select {
	case m.puts <- struct{}{}:
	default:
		m.cancel()
	}
	return m.Mirror.Put(rel, mtime, fill)
}

func TestDumpCancelledInsidePackage(t *testing.T) {
	// Cancelled inside the first of three packages, while the next may be
	// downloaded already: neither is left behind.
	h := newDumpHarness(t, nil)
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &cancellingMirror{Mirror: h.Mirror, cancel: cancel, puts: make(chan struct{}, 10)}
	set := h.set
	set.ResourceDump = h.Src.ResourceDumpURL(0)
	d := h.deps()
	d.Mirror, d.TempDir = m, tmp
	o := baseline.DefaultOptions()
	o.Workers, o.BatchSize = 2, 4
	o.Scope = resourcesync.NewScope([]string{h.Src.URL()}, nil)
	sum, err := baseline.Run(ctx, set, d, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v (%+v)", err, sum.Counts)
	}
	if sum.Created >= 60 {
		t.Fatalf("the run was not interrupted: %+v", sum.Counts)
	}
	assertEmptyDir(t, tmp)
	// Resume in a new session (the old one's staged files are discarded):
	// what was recorded is not done again.
	h.reopen(false)
	held, _ := h.DB.HeldCount(context.Background(), h.set.ID)
	sum = h.mustRunDump("", tmp, nil)
	if sum.Created != 60-held || sum.Unchanged != held {
		t.Fatalf("resume after %d held: %+v", held, sum.Counts)
	}
	h.AssertIdentical()
}

func TestDumpDeleteAndDryRun(t *testing.T) {
	h := newDumpHarness(t, nil)
	tmp := t.TempDir()
	h.mustRunDump("", tmp, nil)
	gone := h.Src.Resources(0)[3]
	if err := h.Src.Apply(h.Src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Delete, Path: gone.Path},
		fixtures.Mutation{Kind: fixtures.Update, Path: h.Src.Resources(0)[40].Path}); err != nil {
		t.Fatal(err)
	}

	// A dry run writes nothing, and reads the manifest copies rather than
	// the packages.
	h.reopen(true)
	before := fixtures.TreeSnapshot(t, h.Dest, false)
	h.Src.ResetCounts()
	var plan bytes.Buffer
	sum := h.mustRunDump("", tmp, func(o *baseline.Options) { o.DryRun, o.Delete, o.Plan = true, true, &plan })
	if sum.Updated != 1 || sum.WouldDelete != 1 || sum.Unchanged != 58 {
		t.Fatalf("dry run: %+v would delete %d", sum.Counts, sum.WouldDelete)
	}
	if fixtures.TreeSnapshot(t, h.Dest, false) != before {
		t.Error("the dry run wrote to the mirror or the state")
	}
	for _, p := range zipPaths(3) {
		if n := h.Src.Requests(p); n != 0 {
			t.Errorf("the dry run fetched %s", p)
		}
	}
	if !strings.Contains(plan.String(), "update ") || !strings.Contains(plan.String(), "delete ") {
		t.Errorf("plan:\n%s", plan.String())
	}
	assertEmptyDir(t, tmp)

	h.reopen(false)
	sum = h.mustRunDump("", tmp, func(o *baseline.Options) { o.Delete = true })
	if sum.Deleted != 1 || sum.Updated != 1 || sum.Unchanged != 58 {
		t.Fatalf("with --delete: %+v", sum.Counts)
	}
	h.AssertIdentical()
	st, _, _ := h.DB.Set(context.Background(), h.set.CapabilityList)
	if !st.BaselineAt.Equal(h.Src.At()) {
		t.Errorf("baseline point %v, want %v", st.BaselineAt, h.Src.At())
	}
	assertEmptyDir(t, tmp)
}

// TestDumpLocalFault: no room for a package stops the run as a local
// fault, with nothing left behind.
func TestDumpLocalFault(t *testing.T) {
	h := newDumpHarness(t, nil)
	tmp := t.TempDir()
	_, err := h.runDump("", tmp, func(o *baseline.Options) {
		o.Dump.FreeSpace = func(string) (int64, error) { return 1000, nil }
	})
	if !errors.Is(err, resourcesync.ErrLocal) || !transfer.Fatal(err) {
		t.Fatalf("err %v", err)
	}
	assertEmptyDir(t, tmp)
}
