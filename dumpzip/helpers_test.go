package dumpzip

import (
	"bytes"
	"hash/crc32"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

const testPkg = "http://example.org/dump/part1.zip"

// zfile is one entry of a ZIP file built by a test (the shared
// fixtures.ZipFile, hostile ones included).
type zfile = fixtures.ZipFile

// buildZip writes a ZIP file of files, in order, without any check on the
// names: hostile packages are the point.
func buildZip(t testing.TB, files ...zfile) []byte {
	t.Helper()
	return fixtures.BuildZip(t, files...)
}

// item is one bitstream of a test manifest.
type item struct {
	loc   string
	path  string // the manifest's path attribute
	body  []byte
	noLen bool // leave the length out
	fix   resourcesync.Fixity
}

// fixity is the md5 and sha-256 of b.
func fixity(b []byte) resourcesync.Fixity { return fixtures.Digests(b) }

// manifest writes a manifest of capability c describing items.
func manifest(t testing.TB, c resourcesync.Capability, items ...item) []byte {
	t.Helper()
	d := &resourcesync.Document{Header: resourcesync.Header{Root: resourcesync.RootURLSet,
		MD:    resourcesync.Metadata{Capability: c, At: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)},
		Links: []resourcesync.Link{{Rel: resourcesync.RelUp, Href: "http://example.org/capabilitylist.xml"}}}}
	if c.IsChangeCapability() {
		d.MD.At, d.MD.From = time.Time{}, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	for _, it := range items {
		e := resourcesync.Entry{Loc: it.loc, LastMod: time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)}
		e.MD.Path = it.path
		e.MD.Hash = it.fix
		if e.MD.Hash == nil && it.body != nil {
			e.MD.Hash = fixity(it.body)
		}
		if !it.noLen {
			e.MD.Length, e.MD.HasLength = int64(len(it.body)), true
		}
		if c == resourcesync.CapChangeDumpManifest {
			e.MD.Change = resourcesync.ChangeUpdated
			if it.path == "" {
				e.MD.Change = resourcesync.ChangeDeleted
				e.MD.Hash, e.MD.HasLength = nil, false
			}
		}
		d.Entries = append(d.Entries, e)
	}
	var buf bytes.Buffer
	if err := resourcesync.WriteDocument(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// testOptions never look at the real disk's free space.
func testOptions() Options {
	o := DefaultOptions()
	o.FreeSpace = func(string) (int64, error) { return 1 << 50, nil }
	return o
}

// openBytes opens a package held in memory.
func openBytes(t testing.TB, b []byte, want resourcesync.Capability, o Options) (*Package, error) {
	t.Helper()
	return Open(bytes.NewReader(b), int64(len(b)), testPkg, want, o)
}

// memSink is a resourcesync.Sink in memory.
type memSink struct{ bytes.Buffer }

func (s *memSink) Reset() error { s.Buffer.Reset(); return nil }

// deflateBomb is fixtures.DeflateBomb: a raw DEFLATE stream of about
// size/1032 bytes inflating to at least size zero bytes.
func deflateBomb(size int64) []byte { return fixtures.DeflateBomb(size) }

func crc(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
