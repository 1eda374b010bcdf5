package state

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func newListing(t testing.TB) *Listing {
	t.Helper()
	l, err := NewListing(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func listingPaths(t testing.TB, l *Listing) []string {
	t.Helper()
	var out []string
	if err := l.Each(func(e ListingEntry) error {
		out = append(out, e.Path)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestListingByteOrder(t *testing.T) {
	l := newListing(t)
	// '-' (0x2d) < '.' (0x2e) < '/' (0x2f): "a-b" sorts before "a/b", unlike a
	// directory walk that visits a/ before a-b.
	in := []string{"a/b", "a-b", "a.b", "a", "a/b/c", "a0", "B", "b", "é", "e", "a b", "\x01"}
	for _, p := range in {
		if err := l.Add(ListingEntry{Path: p, URI: "http://example.org/" + p}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"\x01", "B", "a", "a b", "a-b", "a.b", "a/b", "a/b/c", "a0", "b", "e", "é"}
	if got := listingPaths(t, l); !reflect.DeepEqual(got, want) {
		t.Errorf("Each order\n%q\nwant\n%q", got, want)
	}
	if l.Len() != int64(len(in)) {
		t.Errorf("Len = %d, want %d", l.Len(), len(in))
	}
}

func TestListingDuplicatesKeepTheLast(t *testing.T) {
	l := newListing(t)
	lastmod := time.Date(2013, 1, 2, 3, 4, 5, 6, time.UTC)
	fix := mustFixity(t, "md5:1e0d5cb8ef6ba40c99b14c0237be735e")
	// One duplicate within a pending batch, one across a flush.
	add := func(p, uri string, m ListingEntry) {
		t.Helper()
		m.Path, m.URI = p, uri
		if err := l.Add(m); err != nil {
			t.Fatal(err)
		}
	}
	add("x", "http://example.org/x1", ListingEntry{Length: 1, HasLength: true})
	add("x", "http://example.org/x2", ListingEntry{Length: 2, HasLength: true, Fixity: fix})
	add("y", "http://example.org/y1", ListingEntry{Fixity: fix})
	if ok, err := l.Has("y"); err != nil || !ok { // flushes
		t.Fatalf("Has(y) = %v, %v", ok, err)
	}
	add("y", "http://example.org/y2", ListingEntry{LastMod: lastmod})
	if n := l.Len(); n != 2 {
		t.Errorf("Len = %d, want 2 distinct paths", n)
	}
	x, ok, err := l.Get("x")
	wantX := ListingEntry{Path: "x", URI: "http://example.org/x2", Length: 2, HasLength: true, Fixity: fix}
	if err != nil || !ok || !reflect.DeepEqual(x, wantX) {
		t.Errorf("Get(x) = %+v, %v, %v; want %+v", x, ok, err, wantX)
	}
	y, ok, err := l.Get("y")
	wantY := ListingEntry{Path: "y", URI: "http://example.org/y2", LastMod: lastmod}
	if err != nil || !ok || !reflect.DeepEqual(y, wantY) {
		t.Errorf("Get(y) = %+v, %v, %v; want %+v", y, ok, err, wantY)
	}
	if _, ok, err := l.Get("z"); err != nil || ok {
		t.Errorf("Get(z) = %v, %v; want absent", ok, err)
	}
	if ok, err := l.Has("z"); err != nil || ok {
		t.Errorf("Has(z) = %v, %v; want false", ok, err)
	}
	if err := l.Add(ListingEntry{Path: "", URI: "http://example.org/"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Add of an empty path = %v, want ErrInvalid", err)
	}
}

// Remove forgets a path whether its add is still pending or written, and
// Len counts what is left.
func TestListingRemove(t *testing.T) {
	l := newListing(t)
	for _, p := range []string{"a", "b", "c"} {
		if err := l.Add(ListingEntry{Path: p, URI: "http://example.org/" + p}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Remove("b"); err != nil { // "b" is still pending
		t.Fatal(err)
	}
	if err := l.Remove("nowhere"); err != nil {
		t.Fatalf("Remove of an absent path = %v", err)
	}
	if err := l.Add(ListingEntry{Path: "d", URI: "http://example.org/d"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Remove("a"); err != nil { // written by the flush of the last Remove
		t.Fatal(err)
	}
	if got, want := listingPaths(t, l), []string{"c", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after removes: %q, want %q", got, want)
	}
	if n := l.Len(); n != 2 {
		t.Errorf("Len = %d, want 2", n)
	}
	if err := l.Add(ListingEntry{Path: "a", URI: "http://example.org/a2"}); err != nil {
		t.Fatal(err)
	}
	if e, ok, err := l.Get("a"); err != nil || !ok || e.URI != "http://example.org/a2" {
		t.Errorf("re-added a: %+v, %v, %v", e, ok, err)
	}
	if n := l.Len(); n != 3 {
		t.Errorf("Len = %d after adding a again, want 3", n)
	}
	l.Close()
	if err := l.Remove("c"); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Remove after Close = %v, want fs.ErrClosed", err)
	}
}

// Each over 100,000 entries keeps memory flat: the live heap does not grow
// with the number of entries walked (they would take ~30 MB if kept).
func TestListingEachLargeFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 entries")
	}
	const n = 100_000
	l := newListing(t)
	long := string(bytes.Repeat([]byte("x"), 100))
	pathOf := func(i int) string { return fmt.Sprintf("example.org/%s/%07d", long, (i*7919)%n) } // added out of order
	for i := range n {
		if err := l.Add(ListingEntry{Path: pathOf(i), URI: "http://" + pathOf(i), Length: int64(i), HasLength: true}); err != nil {
			t.Fatal(err)
		}
	}
	if l.Len() != n {
		t.Fatalf("Len = %d, want %d", l.Len(), n)
	}
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	base := live()
	var peak uint64
	i, prev := 0, ""
	err := l.Each(func(e ListingEntry) error {
		if e.Path <= prev {
			return fmt.Errorf("entry %d: %q after %q", i, e.Path, prev)
		}
		prev = e.Path
		i++
		if i%10_000 == 0 {
			peak = max(peak, live())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if i != n {
		t.Fatalf("Each gave %d entries, want %d", i, n)
	}
	const bound = 4 << 20
	if peak > base+bound {
		t.Errorf("live heap grew from %d to %d bytes during Each (bound %d)", base, peak, bound)
	}
	t.Logf("live heap %d KiB before Each, peak %d KiB during", base>>10, peak>>10)
}

func TestListingEachNestedAndStop(t *testing.T) {
	l := newListing(t)
	for i := range listingPage + 10 {
		if err := l.Add(ListingEntry{Path: fmt.Sprintf("%05d", i), URI: "u"}); err != nil {
			t.Fatal(err)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := l.Each(func(e ListingEntry) error {
		if ok, err := l.Has(e.Path); err != nil || !ok { // no lock held across fn
			return fmt.Errorf("Has(%s) = %v, %v", e.Path, ok, err)
		}
		n++
		if n == listingPage+5 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("Each = %v, want the callback's error", err)
	}
}

func TestListingFileLifecycle(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir) // NewListing("") uses os.TempDir()
	l, err := NewListing("")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Add(ListingEntry{Path: "a", URI: "u"}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "resync-dest-listing-*.db"))
	if len(files) != 1 {
		t.Fatalf("listing files in TMPDIR: %v", files)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left after Close: %v", entries)
	}
	if err := l.Add(ListingEntry{Path: "b", URI: "u"}); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Add after Close = %v, want fs.ErrClosed", err)
	}
	if _, err := l.Has("a"); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Has after Close = %v, want fs.ErrClosed", err)
	}
	if _, err := NewListing(filepath.Join(dir, "missing")); err == nil {
		t.Error("NewListing in a missing directory succeeded")
	}
}

// Whatever paths are added, Each yields them once each in byte order, and
// Get returns the last URI added for each.
func FuzzListing(f *testing.F) {
	f.Add([]byte("a/b\na-b\na\na/b\n\xff\x00z"))
	f.Add([]byte("é\ne\n\n\nE"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := NewListing(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		last := map[string]string{}
		for i, p := range bytes.Split(data, []byte("\n")) {
			if len(p) == 0 {
				continue
			}
			uri := fmt.Sprintf("u%d", i)
			if err := l.Add(ListingEntry{Path: string(p), URI: uri, Fixity: resourcesync.Fixity{}}); err != nil {
				t.Fatal(err)
			}
			last[string(p)] = uri
		}
		var want []string
		for p := range last {
			want = append(want, p)
		}
		sort.Strings(want)
		var got []string
		if err := l.Each(func(e ListingEntry) error {
			got = append(got, e.Path)
			if e.URI != last[e.Path] {
				return fmt.Errorf("%q: URI %s, want %s", e.Path, e.URI, last[e.Path])
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Each = %q, want %q", got, want)
		}
		if l.Len() != int64(len(want)) {
			t.Fatalf("Len = %d, want %d", l.Len(), len(want))
		}
	})
}
