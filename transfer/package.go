package transfer

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Packages are the dump packages of one run (a Resource Dump's or a Change
// Dump's): how they are downloaded, and how many were.
type Packages struct {
	Fetcher dumpzip.Downloader
	// Want is the capability their manifests must have.
	Want    resourcesync.Capability
	Options dumpzip.Options
	// Breaker is told of each download, which is a request to the Source.
	Breaker *Breaker
	Log     zerolog.Logger

	downloaded atomic.Int64
	mu         sync.Mutex
	urls       map[string]bool // of every package New made
}

// Downloaded counts the packages downloaded so far.
func (ps *Packages) Downloaded() int64 { return ps.downloaded.Load() }

// New returns the package a dump entry describes, not yet downloaded. Its
// manifest copy is the entry's rel="contents" link, if any.
func (ps *Packages) New(ref *resourcesync.Entry) *Package {
	ps.mu.Lock()
	if ps.urls == nil {
		ps.urls = map[string]bool{}
	}
	ps.urls[ref.Loc] = true
	ps.mu.Unlock()
	p := &Package{Ref: ref, ps: ps}
	if l, ok := ref.Link(resourcesync.RelContents); ok {
		p.CopyURL = resourcesync.Resolve(ref.Loc, l.Href)
	}
	return p
}

// SweepPartials removes the packages an earlier run kept part way
// (Options.PartialDir) that are none of this run's: once the whole dump
// was read, they will never be continued. Call it when no package is
// being downloaded.
func (ps *Packages) SweepPartials() (int, error) {
	if ps.Options.PartialDir == "" {
		return 0, nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return dumpzip.SweepPartials(ps.Options.PartialDir, func(url string) bool { return ps.urls[url] })
}

// Package is one dump package shared by the units whose bytes it holds,
// with one lifetime whoever reads it: downloaded once, when first needed,
// into a temp file; open while anyone holds a reference; closed - its temp
// file removed - when the last reference is released. Its methods are
// safe for concurrent use, except Next.
type Package struct {
	Ref     *resourcesync.Entry // its entry in the dump
	CopyURL string              // its manifest copy; "" when the dump links none

	ps   *Packages
	refs atomic.Int64

	mu      sync.Mutex
	loaded  bool                    // a download was tried
	pkg     *dumpzip.Package        // open after a successful download, until closed
	err     error                   // why the package cannot be used
	members map[int]*dumpzip.Member // by manifest position, once indexed
	order   []*dumpzip.Member       // the same, in manifest order
	warned  bool                    // the fallback to the Source was logged
}

// Acquire takes a reference.
func (p *Package) Acquire() { p.refs.Add(1) }

// Release lets go of a reference; the last one closes the package.
func (p *Package) Release() {
	if p.refs.Add(-1) == 0 {
		p.Close()
	}
}

// Close removes the package's temp file, if it was downloaded; members
// still being read fail. It is idempotent.
func (p *Package) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pkg == nil {
		return
	}
	if err := p.pkg.Close(); err != nil {
		p.ps.Log.Warn().Str("uri", p.Ref.Loc).Err(err).Msg("cannot remove a package's temp file")
	}
	p.pkg, p.members, p.order = nil, nil, nil
	if p.err == nil {
		p.err = fmt.Errorf("package %s: %w", p.Ref.Loc, dumpzip.ErrClosed)
	}
}

// Open downloads and opens the package the first time it is called. It
// returns an error only when the run must stop (a local fault, ctx, the
// Source down); a package that cannot be used has Err set instead.
func (p *Package) Open(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open(ctx)
}

func (p *Package) open(ctx context.Context) error {
	if p.loaded {
		return nil
	}
	ps := p.ps
	pkg, err := dumpzip.Download(ctx, ps.Fetcher, p.Ref, ps.Want, ps.Options)
	if err != nil {
		if err = Classify(ctx, err); Fatal(err) {
			return err
		}
		if berr := ps.Breaker.Note(p.Ref.Loc, err); berr != nil {
			return berr
		}
		p.loaded, p.err = true, err
		return nil
	}
	_ = ps.Breaker.Note(p.Ref.Loc, nil)
	ps.downloaded.Add(1)
	p.loaded, p.pkg = true, pkg
	return nil
}

// Err says why the package cannot be used (nil until Open found out).
func (p *Package) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Next returns the open package's next member, in manifest order (io.EOF
// after the last). For one goroutine at a time, and not with Member.
func (p *Package) Next() (*dumpzip.Member, error) {
	p.mu.Lock()
	pkg := p.pkg
	p.mu.Unlock()
	if pkg == nil {
		return nil, fmt.Errorf("package %s: %w", p.Ref.Loc, dumpzip.ErrClosed)
	}
	return pkg.Next()
}

// Members opens the package if needed and returns its members in manifest
// order. The error is fatal as Open's, or wraps ErrUnusable when the
// package cannot be used.
func (p *Package) Members(ctx context.Context) ([]*dumpzip.Member, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.index(ctx); err != nil {
		return nil, err
	}
	return p.order, nil
}

// Member returns the member at a 1-based manifest position (nil when there
// is none), opening the package the first time. The error is fatal as
// Open's, or wraps ErrUnusable when the package cannot be used - the first
// time with a warning that its resources come from the Source instead.
func (p *Package) Member(ctx context.Context, pos int) (*dumpzip.Member, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.index(ctx); err != nil {
		return nil, err
	}
	return p.members[pos], nil
}

// index opens the package and reads its whole manifest; p.mu is held.
func (p *Package) index(ctx context.Context) error {
	if err := p.open(ctx); err != nil {
		return err
	}
	if p.err == nil && p.members == nil {
		members := map[int]*dumpzip.Member{}
		var order []*dumpzip.Member
		for {
			m, err := p.pkg.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				p.pkg.Close()
				p.pkg, p.err = nil, fmt.Errorf("package %s: %w", p.Ref.Loc, err)
				break
			}
			members[m.Position] = m
			order = append(order, m)
		}
		if p.err == nil {
			p.members, p.order = members, order
			p.ps.Log.Debug().Str("uri", p.Ref.Loc).Int("entries", len(order)).Msg("package downloaded")
		}
	}
	if p.err != nil {
		if !p.warned {
			p.warned = true
			p.ps.Log.Warn().Str("uri", p.Ref.Loc).Err(p.err).Msg("package unusable; the resources it holds are fetched from the Source")
		}
		return fmt.Errorf("%w: %w", ErrUnusable, p.err)
	}
	return nil
}

// MemberOrigin is a unit's bytes as a member of an open package: the
// member is the fetcher, and the unit holds a reference on the package.
type MemberOrigin struct {
	P *Package
	M *dumpzip.Member
}

// NewMemberOrigin takes a reference on p for a unit whose bytes are m.
func NewMemberOrigin(p *Package, m *dumpzip.Member) MemberOrigin {
	p.Acquire()
	return MemberOrigin{P: p, M: m}
}

func (o MemberOrigin) Open(context.Context) (Fetcher, error) { return o.M, nil }
func (o MemberOrigin) Release()                              { o.P.Release() }

// Linked opens the package if needed and returns the member a link of one
// of its entries names by its path (a Change Dump's patch, §14.4:
// dumpzip.Package.Linked). The error is fatal as Open's, or wraps
// ErrUnusable when the package cannot be used; a member that cannot be
// read says so when it is downloaded.
func (p *Package) Linked(ctx context.Context, l resourcesync.Link) (Fetcher, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.index(ctx); err != nil {
		return nil, err
	}
	return p.pkg.Linked(l), nil
}
