package resourcesync

import (
	"errors"
	"fmt"
	"io"
	"iter"
)

// Reader streams the entries of one <urlset> or <sitemapindex> document:
// it holds only the entry being read, so a list of any length is read in
// constant memory. It checks the XML (well-formedness, namespaces, UTF-8)
// and the parts of the standard a Destination relies on (a top-level rs:md
// with a capability, a <loc> in every entry, datetimes, hashes, lengths),
// skips elements it does not know, and stops at the first problem or at the
// first limit exceeded.
//
// Every error it returns, except io.EOF at the end, is a *ParseError whose
// Err wraps one of ErrSyntax, ErrRoot, ErrNoCapability, ErrNoLoc, ErrLength,
// ErrLimit, ErrAttribute, ErrDatetime or ErrHash (or, when reading failed,
// the error of the io.Reader). Errors are sticky: once one is returned,
// every later call returns it again. A Reader is not safe for concurrent
// use.
type Reader struct {
	s       *scanner
	name    string
	lim     Limits
	hdr     *Header
	err     error // sticky, io.EOF included
	count   int64 // entries returned
	n       int64 // entries started; the number of the current one
	line    int   // line of the start tag of the current entry
	pending bool  // the scanner is at the start tag of entry n, not yet read
	ended   bool  // the root element is closed
	val     []byte
	cache   internCache
}

// NewReader returns a Reader of the document r; name (the document's URL)
// is used in errors. Zero fields of lim take their DefaultLimits values.
// Nothing is read until Header or Next is called.
func NewReader(r io.Reader, name string, lim Limits) *Reader {
	lim = lim.withDefaults()
	return &Reader{s: newScanner(r, lim), name: name, lim: lim}
}

// Header reads the root element and the top-level rs:md and rs:ln elements
// up to the first entry, and returns them. It is idempotent: later calls
// return the same *Header, which the caller must not modify. A document
// without a top-level rs:md carrying a capability fails with
// ErrNoCapability.
func (r *Reader) Header() (*Header, error) {
	if r.hdr != nil {
		return r.hdr, nil
	}
	if r.err != nil {
		return nil, r.err
	}
	h, err := r.readHeader()
	if err != nil {
		r.err = err
		return nil, err
	}
	r.hdr = h
	return h, nil
}

// Next returns the next entry (<url> or <sitemap>), reading the header
// first if Header was not called. It returns io.EOF after the last entry,
// once the rest of the document was checked. Each *Entry is a fresh value
// the caller owns.
func (r *Reader) Next() (*Entry, error) {
	if r.hdr == nil {
		if _, err := r.Header(); err != nil {
			return nil, err
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	e, err := r.next()
	if err != nil {
		r.err = err
		return nil, err
	}
	r.count++
	return e, nil
}

// All ranges over the entries as Next returns them. It stops after the
// last entry, or after yielding the first error (with a nil *Entry).
func (r *Reader) All() iter.Seq2[*Entry, error] {
	return func(yield func(*Entry, error) bool) {
		for {
			e, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// Count is the number of entries Next has returned.
func (r *Reader) Count() int64 { return r.count }

// ReadDocument reads a whole document into memory; use a Reader for
// documents that may be large. Errors are those of Reader.
func ReadDocument(r io.Reader, name string, lim Limits) (*Document, error) {
	rd := NewReader(r, name, lim)
	h, err := rd.Header()
	if err != nil {
		return nil, err
	}
	d := &Document{Header: *h}
	for e, err := range rd.All() {
		if err != nil {
			return nil, err
		}
		d.Entries = append(d.Entries, *e)
	}
	return d, nil
}

// elemKind is what an element is to the Reader.
type elemKind uint8

const (
	elOther elemKind = iota
	elURL
	elSitemap
	elLoc
	elLastMod
	elChangeFreq
	elMD
	elLN
)

// kind classifies the element of the current evStart.
func (r *Reader) kind() elemKind {
	switch r.s.space {
	case NamespaceSitemap:
		switch string(r.s.local) {
		case "url":
			return elURL
		case "sitemap":
			return elSitemap
		case "loc":
			return elLoc
		case "lastmod":
			return elLastMod
		case "changefreq":
			return elChangeFreq
		}
	case NamespaceRS:
		switch string(r.s.local) {
		case "md":
			return elMD
		case "ln":
			return elLN
		}
	}
	return elOther
}

func (r *Reader) readHeader() (*Header, error) {
	s := r.s
	if _, err := s.next(); err != nil {
		return nil, r.wrap(err, 0)
	}
	h := &Header{}
	switch {
	case s.space == NamespaceSitemap && string(s.local) == "urlset":
		h.Root = RootURLSet
	case s.space == NamespaceSitemap && string(s.local) == "sitemapindex":
		h.Root = RootSitemapIndex
	case s.space == "":
		return nil, r.errorf(s.tokLine, 0, ErrRoot, "wrong root <%s> (in no namespace; want <urlset> or <sitemapindex> in %s)", s.local, NamespaceSitemap)
	default:
		return nil, r.errorf(s.tokLine, 0, ErrRoot, "wrong root <%s> in namespace %q (want <urlset> or <sitemapindex> in %s)", s.local, s.space, NamespaceSitemap)
	}
	hasMD := false
	for !r.pending && !r.ended {
		ev, err := s.next()
		if err != nil {
			return nil, r.wrap(err, 0)
		}
		switch ev {
		case evEnd:
			r.ended = true // only the root element can end here
		case evStart:
			switch k := r.kind(); k {
			case elURL, elSitemap:
				if err := r.startEntry(h.Root, k); err != nil {
					return nil, err
				}
			case elMD:
				line := s.tokLine
				if hasMD {
					return nil, r.errorf(line, 0, ErrAttribute, "more than one top-level rs:md")
				}
				hasMD = true
				if err := r.metadata(&h.MD, false); err != nil {
					return nil, r.wrapAt(err, line, 0)
				}
				if err := s.skip(); err != nil {
					return nil, r.wrap(err, 0)
				}
			case elLN:
				line := s.tokLine
				if len(h.Links) >= r.lim.MaxLinks {
					return nil, r.errorf(line, 0, ErrLimit, "more than MaxLinks (%d) top-level rs:ln", r.lim.MaxLinks)
				}
				l, err := r.link()
				if err != nil {
					return nil, r.wrapAt(err, line, 0)
				}
				h.Links = append(h.Links, l)
				if err := s.skip(); err != nil {
					return nil, r.wrap(err, 0)
				}
			default:
				if err := s.skip(); err != nil {
					return nil, r.wrap(err, 0)
				}
			}
		}
	}
	switch {
	case !hasMD:
		return nil, r.errorf(s.tokLine, 0, ErrNoCapability, "no top-level rs:md: not a ResourceSync document")
	case h.MD.Capability == "":
		return nil, r.errorf(s.tokLine, 0, ErrNoCapability, "the top-level rs:md has no capability attribute")
	}
	return h, nil
}

// startEntry checks the entry whose start tag was just read and marks it
// as the one to read next.
func (r *Reader) startEntry(root Root, k elemKind) error {
	line := r.s.tokLine
	if root == RootURLSet && k != elURL || root == RootSitemapIndex && k != elSitemap {
		return r.errorf(line, r.n+1, ErrRoot, "<%s> entry in a <%s> document", r.s.local, root)
	}
	if r.n >= r.lim.MaxEntries {
		return r.errorf(line, r.n+1, ErrLimit, "more than %d entries (MaxEntries; the standard allows 50,000 per document)", r.lim.MaxEntries)
	}
	r.n++
	r.line = line
	r.pending = true
	return nil
}

func (r *Reader) next() (*Entry, error) {
	s := r.s
	for !r.pending {
		if r.ended {
			// Check what follows the root element before saying it is over.
			if _, err := s.next(); err != nil {
				return nil, r.wrap(err, 0)
			}
			return nil, io.EOF
		}
		ev, err := s.next()
		if err != nil {
			return nil, r.wrap(err, 0)
		}
		switch ev {
		case evEnd:
			r.ended = true
		case evStart:
			switch k := r.kind(); k {
			case elURL, elSitemap:
				if err := r.startEntry(r.hdr.Root, k); err != nil {
					return nil, err
				}
			case elMD, elLN:
				return nil, r.errorf(s.tokLine, 0, ErrAttribute,
					"top-level rs:%s after the first entry: the document's rs:md and rs:ln must come before its entries", s.local)
			default:
				if err := s.skip(); err != nil {
					return nil, r.wrap(err, 0)
				}
			}
		}
	}
	r.pending = false
	return r.entry()
}

// wrap makes a scanner error a *ParseError.
func (r *Reader) wrap(err error, entry int64) error {
	var se *scanError
	if errors.As(err, &se) {
		return &ParseError{Doc: r.name, Line: se.line, Entry: int(entry), Err: se.err}
	}
	return &ParseError{Doc: r.name, Entry: int(entry), Err: err}
}

// wrapAt makes an error about the element at line a *ParseError.
func (r *Reader) wrapAt(err error, line int, entry int64) error {
	return &ParseError{Doc: r.name, Line: line, Entry: int(entry), Err: err}
}

func (r *Reader) errorf(line int, entry int64, kind error, format string, args ...any) error {
	return r.wrapAt(&reason{kind: kind, msg: fmt.Sprintf(format, args...)}, line, entry)
}
