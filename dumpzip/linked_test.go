package dumpzip

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// A link's path (a patch's, §14.4) names a member like an entry's own
// path: read and verified against the link's length and hash, and refused
// when missing, unsafe, given twice or not a regular file, or past the
// bounds (the package's inflate budget).
func TestLinkedMember(t *testing.T) {
	patch := []byte(`[{"op":"replace","path":"/v","value":"2"}]`)
	files := []zfile{
		{Name: "patches/a.json-patch", Body: patch},
		{Name: "patches/twice", Body: patch}, {Name: "patches/twice", Body: patch},
		{Name: "patches/link", Body: []byte("x"), Mode: fs.ModeSymlink},
		{Name: "patches/bomb", Raw: deflateBomb(1 << 20), Declared: 1 << 20},
	}
	link := func(path string, body []byte) resourcesync.Link {
		return resourcesync.Link{Rel: resourcesync.RelPatch, Href: "a.json-patch", Path: path,
			Type: "application/json-patch+json", Hash: fixity(body), Length: int64(len(body)), HasLength: body != nil}
	}
	for _, tc := range []struct {
		name string
		l    resourcesync.Link
		err  error // nil: the patch's bytes
	}{
		{"good", link("/patches/a.json-patch", patch), nil},
		{"no leading slash", link("patches/a.json-patch", patch), nil},
		{"wrong bytes", link("/patches/a.json-patch", []byte(`[{"op":"replace","path":"/v","value":"3"}]`)), resourcesync.ErrMismatch},
		{"no path", link("", patch), ErrNoPath},
		{"climbs out", link("/../patches/a.json-patch", patch), ErrUnsafeName},
		{"absolute", link("//etc/passwd", patch), ErrUnsafeName},
		{"missing", link("/patches/none", patch), ErrMissing},
		{"twice", link("/patches/twice", patch), ErrDuplicate},
		{"symlink", link("/patches/link", patch), ErrNotRegular},
		{"bomb", link("/patches/bomb", nil), ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := testOptions()
			o.MaxEntrySize = 64 << 10
			p := onePackage(t, o, nil, files...)
			m := p.Linked(tc.l)
			if m.Entry.Loc != "http://example.org/dump/a.json-patch" {
				t.Errorf("loc %s, want the href resolved against the package", m.Entry.Loc)
			}
			var s memSink
			_, err := m.Download(context.Background(), resourcesync.Fetch{URL: m.Entry.Loc, Hash: tc.l.Hash,
				Length: tc.l.Length, HasLength: tc.l.HasLength}, &s)
			switch {
			case tc.err == nil && err != nil:
				t.Fatalf("download: %v", err)
			case tc.err == nil && s.String() != string(patch):
				t.Fatalf("read %q, want the patch", s.String())
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Fatalf("err %v, want %v", err, tc.err)
			}
		})
	}
}
