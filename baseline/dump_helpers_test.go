package baseline_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// newDumpHarness is a harness whose Source publishes a Resource Dump of
// 60 resources in 3 packages (changed by mod).
func newDumpHarness(t *testing.T, mod func(*fixtures.Spec)) *harness {
	return newHarness(t, func(s *fixtures.Spec) {
		s.DumpPackages = 3
		if mod != nil {
			mod(s)
		}
	})
}

// runDump runs a baseline of the set from the Resource Dump at dumpURL
// ("" for the fixture's own), with packages kept in tmp.
func (h *harness) runDump(dumpURL, tmp string, mod func(*baseline.Options)) (*baseline.Summary, error) {
	h.T.Helper()
	if dumpURL == "" {
		dumpURL = h.Src.ResourceDumpURL(0)
	}
	o := baseline.DefaultOptions()
	o.Workers = 4
	o.Scope = resourcesync.NewScope([]string{h.Src.URL()}, nil)
	o.Dump.MinFree = 0
	if mod != nil {
		mod(&o)
	}
	set := h.set
	set.ResourceDump = dumpURL
	d := h.deps()
	d.TempDir = tmp
	return baseline.Run(context.Background(), set, d, o)
}

func (h *harness) mustRunDump(dumpURL, tmp string, mod func(*baseline.Options)) *baseline.Summary {
	h.T.Helper()
	sum, err := h.runDump(dumpURL, tmp, mod)
	if err != nil {
		h.T.Fatalf("baseline via dump: %v", err)
	}
	return sum
}

// assertEmptyDir fails unless dir holds nothing: no package survived.
func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		t.Errorf("left in the temp directory: %s", de.Name())
	}
}

// zfile is one entry of a ZIP package built by a test.
type zfile struct {
	name     string
	body     []byte
	mode     fs.FileMode // fs.ModeSymlink for a symlink; 0 for a file
	raw      []byte      // deflated data written as is (bombs), with declared as its size
	declared uint64
}

// member is one entry of a test package's manifest.
type member struct {
	uri  string
	path string
	body []byte // what the manifest's length and hashes describe
}

// pkgSpec is a package of a test dump.
type pkgSpec struct {
	members []member
	files   []zfile // besides manifest.xml
	noCopy  bool    // no rel="contents" manifest copy
	zip     []byte  // served instead of the package built from the rest
}

func digests(b []byte) resourcesync.Fixity {
	m, s := md5.Sum(b), sha256.Sum256(b)
	return resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: hex.EncodeToString(m[:])}, {Alg: resourcesync.AlgSHA256, Hex: hex.EncodeToString(s[:])}}
}

func writeDoc(t *testing.T, d *resourcesync.Document) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := resourcesync.WriteDocument(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func buildZip(t *testing.T, files []zfile) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
		if f.mode != 0 {
			h.SetMode(f.mode | 0o777)
		}
		if f.raw != nil {
			h.CompressedSize64, h.UncompressedSize64 = uint64(len(f.raw)), f.declared
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
		w.Write(f.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// serveDump publishes, through SetRaw, a Resource Dump named name made of
// pkgs, and returns its URL.
func serveDump(t *testing.T, src *fixtures.Source, name string, pkgs ...pkgSpec) string {
	t.Helper()
	at := src.At()
	up := resourcesync.Link{Rel: resourcesync.RelUp, Href: src.CapabilityListURL(0)}
	dump := &resourcesync.Document{Header: resourcesync.Header{Root: resourcesync.RootURLSet, Links: []resourcesync.Link{up},
		MD: resourcesync.Metadata{Capability: resourcesync.CapResourceDump, At: at}}}
	for i, p := range pkgs {
		man := &resourcesync.Document{Header: resourcesync.Header{Root: resourcesync.RootURLSet, Links: []resourcesync.Link{up},
			MD: resourcesync.Metadata{Capability: resourcesync.CapResourceDumpManifest, At: at}}}
		for _, m := range p.members {
			e := resourcesync.Entry{Loc: m.uri, LastMod: at.Add(-time.Hour)}
			e.MD = resourcesync.Metadata{Path: m.path, Hash: digests(m.body), Length: int64(len(m.body)), HasLength: true}
			man.Entries = append(man.Entries, e)
		}
		manifest := writeDoc(t, man)
		zipBytes := p.zip
		if zipBytes == nil {
			zipBytes = buildZip(t, append([]zfile{{name: "manifest.xml", body: manifest}}, p.files...))
		}
		zipPath := fmt.Sprintf("/custom/%s/p%d.zip", name, i+1)
		copyPath := fmt.Sprintf("/custom/%s/p%d-manifest.xml", name, i+1)
		src.SetRaw(zipPath, "application/zip", zipBytes)
		e := resourcesync.Entry{Loc: src.URI(zipPath)}
		e.MD = resourcesync.Metadata{Type: "application/zip", Length: int64(len(zipBytes)), HasLength: true, Hash: digests(zipBytes), At: at}
		if !p.noCopy {
			src.SetRaw(copyPath, "application/xml", manifest)
			e.Links = []resourcesync.Link{{Rel: resourcesync.RelContents, Href: src.URI(copyPath), Type: "application/xml"}}
		}
		dump.Entries = append(dump.Entries, e)
	}
	p := "/custom/" + name + "/resourcedump.xml"
	src.SetRaw(p, "application/xml", writeDoc(t, dump))
	return src.URI(p)
}

// treeOutside describes every file under dir except the subtree skip:
// equal descriptions mean nothing there was written.
func treeOutside(t *testing.T, dir, skip string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == skip {
			return filepath.SkipDir
		}
		if d.IsDir() {
			out[p] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := sha256.Sum256(b)
		out[p] = hex.EncodeToString(s[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bitWriter writes a DEFLATE bit stream, least significant bit first.
type bitWriter struct {
	out  []byte
	cur  byte
	nbit uint
}

func (w *bitWriter) bit(b byte) {
	w.cur |= b << w.nbit
	if w.nbit++; w.nbit == 8 {
		w.out, w.cur, w.nbit = append(w.out, w.cur), 0, 0
	}
}

func (w *bitWriter) bits(v uint32, n uint) {
	for i := range n {
		w.bit(byte(v>>i) & 1)
	}
}

// code writes a Huffman code most significant bit first.
func (w *bitWriter) code(v uint32, n uint) {
	for i := n; i > 0; i-- {
		w.bit(byte(v>>(i-1)) & 1)
	}
}

// deflateBomb is a raw DEFLATE stream of about size/1032 bytes inflating to
// at least size zero bytes (see dumpzip's test of the same name).
func deflateBomb(size int64) []byte {
	w := &bitWriter{}
	w.bits(1, 1)
	w.bits(2, 2)
	w.bits(29, 5)
	w.bits(0, 5)
	w.bits(14, 4)
	for _, l := range []uint32{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2} {
		w.bits(l, 3)
	}
	zeros := func(n uint32) { w.code(0, 1); w.bits(n-11, 7) }
	w.code(0b11, 2)
	zeros(138)
	zeros(117)
	w.code(0b11, 2)
	zeros(28)
	w.code(0b10, 2)
	w.code(0b10, 2)
	w.code(0b10, 2) // literal 0
	for n := (size + 257) / 258 * 2; n > 0; {
		if w.nbit == 0 && n >= 8 {
			w.out = append(w.out, make([]byte, n/8)...)
			n %= 8
			continue
		}
		w.bit(0)
		n--
	}
	w.code(0b11, 2) // end of block
	if w.nbit > 0 {
		w.out = append(w.out, w.cur)
	}
	return w.out
}
