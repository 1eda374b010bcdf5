package dumpzip

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// members reads every member of p.
func members(t *testing.T, p *Package) []*Member {
	t.Helper()
	var out []*Member
	for {
		m, err := p.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		out = append(out, m)
	}
}

// extract reads a member as transfer.Get would: verified against its entry.
func extract(m *Member) ([]byte, resourcesync.Fetched, error) {
	var s memSink
	f := resourcesync.Fetch{URL: m.Entry.Loc, Hash: m.Entry.MD.Hash, Length: m.Entry.MD.Length, HasLength: m.Entry.MD.HasLength}
	got, err := m.Download(context.Background(), f, &s)
	return s.Bytes(), got, err
}

func TestOpenAndRead(t *testing.T) {
	a, b, c := []byte("first bitstream"), bytes.Repeat([]byte("second "), 1000), []byte{}
	items := []item{
		{loc: "http://example.org/res/a", path: "/resources/a", body: a},
		{loc: "/res/b", path: "resources/b", body: b}, // no leading slash; a relative loc
		{loc: "http://example.org/res/c", path: "/resources/c", body: c, noLen: true},
	}
	pkg := buildZip(t,
		zfile{Name: "manifest.xml", Body: manifest(t, resourcesync.CapResourceDumpManifest, items...)},
		zfile{Name: "resources/a", Body: a},
		zfile{Name: "resources/b", Body: b, Deflate: true},
		zfile{Name: "resources/c", Body: c},
		zfile{Name: "../unnamed", Body: []byte("never read")}, // not in the manifest: ignored
	)
	p, err := openBytes(t, pkg, resourcesync.CapResourceDumpManifest, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Header.Capability() != resourcesync.CapResourceDumpManifest || p.Header.MD.At.IsZero() {
		t.Errorf("header %+v", p.Header.MD)
	}
	ms := members(t, p)
	if len(ms) != 3 {
		t.Fatalf("%d members", len(ms))
	}
	wantLocs := []string{"http://example.org/res/a", "http://example.org/res/b", "http://example.org/res/c"}
	for i, m := range ms {
		if m.Err() != nil || !m.HasBitstream() {
			t.Fatalf("member %d: %v", i, m.Err())
		}
		if m.Entry.Loc != wantLocs[i] || m.Position != i+1 {
			t.Errorf("member %d: loc %s position %d", i, m.Entry.Loc, m.Position)
		}
		body, got, err := extract(m)
		if err != nil {
			t.Fatalf("member %d: %v", i, err)
		}
		if !bytes.Equal(body, items[i].body) || got.Bytes != int64(len(items[i].body)) {
			t.Errorf("member %d: %d bytes", i, len(body))
		}
		if !got.Sums.Agrees(fixity(items[i].body)) {
			t.Errorf("member %d: sums %v", i, got.Sums)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Next(); !errors.Is(err, ErrClosed) {
		t.Errorf("next after close: %v", err)
	}
	if _, _, err := extract(ms[0]); !errors.Is(err, ErrClosed) {
		t.Errorf("read after close: %v", err)
	}
}

// TestHostileMembers: a member that names a dangerous or ambiguous ZIP
// entry is refused with a reason; the package's good member still reads.
func TestHostileMembers(t *testing.T) {
	good := []byte("good bytes")
	evil := []byte("evil bytes")
	for _, tc := range []struct {
		name  string
		path  string  // the manifest's path of the hostile member
		files []zfile // besides manifest.xml and the good member
		want  error
	}{
		{"dot-dot slip", "/../../etc/passwd", []zfile{{Name: "../../etc/passwd", Body: evil}}, ErrUnsafeName},
		{"dot-dot inside", "/resources/../../x", []zfile{{Name: "resources/../../x", Body: evil}}, ErrUnsafeName},
		{"dot-dot without slash", "..", []zfile{{Name: "..", Body: evil}}, ErrUnsafeName},
		{"absolute", "//etc/passwd", []zfile{{Name: "/etc/passwd", Body: evil}}, ErrUnsafeName},
		{"backslash", "/..\\..\\evil", []zfile{{Name: "..\\..\\evil", Body: evil}}, ErrUnsafeName},
		{"drive letter", "/C:/evil", []zfile{{Name: "C:/evil", Body: evil}}, ErrUnsafeName},
		{"empty", "/", nil, ErrUnsafeName},
		{"symlink", "/resources/link", []zfile{{Name: "resources/link", Body: []byte("/etc/passwd"), Mode: fs.ModeSymlink}}, ErrNotRegular},
		{"directory", "/resources/dir/", []zfile{{Name: "resources/dir/"}}, ErrNotRegular},
		{"duplicate", "/resources/twice", []zfile{{Name: "resources/twice", Body: good}, {Name: "resources/twice", Body: evil}}, ErrDuplicate},
		{"missing", "/resources/absent", nil, ErrMissing},
		{"case differs", "/Resources/Good", nil, ErrMissing},
		{"no path", "", nil, ErrNoPath},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := []item{
				{loc: "http://example.org/hostile", path: tc.path, body: evil},
				{loc: "http://example.org/good", path: "/resources/good", body: good},
			}
			files := append([]zfile{
				{Name: "manifest.xml", Body: manifest(t, resourcesync.CapResourceDumpManifest, items...)},
				{Name: "resources/good", Body: good},
			}, tc.files...)
			p, err := openBytes(t, buildZip(t, files...), resourcesync.CapResourceDumpManifest, testOptions())
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ms := members(t, p)
			var me *MemberError
			if !errors.Is(ms[0].Err(), tc.want) || !errors.As(ms[0].Err(), &me) || me.Package != testPkg {
				t.Fatalf("hostile member: err %v, want %v", ms[0].Err(), tc.want)
			}
			if ms[0].HasBitstream() {
				t.Error("a refused member has a bitstream")
			}
			if _, _, err := extract(ms[0]); !errors.Is(err, tc.want) {
				t.Errorf("reading the refused member: %v", err)
			}
			if body, _, err := extract(ms[1]); err != nil || !bytes.Equal(body, good) {
				t.Errorf("good member: %q, %v", body, err)
			}
		})
	}
}

func TestPackageErrors(t *testing.T) {
	okManifest := manifest(t, resourcesync.CapResourceDumpManifest, item{loc: "http://example.org/a", path: "/a", body: []byte("a")})
	index := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcedump-manifest"/><sitemap><loc>http://example.org/m2.xml</loc></sitemap></sitemapindex>`)
	small := testOptions()
	small.MaxSize = 1000
	fewEntries := testOptions()
	fewEntries.MaxEntries = 3
	noRoom := testOptions()
	noRoom.FreeSpace = func(string) (int64, error) { return 70 << 20, nil } // MinFree is 64 MiB
	for _, tc := range []struct {
		name string
		pkg  []byte
		o    Options
		want error
	}{
		{"not a zip", []byte("PK but not really a zip file at all"), testOptions(), ErrNotZip},
		{"empty file", nil, testOptions(), ErrNotZip},
		{"no manifest", buildZip(t, zfile{Name: "a", Body: []byte("a")}), testOptions(), ErrNoManifest},
		{"manifest not at the top", buildZip(t, zfile{Name: "sub/manifest.xml", Body: okManifest}), testOptions(), ErrNoManifest},
		{"two manifests", buildZip(t, zfile{Name: "manifest.xml", Body: okManifest}, zfile{Name: "manifest.xml", Body: okManifest}), testOptions(), ErrNoManifest},
		{"symlink manifest", buildZip(t, zfile{Name: "manifest.xml", Body: []byte("/etc/passwd"), Mode: fs.ModeSymlink}), testOptions(), ErrNoManifest},
		{"manifest is an index", buildZip(t, zfile{Name: "manifest.xml", Body: index}), testOptions(), ErrNoManifest},
		{"not a manifest", buildZip(t, zfile{Name: "manifest.xml", Body: []byte("<html>")}), testOptions(), resourcesync.ErrRoot},
		{"not XML", buildZip(t, zfile{Name: "manifest.xml", Body: []byte("<urlset")}), testOptions(), resourcesync.ErrSyntax},
		{"larger than MaxSize", buildZip(t, zfile{Name: "manifest.xml", Body: okManifest}, zfile{Name: "a", Body: make([]byte, 2000)}), small, ErrTooLarge},
		{"declares more than MaxSize", buildZip(t, zfile{Name: "manifest.xml", Body: okManifest},
			zfile{Name: "a", Raw: deflateBomb(1000), Declared: 1 << 40}), testOptions(), ErrTooLarge},
		{"too many entries", buildZip(t, zfile{Name: "manifest.xml", Body: okManifest}, zfile{Name: "a"}, zfile{Name: "b"}, zfile{Name: "c"}), fewEntries, ErrTooLarge},
		{"no free space", buildZip(t, zfile{Name: "manifest.xml", Body: okManifest}, zfile{Name: "a", Body: make([]byte, 7<<20), Deflate: true}), noRoom, resourcesync.ErrLocal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := openBytes(t, tc.pkg, resourcesync.CapResourceDumpManifest, tc.o)
			if !errors.Is(err, tc.want) {
				if p != nil {
					p.Close()
				}
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), testPkg) {
				t.Errorf("the error does not name the package: %v", err)
			}
		})
	}

	// The manifest of the other kind of dump.
	_, err := openBytes(t, buildZip(t, zfile{Name: "manifest.xml", Body: okManifest}), resourcesync.CapChangeDumpManifest, testOptions())
	var cm *resourcesync.CapabilityMismatchError
	if !errors.As(err, &cm) || cm.Got != resourcesync.CapResourceDumpManifest {
		t.Errorf("a Resource Dump Manifest opened as a Change Dump Manifest: %v", err)
	}
}

// TestBrokenManifestMidway: members before the break are usable; the
// break is reported, sticky.
func TestBrokenManifestMidway(t *testing.T) {
	m := manifest(t, resourcesync.CapResourceDumpManifest,
		item{loc: "http://example.org/a", path: "/a", body: []byte("a")},
		item{loc: "http://example.org/b", path: "/b", body: []byte("b")})
	m = bytes.Replace(m, []byte("<loc>http://example.org/b</loc>"), []byte("<loc></loc>"), 1)
	p, err := openBytes(t, buildZip(t, zfile{Name: "manifest.xml", Body: m}, zfile{Name: "a", Body: []byte("a")}), resourcesync.CapResourceDumpManifest, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	first, err := p.Next()
	if err != nil || first.Err() != nil {
		t.Fatalf("first: %v %v", err, first.Err())
	}
	for range 2 {
		if _, err := p.Next(); !errors.Is(err, resourcesync.ErrNoLoc) {
			t.Fatalf("second: %v", err)
		}
	}
}

func TestChangeDumpMembers(t *testing.T) {
	v2 := []byte("version 2")
	m := manifest(t, resourcesync.CapChangeDumpManifest,
		item{loc: "http://example.org/a", path: "/changes/v2/a", body: v2},
		item{loc: "http://example.org/b"}, // deleted: no path, no bitstream
	)
	p, err := openBytes(t, buildZip(t, zfile{Name: "manifest.xml", Body: m}, zfile{Name: "changes/v2/a", Body: v2}), resourcesync.CapChangeDumpManifest, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Header.MD.From.IsZero() {
		t.Errorf("header %+v", p.Header.MD)
	}
	ms := members(t, p)
	if body, _, err := extract(ms[0]); err != nil || !bytes.Equal(body, v2) || ms[0].Entry.MD.Change != resourcesync.ChangeUpdated {
		t.Errorf("update: %q %v", body, err)
	}
	if ms[1].Err() != nil || ms[1].HasBitstream() || ms[1].Entry.MD.Change != resourcesync.ChangeDeleted {
		t.Errorf("deletion: err %v, bitstream %v", ms[1].Err(), ms[1].HasBitstream())
	}
	if _, _, err := extract(ms[1]); !errors.Is(err, ErrNoPath) {
		t.Errorf("reading a deletion: %v", err)
	}
}

func TestDirectoryRecords(t *testing.T) {
	pkg := buildZip(t, zfile{Name: "a"}, zfile{Name: "b"}, zfile{Name: "c"})
	if n, ok := directoryRecords(bytes.NewReader(pkg), int64(len(pkg))); !ok || n != 3 {
		t.Errorf("records %d %v", n, ok)
	}
	if _, ok := directoryRecords(bytes.NewReader([]byte("short")), 5); ok {
		t.Error("a 5-byte file has a directory")
	}
	junk := bytes.Repeat([]byte{0xff}, 100)
	if _, ok := directoryRecords(bytes.NewReader(junk), 100); ok {
		t.Error("junk has a directory")
	}
}
