package baseline_test

import (
	"bytes"
	"context"
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

// zfile is one entry of a ZIP package built by a test
// (fixtures.ZipFile).
type zfile = fixtures.ZipFile

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

func digests(b []byte) resourcesync.Fixity { return fixtures.Digests(b) }

func writeDoc(t *testing.T, d *resourcesync.Document) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := resourcesync.WriteDocument(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// buildZip writes a package of files, each deflated.
func buildZip(t *testing.T, files []zfile) []byte {
	t.Helper()
	deflated := make([]zfile, len(files))
	for i, f := range files {
		f.Deflate = true
		deflated[i] = f
	}
	return fixtures.BuildZip(t, deflated...)
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
			zipBytes = buildZip(t, append([]zfile{{Name: "manifest.xml", Body: manifest}}, p.files...))
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

// deflateBomb is fixtures.DeflateBomb.
func deflateBomb(size int64) []byte { return fixtures.DeflateBomb(size) }
