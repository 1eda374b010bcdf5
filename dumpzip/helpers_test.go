package dumpzip

import (
	"archive/zip"
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"io/fs"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

const testPkg = "http://example.org/dump/part1.zip"

// zfile is one entry of a ZIP file built by a test.
type zfile struct {
	name string
	body []byte
	mode fs.FileMode // 0: a regular file; fs.ModeSymlink for a symlink
	// raw, when set, is written as the entry's deflated data as is, with
	// declared as the uncompressed size the directory claims: for bombs
	// and lying directories.
	raw      []byte
	declared uint64
	deflate  bool
}

// buildZip writes a ZIP file of files, in order, without any check on the
// names: hostile packages are the point.
func buildZip(t testing.TB, files ...zfile) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Store, Modified: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
		if f.deflate {
			h.Method = zip.Deflate
		}
		if f.mode != 0 {
			h.SetMode(f.mode | 0o777)
		}
		if f.raw != nil {
			h.Method = zip.Deflate
			h.CompressedSize64 = uint64(len(f.raw))
			h.UncompressedSize64 = f.declared
			h.CRC32 = 0
			w, err := zw.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(f.raw)
			continue
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(f.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
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
func fixity(b []byte) resourcesync.Fixity {
	m, s := md5.Sum(b), sha256.Sum256(b)
	return resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: hex.EncodeToString(m[:])}, {Alg: resourcesync.AlgSHA256, Hex: hex.EncodeToString(s[:])}}
}

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

// bitWriter writes a DEFLATE bit stream: least significant bit first.
type bitWriter struct {
	out  []byte
	cur  byte
	nbit uint
}

func (w *bitWriter) bits(v uint32, n uint) {
	for i := range n {
		w.bit(byte(v>>i) & 1)
	}
}

// code writes a Huffman code of n bits, most significant bit first, as
// DEFLATE packs them.
func (w *bitWriter) code(v uint32, n uint) {
	for i := n; i > 0; i-- {
		w.bit(byte(v>>(i-1)) & 1)
	}
}

func (w *bitWriter) bit(b byte) {
	w.cur |= b << w.nbit
	w.nbit++
	if w.nbit == 8 {
		w.out = append(w.out, w.cur)
		w.cur, w.nbit = 0, 0
	}
}

// zeros writes n zero bits quickly.
func (w *bitWriter) zeros(n int) {
	for n > 0 && w.nbit != 0 {
		w.bit(0)
		n--
	}
	w.out = append(w.out, make([]byte, n/8)...)
	for range n % 8 {
		w.bit(0)
	}
}

func (w *bitWriter) flush() []byte {
	if w.nbit > 0 {
		w.out = append(w.out, w.cur)
		w.cur, w.nbit = 0, 0
	}
	return w.out
}

// deflateBomb is a raw DEFLATE stream of about size/1032 bytes that
// inflates to 1+258*n >= size zero bytes: one dynamic block whose
// literal/length code gives "copy 258 bytes" a 1-bit code and whose
// distance code gives "distance 1" a 1-bit code, so each 258 bytes cost two
// zero bits - the most DEFLATE can compress.
func deflateBomb(size int64) []byte {
	w := &bitWriter{}
	w.bits(1, 1)  // BFINAL
	w.bits(2, 2)  // BTYPE: dynamic Huffman
	w.bits(29, 5) // HLIT: 286 literal/length codes
	w.bits(0, 5)  // HDIST: 1 distance code
	w.bits(14, 4) // HCLEN: 18 code length codes
	// Code length code lengths, in the standard's order
	// 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1: symbol 18 gets 1 bit,
	// symbols 1 and 2 get 2 bits.
	for _, l := range []uint32{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2} {
		w.bits(l, 3)
	}
	// Canonical codes: 18 -> 0, 1 -> 10, 2 -> 11.
	sym2 := func() { w.code(0b11, 2) }
	sym1 := func() { w.code(0b10, 2) }
	zerosRun := func(n uint32) { w.code(0, 1); w.bits(n-11, 7) } // symbol 18: 11-138 zeros
	sym2()                                                       // literal 0: length 2
	zerosRun(138)                                                // literals 1-138
	zerosRun(117)                                                // literals 139-255
	sym2()                                                       // 256 (end of block): length 2
	zerosRun(28)                                                 // 257-284
	sym1()                                                       // 285 (length 258): length 1
	sym1()                                                       // distance code 0 (distance 1): length 1
	w.code(0b10, 2)                                              // literal 0 (code 10)
	n := (size + 257) / 258
	w.zeros(int(2 * n)) // n times: length 258 (code 0), distance 1 (code 0)
	w.code(0b11, 2)     // end of block (code 11)
	return w.flush()
}

func crc(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
