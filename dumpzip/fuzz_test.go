package dumpzip

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// FuzzOpen feeds arbitrary bytes to the package reader. Whatever they are,
// it must not panic, must refuse unsafe names, and must never hand a sink
// more than a member's length (or its cap without one).
func FuzzOpen(f *testing.F) {
	body := []byte("some bytes")
	f.Add(buildZip(f,
		zfile{Name: "manifest.xml", Body: manifest(f, resourcesync.CapResourceDumpManifest,
			item{loc: "http://example.org/a", path: "/a", body: body},
			item{loc: "http://example.org/b", path: "b", body: body, noLen: true},
			item{loc: "http://example.org/c", path: "/../c", body: body})},
		zfile{Name: "a", Body: body, Deflate: true},
		zfile{Name: "b", Body: body},
		zfile{Name: "../c", Body: body},
		zfile{Name: "l", Body: body, Mode: fs.ModeSymlink}))
	f.Add(buildZip(f,
		zfile{Name: "manifest.xml", Body: manifest(f, resourcesync.CapResourceDumpManifest,
			item{loc: "http://example.org/bomb", path: "/bomb", noLen: true})},
		zfile{Name: "bomb", Raw: deflateBomb(64 << 10), Declared: 100}))
	f.Add([]byte("PK\x05\x06"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o := testOptions()
		o.MaxSize, o.MaxEntrySize, o.MaxEntries = 256<<10, 16<<10, 100
		o.Limits = resourcesync.Limits{MaxBytes: 1 << 20, MaxEntries: 100, MaxTokenBytes: 4096}
		p, err := Open(bytes.NewReader(data), int64(len(data)), testPkg, resourcesync.CapResourceDumpManifest, o)
		if err != nil {
			return
		}
		defer p.Close()
		for {
			m, err := p.Next()
			if err != nil {
				if err != io.EOF && errors.Is(err, ErrClosed) {
					t.Fatalf("closed while open: %v", err)
				}
				return
			}
			if m.HasBitstream() {
				if _, err := entryName(m.Entry.MD.Path); err != nil {
					t.Fatalf("member with unsafe path %q has a bitstream", m.Entry.MD.Path)
				}
			}
			var s countSink
			fe := resourcesync.Fetch{URL: m.Entry.Loc, Hash: m.Entry.MD.Hash, Length: m.Entry.MD.Length, HasLength: m.Entry.MD.HasLength}
			_, err = m.Download(context.Background(), fe, &s)
			bound := o.MaxEntrySize
			if fe.HasLength {
				bound = fe.Length
			}
			if s.n > bound || s.n > o.MaxSize {
				t.Fatalf("%d bytes reached the sink; the bound is %d", s.n, bound)
			}
			if err == nil && fe.HasLength && s.n != fe.Length {
				t.Fatalf("accepted %d bytes for length %d", s.n, fe.Length)
			}
		}
	})
}
