package dumpzip

import (
	"archive/zip"
	"context"
	"fmt"
	"io"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Member is one manifest entry of a package with its bitstream.
type Member struct {
	// Entry is the manifest entry, its Loc absolute: the URI that decides
	// where the bitstream belongs.
	Entry *resourcesync.Entry
	// Position is the entry's 1-based position in the manifest.
	Position int

	pkg  *Package
	file *zip.File // nil when there is no usable bitstream
	err  error     // why the bitstream cannot be used
}

// Err says why the member's bitstream cannot be used (a *MemberError), or
// nil. A deleted change has no bitstream and no error.
func (m *Member) Err() error { return m.err }

// HasBitstream reports whether the member has a usable bitstream.
func (m *Member) HasBitstream() bool { return m.file != nil }

// Download copies the member's bitstream into dst, verifying it against
// f.Length (when given) and every hash in f.Hash it can compute, and
// computing f.ExtraAlgs besides: the package stands in for the Source, so
// a Member can be the fetcher handed to transfer.Get. f is what the
// bitstream must be, normally built from m.Entry; when f gives no length
// the entry's own is used.
//
// Reading stops early, inflating at most one byte past the length (or
// past Options.MaxEntrySize without one) and never past what is left of
// the package's Options.MaxSize. The errors: the member's Err; a
// *resourcesync.MismatchError (matches resourcesync.ErrMismatch) for
// bytes that are not what the manifest says; ErrTooLarge; a ZIP read
// error (a checksum, a corrupt deflate stream); ctx's error; or dst's own
// error as it is. Nothing is retried: a package's bytes do not change.
// Download is safe for concurrent use (with distinct sinks).
func (m *Member) Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	p := m.pkg
	switch {
	case m.err != nil:
		return resourcesync.Fetched{}, m.err
	case m.file == nil:
		return resourcesync.Fetched{}, &MemberError{Package: p.URL, Err: fmt.Errorf("%w: a deleted change has no bitstream", ErrNoPath)}
	case p.closed.Load():
		return resourcesync.Fetched{}, fmt.Errorf("package %s: %w", p.URL, ErrClosed)
	}
	length, hasLength := f.Length, f.HasLength
	if !hasLength && m.Entry.MD.HasLength {
		length, hasLength = m.Entry.MD.Length, true
	}
	limit := p.o.MaxEntrySize
	if hasLength {
		limit = length
	}
	n, sums, err := m.copy(ctx, dst, resourcesync.NewVerifier(f.Hash, length, hasLength, f.ExtraAlgs...), limit, hasLength)
	if err != nil {
		return resourcesync.Fetched{}, err
	}
	return resourcesync.Fetched{FinalURL: p.URL, Bytes: n, Sums: sums, ContentType: m.Entry.MD.Type}, nil
}

// copy streams the bitstream through v into dst, at most limit+1 bytes.
func (m *Member) copy(ctx context.Context, dst io.Writer, v *resourcesync.Verifier, limit int64, hasLength bool) (int64, resourcesync.Fixity, error) {
	p, what := m.pkg, fmt.Sprintf("bitstream %q of package %s", m.Entry.MD.Path, m.pkg.URL)
	if declared := m.file.UncompressedSize64; declared > uint64(limit) {
		// The ZIP directory already says it is too long; no need to
		// inflate anything to know.
		if hasLength {
			return 0, nil, fmt.Errorf("%s: %w", what, &resourcesync.MismatchError{Mismatches: []resourcesync.Mismatch{{
				Alg: "length", Want: fmt.Sprint(limit), Got: fmt.Sprintf("%d (ZIP directory)", declared)}}})
		}
		return 0, nil, fmt.Errorf("%s: %w: the ZIP directory declares %d bytes, more than %d", what, ErrTooLarge, declared, limit)
	}
	rc, err := m.file.Open()
	if err != nil {
		return 0, nil, fmt.Errorf("open %s: %w", what, err)
	}
	defer rc.Close()
	bp := p.bufs.Get().(*[]byte)
	defer p.bufs.Put(bp)
	buf := *bp
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, nil, err
		}
		if p.closed.Load() {
			return n, nil, fmt.Errorf("%s: %w", what, ErrClosed)
		}
		// Never ask for more than one byte past either bound: whatever a
		// hostile deflate stream holds, no more is inflated than that.
		left := p.o.MaxSize - p.inflated.Load()
		if left < 0 {
			return n, nil, m.overBudget(what)
		}
		k, rerr := rc.Read(buf[:min(int64(len(buf)), limit+1-n, left+1)])
		if k > 0 {
			n += int64(k)
			if p.inflated.Add(int64(k)) > p.o.MaxSize {
				return n, nil, m.overBudget(what)
			}
			if n > limit && !hasLength {
				return n, nil, fmt.Errorf("%s: %w: more than %d bytes without a length in the manifest; reading stopped",
					what, ErrTooLarge, limit)
			}
			if _, err := v.Write(buf[:k]); err != nil {
				return n, nil, fmt.Errorf("%s: %w", what, err)
			}
			if _, err := dst.Write(buf[:k]); err != nil {
				return n, nil, err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return n, nil, fmt.Errorf("read %s: %w", what, rerr)
		}
	}
	if err := v.Verify(); err != nil {
		return n, nil, fmt.Errorf("%s: %w", what, err)
	}
	return n, v.Sums(), nil
}

func (m *Member) overBudget(what string) error {
	return fmt.Errorf("%s: %w: the package inflates to more than %d bytes (--max-dump-size); reading stopped",
		what, ErrTooLarge, m.pkg.o.MaxSize)
}
