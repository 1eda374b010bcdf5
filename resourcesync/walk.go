package resourcesync

import (
	"context"
	"fmt"
	"io"
	"net/url"
)

// Opener opens the document at url. finalURL is where it was read from after
// redirects: relative URIs in the document resolve against it. Walk closes
// the body.
type Opener func(ctx context.Context, url string) (finalURL string, body io.ReadCloser, err error)

// Part is one <urlset> document reached by Walk, directly or through an
// index.
type Part struct {
	URL      string  // final URL of the document
	Header   *Header // its header
	Index    *Header // the enclosing index's header; nil when not under an index
	Ref      *Entry  // the index entry that pointed at it; nil when not under an index
	Position int     // 1-based position of Ref in the index; 0 when not under an index
}

// WalkOptions tune Walk. The zero value walks everything with default limits.
type WalkOptions struct {
	Limits Limits
	// SkipPart, when set, is asked before fetching each document an index
	// lists; true skips it without fetching it (a closed Change List
	// already processed).
	SkipPart func(ref *Entry) bool
	// StartPart and EndPart, when set, bracket the entries of each
	// document. An error from either stops the walk.
	StartPart func(p *Part) error
	EndPart   func(p *Part) error
	// Read, when set, is told the share (0 to 1) of the walk read so far,
	// as each entry is read: a progress display estimates the number of
	// entries from it before the end. For an index, each part it lists
	// counts as an equal share. It is told nothing for a document whose
	// size the opener's body does not give (a Size() int64 method).
	Read func(share float64)
}

// sized is a body that knows its size (a spooled document).
type sized interface{ Size() int64 }

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// CapabilityMismatchError says a document is not what pointed at it says it
// is: a Capability List naming a Change List that turns out to be a Resource
// List, an index part of another capability.
type CapabilityMismatchError struct {
	URL  string
	Got  Capability
	Want Capability
}

func (e *CapabilityMismatchError) Error() string {
	return fmt.Sprintf("%s is a %s, not the %s that points at it", e.URL, e.Got.Name(), e.Want.Name())
}

// Walk reads the document at docURL, which must be a document of capability
// want (a <urlset>, or a <sitemapindex> of such documents), and calls fn for
// every entry in document order - for an index, every entry of every
// document it lists, in index order. Each entry's Loc is made absolute
// against the final URL of its document (dot segments removed); a Loc that
// does not parse as a URI reference is passed on unchanged for fn to reject.
// It returns the header of the document at docURL.
//
// Walk stops at the first error from open, the parser, a capability
// mismatch, an index nested in an index, ctx, or fn, and returns it wrapped
// with the URL of the document concerned.
func Walk(ctx context.Context, open Opener, docURL string, want Capability, opts WalkOptions, fn func(p *Part, e *Entry) error) (*Header, error) {
	top, err := walkDoc(ctx, open, docURL, want, opts, nil, nil, 0, opts.Read, fn)
	return top, err
}

func walkDoc(ctx context.Context, open Opener, docURL string, want Capability, opts WalkOptions,
	index *Header, ref *Entry, pos int, read func(share float64), fn func(p *Part, e *Entry) error) (*Header, error) {
	final, body, err := open(ctx, docURL)
	if err != nil {
		return nil, fmt.Errorf("open %s %s: %w", want.Name(), docURL, err)
	}
	defer body.Close()
	base, err := url.Parse(final)
	if err != nil {
		return nil, fmt.Errorf("open %s %s: final URL %q: %w", want.Name(), docURL, final, err)
	}
	var in io.Reader = body
	var counted *countingReader
	var size int64
	if sz, ok := body.(sized); ok && read != nil && sz.Size() > 0 {
		counted, size = &countingReader{r: body}, sz.Size()
		in = counted
	}
	r := NewReader(in, final, opts.Limits)
	h, err := r.Header()
	if err != nil {
		return nil, err
	}
	if h.Capability() != want {
		return nil, &CapabilityMismatchError{URL: final, Got: h.Capability(), Want: want}
	}
	if h.IsIndex() {
		if index != nil {
			return nil, fmt.Errorf("%s: an index listed by the index %s; nested indexes are not part of the standard", final, docURL)
		}
		return h, walkIndex(ctx, open, r, base, h, want, opts, fn)
	}
	p := &Part{URL: final, Header: h, Index: index, Ref: ref, Position: pos}
	if opts.StartPart != nil {
		if err := opts.StartPart(p); err != nil {
			return nil, err
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		e.Loc = resolve(base, e.Loc)
		if counted != nil {
			read(min(float64(counted.n)/float64(size), 1))
		}
		if err := fn(p, e); err != nil {
			return nil, err
		}
	}
	if counted != nil {
		read(1)
	}
	if opts.EndPart != nil {
		if err := opts.EndPart(p); err != nil {
			return nil, err
		}
	}
	return h, nil
}

func walkIndex(ctx context.Context, open Opener, r *Reader, base *url.URL, h *Header, want Capability,
	opts WalkOptions, fn func(p *Part, e *Entry) error) error {
	// The index itself is small (at most 50,000 parts by the standard), but
	// read it whole before opening parts so that only one body is open at a
	// time.
	var refs []*Entry
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		e.Loc = resolve(base, e.Loc)
		refs = append(refs, e)
	}
	seen := make(map[string]bool, len(refs))
	for i, ref := range refs {
		if seen[ref.Loc] {
			continue // an index listing a part twice: read it once
		}
		seen[ref.Loc] = true
		if opts.SkipPart != nil && opts.SkipPart(ref) {
			continue
		}
		var read func(float64)
		if opts.Read != nil {
			read = func(share float64) { opts.Read((float64(i) + share) / float64(len(refs))) }
		}
		if _, err := walkDoc(ctx, open, ref.Loc, want, opts, h, ref, i+1, read, fn); err != nil {
			return err
		}
	}
	return nil
}

// resolve makes loc absolute against base, removing dot segments. A loc
// that is not a URI reference is returned as given.
func resolve(base *url.URL, loc string) string {
	u, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	return base.ResolveReference(u).String()
}

// Resolve makes ref absolute against the document URL base, as Walk does
// for entries; a ref that does not parse is returned as given.
func Resolve(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	return resolve(b, ref)
}
