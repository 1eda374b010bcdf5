package resourcesync

import (
	"errors"
	"fmt"
)

// Sentinels wrapped by *ParseError; test with errors.Is. ErrDatetime and
// ErrHash (datetime.go, fixity.go) are wrapped the same way.
var (
	ErrSyntax       = errors.New("not well-formed XML")
	ErrRoot         = errors.New("root element is neither <urlset> nor <sitemapindex> of the Sitemap namespace")
	ErrNoCapability = errors.New("no top-level rs:md with a capability")
	ErrNoLoc        = errors.New("entry without <loc>")
	ErrLength       = errors.New("bad length")
	ErrLimit        = errors.New("document exceeds a limit")
	ErrAttribute    = errors.New("bad attribute")
)

// ParseError says which document, line and entry a parse failed at and why.
// Err wraps one of the sentinels above, ErrDatetime or ErrHash - or, when
// the document could not be read, the io.Reader's error - and its message is
// the specific reason ("wrong root <html>", "entry without <loc>").
type ParseError struct {
	Doc   string // the document's name, usually its URL
	Line  int    // 1-based; 0 when unknown
	Entry int    // 1-based index of the entry; 0 when not inside an entry
	Err   error
}

// Error reads "parse DOC: line L, entry E: reason".
func (e *ParseError) Error() string {
	where := ""
	switch {
	case e.Line > 0 && e.Entry > 0:
		where = fmt.Sprintf("line %d, entry %d: ", e.Line, e.Entry)
	case e.Line > 0:
		where = fmt.Sprintf("line %d: ", e.Line)
	case e.Entry > 0:
		where = fmt.Sprintf("entry %d: ", e.Entry)
	}
	return fmt.Sprintf("parse %s: %s%v", e.Doc, where, e.Err)
}

// Unwrap returns Err, so that errors.Is finds the sentinel.
func (e *ParseError) Unwrap() error { return e.Err }

// reason is the Err of a ParseError: the sentinel callers test for and the
// specific message a person reads ("wrong root <html>"), so that the
// message is not prefixed by the sentinel's generic text.
type reason struct {
	kind error
	msg  string
}

func (e *reason) Error() string { return e.msg }
func (e *reason) Unwrap() error { return e.kind }

// Limits bound what a Reader accepts, so that hostile documents fail fast
// and small. A zero field means the default from DefaultLimits.
type Limits struct {
	MaxBytes      int64 // bytes read from the document
	MaxEntries    int64 // <url> / <sitemap> elements
	MaxTokenBytes int   // one name, attribute value, text node or comment
	MaxDepth      int   // element nesting
	MaxLinks      int   // rs:ln elements in one entry or at the top
	MaxAttrs      int   // attributes on one element; also namespace declarations in scope at once
}

// DefaultLimits are generous: the standard caps a document at 50,000 entries
// and 50 MB; these accept twenty times that (a non-conforming list of
// 1,000,000 entries parses, one more is refused) while stopping hostile
// input early. Each document of an index is bounded on its own.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:      1 << 30,
		MaxEntries:    1_000_000,
		MaxTokenBytes: 64 << 10,
		MaxDepth:      64,
		MaxLinks:      1024,
		MaxAttrs:      256,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = d.MaxEntries
	}
	if l.MaxTokenBytes <= 0 {
		l.MaxTokenBytes = d.MaxTokenBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxLinks <= 0 {
		l.MaxLinks = d.MaxLinks
	}
	if l.MaxAttrs <= 0 {
		l.MaxAttrs = d.MaxAttrs
	}
	return l
}
