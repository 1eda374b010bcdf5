package dumpzip

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Package is an opened package: its manifest's header, and through Next
// the manifest's entries in order, each bound to its bitstream. Next is
// for one goroutine at a time; the Members it returns may be read
// concurrently with each other and with Next. Close once every read has
// finished.
type Package struct {
	// URL is the package's URL; relative locs in its manifest resolve
	// against it.
	URL string
	// Header is the manifest's header (capability, at or from/until,
	// links).
	Header *resourcesync.Header

	o        Options
	zr       *zip.Reader
	names    map[string]int // ZIP entry name -> index in zr.File; -1 for a name given twice
	manifest io.ReadCloser
	mr       *resourcesync.Reader
	pos      int
	inflated atomic.Int64 // bitstream bytes read out of the package so far
	bufs     sync.Pool

	closed   atomic.Bool
	once     sync.Once
	cleanup  func() error
	closeErr error
}

// Open opens a package held in r (size bytes), named url, whose manifest
// must have capability want. Close releases nothing of r's; it only ends
// the package. Errors match ErrTooLarge, ErrNotZip, ErrNoManifest,
// resourcesync.ErrLocal (no room on TempDir's file system), or are the
// manifest's *resourcesync.ParseError or
// *resourcesync.CapabilityMismatchError.
func Open(r io.ReaderAt, size int64, url string, want resourcesync.Capability, o Options) (*Package, error) {
	return open(r, size, url, want, o.withDefaults(), nil)
}

// open opens the package; cleanup (which may be nil) is run by Close, and
// is the caller's to run when open fails.
func open(r io.ReaderAt, size int64, url string, want resourcesync.Capability, o Options, cleanup func() error) (*Package, error) {
	if size > o.MaxSize {
		return nil, fmt.Errorf("package %s: %w: %d bytes, more than the %d allowed (--max-dump-size)", url, ErrTooLarge, size, o.MaxSize)
	}
	if n, ok := directoryRecords(r, size); ok && n > uint64(o.MaxEntries) {
		return nil, fmt.Errorf("package %s: %w: %d ZIP entries, more than the %d allowed", url, ErrTooLarge, n, o.MaxEntries)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// Insecure names are judged per member, for the members that use
		// them: a package is not refused for names it never makes us use.
		return nil, fmt.Errorf("package %s: %w: %w", url, ErrNotZip, err)
	}
	p := &Package{URL: url, o: o, zr: zr, names: make(map[string]int, len(zr.File)), cleanup: cleanup}
	p.bufs.New = func() any { b := make([]byte, 32<<10); return &b }
	var declared uint64
	for i, f := range zr.File {
		if _, dup := p.names[f.Name]; dup {
			p.names[f.Name] = -1
		} else {
			p.names[f.Name] = i
		}
		if f.Name != manifestName {
			declared = addSat(declared, f.UncompressedSize64)
		}
	}
	mf, err := p.manifestFile()
	if err != nil {
		return nil, err
	}
	if declared > uint64(o.MaxSize) {
		return nil, fmt.Errorf("package %s: %w: its ZIP directory declares %d bytes, more than the %d allowed (--max-dump-size)",
			url, ErrTooLarge, declared, o.MaxSize)
	}
	if declared > 0 {
		if err := checkSpace(o, int64(declared), "extracting package "+url); err != nil {
			return nil, err
		}
	}
	rc, err := mf.Open()
	if err != nil {
		return nil, fmt.Errorf("package %s: open %s: %w: %w", url, manifestName, ErrNotZip, err)
	}
	mr := resourcesync.NewReader(rc, url+"#"+manifestName, o.Limits)
	h, err := mr.Header()
	if err == nil && h.Capability() != want {
		err = &resourcesync.CapabilityMismatchError{URL: url + "#" + manifestName, Got: h.Capability(), Want: want}
	}
	if err == nil && h.IsIndex() {
		err = fmt.Errorf("package %s: %w: its %s is an index, not a <urlset>", url, ErrNoManifest, manifestName)
	}
	if err != nil {
		rc.Close()
		return nil, err
	}
	p.Header, p.manifest, p.mr = h, rc, mr
	return p, nil
}

// manifestFile finds the one regular manifest.xml at the top level.
func (p *Package) manifestFile() (*zip.File, error) {
	i, ok := p.names[manifestName]
	switch {
	case !ok:
		return nil, fmt.Errorf("package %s: %w", p.URL, ErrNoManifest)
	case i < 0:
		return nil, fmt.Errorf("package %s: %w: %s appears more than once", p.URL, ErrNoManifest, manifestName)
	case !isRegular(p.zr.File[i]):
		return nil, fmt.Errorf("package %s: %w: %s is not a regular file (mode %v)", p.URL, ErrNoManifest, manifestName, p.zr.File[i].Mode())
	}
	return p.zr.File[i], nil
}

// Next returns the manifest's next entry as a Member, its loc made
// absolute against the package's URL; io.EOF after the last. A member whose
// bitstream cannot be used is still returned, with the reason in its Err:
// the other members remain usable. Any other error (a malformed manifest,
// a closed package) is about the rest of the package and is sticky.
func (p *Package) Next() (*Member, error) {
	if p.closed.Load() {
		return nil, fmt.Errorf("package %s: %w", p.URL, ErrClosed)
	}
	e, err := p.mr.Next()
	if err != nil {
		return nil, err
	}
	p.pos++
	e.Loc = resourcesync.Resolve(p.URL, e.Loc)
	m := &Member{Entry: e, Position: p.pos, pkg: p}
	m.file, m.err = p.bitstream(e)
	return m, nil
}

// bitstream finds the ZIP entry the manifest entry's path names. A
// deleted change has no bitstream and needs none.
func (p *Package) bitstream(e *resourcesync.Entry) (*zip.File, error) {
	path := e.MD.Path
	if path == "" {
		if e.MD.Change == resourcesync.ChangeDeleted {
			return nil, nil
		}
		return nil, &MemberError{Package: p.URL, Err: ErrNoPath}
	}
	name, err := entryName(path)
	if err != nil {
		return nil, &MemberError{Package: p.URL, Path: path, Err: err}
	}
	i, ok := p.names[name]
	switch {
	case !ok:
		return nil, &MemberError{Package: p.URL, Path: path, Err: ErrMissing}
	case i < 0:
		return nil, &MemberError{Package: p.URL, Path: path, Err: ErrDuplicate}
	case !isRegular(p.zr.File[i]):
		return nil, &MemberError{Package: p.URL, Path: path,
			Err: fmt.Errorf("%w: mode %v", ErrNotRegular, p.zr.File[i].Mode())}
	}
	return p.zr.File[i], nil
}

// Close ends the package and removes its temp file, if it has one. Reads
// still running fail. It is idempotent and safe for concurrent use.
func (p *Package) Close() error {
	p.once.Do(func() {
		p.closed.Store(true)
		var errs []error
		if p.manifest != nil {
			errs = append(errs, p.manifest.Close())
		}
		if p.cleanup != nil {
			errs = append(errs, p.cleanup())
		}
		p.closeErr = errors.Join(errs...)
	})
	return p.closeErr
}

// isRegular reports whether a ZIP entry is a plain file: not a directory,
// and not a symlink or device by the Unix mode bits it carries.
func isRegular(f *zip.File) bool { return f.Mode().Type() == 0 }

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// Linked returns, as a Member, the bitstream a link of a manifest entry
// names by its path: in a Change Dump, a patch link's path names the
// member holding the patch (§14.4). Its Entry is made from the link (loc
// its href resolved, length, hash and type its own), so that Download
// verifies the bitstream against the link's length and hash. The name is
// checked as an entry's own path is: a missing path, an unsafe name, a
// missing, duplicate or special ZIP entry make the member's Err (a
// *MemberError); reading it obeys the same bounds.
func (p *Package) Linked(l resourcesync.Link) *Member {
	e := &resourcesync.Entry{Loc: resourcesync.Resolve(p.URL, l.Href),
		MD: resourcesync.Metadata{Path: l.Path, Hash: l.Hash, Length: l.Length, HasLength: l.HasLength, Type: l.Type}}
	m := &Member{Entry: e, pkg: p}
	m.file, m.err = p.bitstream(e)
	return m
}
