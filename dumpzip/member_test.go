package dumpzip

import (
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// onePackage opens a package whose manifest lists items and whose ZIP holds
// files besides the manifest.
func onePackage(t *testing.T, o Options, items []item, files ...zfile) *Package {
	t.Helper()
	files = append([]zfile{{Name: "manifest.xml", Body: manifest(t, resourcesync.CapResourceDumpManifest, items...)}}, files...)
	p, err := openBytes(t, buildZip(t, files...), resourcesync.CapResourceDumpManifest, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestVerification(t *testing.T) {
	body := []byte("the bytes the manifest describes")
	other := []byte("the bytes the manifest DEscribes") // same length
	for _, tc := range []struct {
		name string
		it   item
		file zfile
	}{
		{"hash differs", item{path: "/x", body: body}, zfile{Name: "x", Body: other}},
		{"hash differs, deflated", item{path: "/x", body: body}, zfile{Name: "x", Body: other, Deflate: true}},
		{"longer than its length", item{path: "/x", body: body}, zfile{Name: "x", Body: append(bytes.Clone(body), "more"...)}},
		{"shorter than its length", item{path: "/x", body: body}, zfile{Name: "x", Body: body[:10]}},
		{"no length, hash differs", item{path: "/x", body: body, noLen: true}, zfile{Name: "x", Body: other}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.it.loc = "http://example.org/x"
			p := onePackage(t, testOptions(), []item{tc.it}, tc.file)
			ms := members(t, p)
			var s memSink
			_, err := ms[0].Download(context.Background(), resourcesync.Fetch{URL: tc.it.loc, Hash: ms[0].Entry.MD.Hash,
				Length: ms[0].Entry.MD.Length, HasLength: ms[0].Entry.MD.HasLength}, &s)
			var me *resourcesync.MismatchError
			if !errors.As(err, &me) || !errors.Is(err, resourcesync.ErrMismatch) {
				t.Fatalf("err %v, want a mismatch", err)
			}
		})
	}

	// A Fetch without a length is bounded by the entry's own length.
	p := onePackage(t, testOptions(), []item{{loc: "http://example.org/x", path: "/x", body: body}},
		zfile{Name: "x", Body: append(bytes.Clone(body), "more"...)})
	var s memSink
	if _, err := members(t, p)[0].Download(context.Background(), resourcesync.Fetch{URL: "http://example.org/x"}, &s); !errors.Is(err, resourcesync.ErrMismatch) {
		t.Errorf("no length in the fetch: %v", err)
	}

	// Extra algorithms are computed for the record.
	p = onePackage(t, testOptions(), []item{{loc: "http://example.org/x", path: "/x", body: body, fix: resourcesync.Fixity{}}}, zfile{Name: "x", Body: body})
	got, err := members(t, p)[0].Download(context.Background(), resourcesync.Fetch{URL: "http://example.org/x", ExtraAlgs: []string{resourcesync.AlgSHA1}}, &s)
	if _, ok := got.Sums.Get(resourcesync.AlgSHA1); err != nil || !ok {
		t.Errorf("extra algorithm: %v %v", got.Sums, err)
	}
}

// TestDeflateBombStopsEarly: a member of a few hundred kilobytes that
// inflates to 1 GiB is stopped right past its manifest length, whatever the
// ZIP directory claims, and memory stays small.
func TestDeflateBombStopsEarly(t *testing.T) {
	const gig = 1 << 30
	bomb := deflateBomb(gig) // about 1 MiB
	const length = 4096
	loc := "http://example.org/bomb"
	for _, tc := range []struct {
		name     string
		declared uint64 // what the ZIP directory claims
		noLen    bool   // the manifest gives no length
		trust    uint64 // pretend archive/zip believed this size (0: leave it)
		o        func(*Options)
		want     error
		sinkMax  int64 // bytes that may reach the sink
	}{
		{name: "directory claims the manifest length", declared: length, want: errAny, sinkMax: length},
		{name: "directory tells the truth", declared: gig, want: resourcesync.ErrMismatch, sinkMax: 0},
		// Below archive/zip's own size check: our bounds alone stop it.
		{name: "our length bound", declared: length, trust: 1 << 62, want: resourcesync.ErrMismatch, sinkMax: length},
		{name: "our bound without a length", declared: length, trust: 1 << 62, noLen: true,
			o: func(o *Options) { o.MaxEntrySize = 1 << 20 }, want: ErrTooLarge, sinkMax: 1 << 20},
		{name: "our package bound", declared: length, trust: 1 << 62, noLen: true,
			o: func(o *Options) { o.MaxSize = 2 << 20 }, want: ErrTooLarge, sinkMax: 2 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := testOptions()
			if tc.o != nil {
				tc.o(&o)
			}
			p := onePackage(t, o, []item{{loc: loc, path: "/bomb", body: make([]byte, length), noLen: tc.noLen, fix: resourcesync.Fixity{}}},
				zfile{Name: "bomb", Raw: bomb, Declared: tc.declared})
			m := members(t, p)[0]
			if tc.trust != 0 {
				m.file.UncompressedSize64 = tc.trust
			}
			var s countSink
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := m.Download(context.Background(), resourcesync.Fetch{URL: loc, Length: m.Entry.MD.Length, HasLength: m.Entry.MD.HasLength}, &s)
			runtime.ReadMemStats(&after)
			if err == nil || (tc.want != errAny && !errors.Is(err, tc.want)) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if s.n > tc.sinkMax {
				t.Errorf("%d bytes reached the sink, at most %d may", s.n, tc.sinkMax)
			}
			if read := p.inflated.Load(); read > tc.sinkMax+1 {
				t.Errorf("%d bytes inflated before stopping; the bound is %d", read, tc.sinkMax+1)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
				t.Errorf("%d bytes allocated while reading a bomb", alloc)
			}
		})
	}
}

// errAny accepts any error: which layer stops the bomb first does not
// matter, only that it is stopped.
var errAny = errors.New("any error")

// countSink counts what it is given and keeps nothing.
type countSink struct{ n int64 }

func (s *countSink) Write(b []byte) (int, error) { s.n += int64(len(b)); return len(b), nil }
func (s *countSink) Reset() error                { s.n = 0; return nil }

// TestPackageBudget: members within their own bounds, but together more
// than MaxSize, are stopped once the package's budget is spent, even when
// the ZIP directory hides their size.
func TestPackageBudget(t *testing.T) {
	bomb := deflateBomb(600 << 10)
	inflated, _ := io.Copy(io.Discard, flate.NewReader(bytes.NewReader(bomb)))
	o := testOptions()
	o.MaxSize = 1 << 20
	var items []item
	var files []zfile
	for _, n := range []string{"a", "b", "c"} {
		items = append(items, item{loc: "http://example.org/" + n, path: "/" + n, noLen: true, fix: resourcesync.Fixity{}})
		files = append(files, zfile{Name: n, Raw: bomb, Declared: 10}) // the directory declares little
	}
	p := onePackage(t, o, items, files...)
	var errs []error
	for _, m := range members(t, p) {
		m.file.UncompressedSize64 = uint64(inflated)
		var s countSink
		_, err := m.Download(context.Background(), resourcesync.Fetch{URL: m.Entry.Loc}, &s)
		errs = append(errs, err)
	}
	if errs[0] != nil || !errors.Is(errs[1], ErrTooLarge) || !errors.Is(errs[2], ErrTooLarge) {
		t.Errorf("over the package budget: %v", errs)
	}
	if n := p.inflated.Load(); n > o.MaxSize+1 {
		t.Errorf("%d bytes inflated, budget %d", n, o.MaxSize)
	}
}

func TestConcurrentMembers(t *testing.T) {
	var items []item
	var files []zfile
	for i := range 64 {
		b := bytes.Repeat([]byte{byte(i)}, 1000+i)
		n := string(rune('a'+i%26)) + string(rune('a'+i/26))
		items = append(items, item{loc: "http://example.org/" + n, path: "/" + n, body: b})
		files = append(files, zfile{Name: n, Body: b, Deflate: i%2 == 0})
	}
	p := onePackage(t, testOptions(), items, files...)
	var wg sync.WaitGroup
	for i, m := range members(t, p) {
		wg.Go(func() {
			body, _, err := extract(m)
			if err != nil || !bytes.Equal(body, items[i].body) {
				t.Errorf("%s: %v", m.Entry.Loc, err)
			}
		})
	}
	wg.Wait()
}

func TestCancelledRead(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 100<<10)
	p := onePackage(t, testOptions(), []item{{loc: "http://example.org/x", path: "/x", body: body}}, zfile{Name: "x", Body: body})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var s memSink
	if _, err := members(t, p)[0].Download(ctx, resourcesync.Fetch{URL: "http://example.org/x"}, &s); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
}
