package resourcesync

import (
	"errors"
	"fmt"
	"io"
)

// The scanner is a small pull tokenizer for the XML that ResourceSync
// documents are made of. encoding/xml is general (DTDs, any encoding,
// interfaces and allocations per token) and too slow for lists of millions of
// entries; this one knows only what a Sitemap needs, checks well-formedness
// and namespaces as it goes, copies each token into buffers it reuses, and
// bounds everything by Limits.
//
// It keeps its own read buffer rather than a bufio.Reader: the hot loops scan
// a byte slice directly, and a token that runs past the end of the buffer is
// copied out piece by piece before the buffer is refilled, so no token ever
// needs the whole of itself in the buffer.

// event is what scanner.next found.
type event uint8

const (
	evEOF   event = iota // the end of a well-formed document
	evStart              // a start tag (or an empty-element tag, followed by its evEnd)
	evEnd                // an end tag
	evText               // character data or a CDATA section
)

type scanState uint8

const (
	stProlog  scanState = iota // before the root element
	stContent                  // inside the root element
	stEpilog                   // after the root element
	stDone                     // the end of the document was reached
)

const readBufSize = 64 << 10

// errMaxBytes is what fill returns once the document has more than
// MaxBytes bytes; readErr makes it the ErrLimit error.
var errMaxBytes = errors.New("MaxBytes exceeded")

// scanner reads one document. Not safe for concurrent use.
type scanner struct {
	r     io.Reader
	lim   Limits
	buf   []byte
	pos   int   // next unread byte in buf
	end   int   // end of the data in buf
	nread int64 // bytes read from r
	rerr  error // what r said last; returned once buf is drained
	err   error // sticky: the first error returned

	line    int // line of buf[pos], 1-based
	tokLine int // line where the current token starts
	state   scanState
	started bool // the byte order mark and XML declaration were looked at
	markup  bool // some markup was seen (to tell "not XML" from "text before the root")

	// The current token: valid until the next call of next.
	space      string // namespace URI of the element (evStart)
	local      []byte // local name of the element (evStart)
	attrs      []attr // attributes of the element (evStart), declarations excluded
	text       []byte // character data (evText), references resolved
	pendingEnd bool   // the last evStart was an empty-element tag

	arena []byte    // names and values of the current tag
	raw   []rawAttr // attributes of the current tag while it is read
	decls int       // namespace declarations among them
	dup   map[string]struct{}

	open  []openElem  // the open elements, root first
	names []byte      // qualified names of the open elements, back to back
	ns    []nsBinding // namespace declarations in scope, innermost last
}

// attr is an attribute of the current start tag, its prefix resolved.
type attr struct {
	space string // namespace URI; empty for an unprefixed attribute
	local []byte
	value []byte // normalized, references resolved
}

type openElem struct {
	nameStart int // offset of its qualified name in scanner.names
}

// scanError is an error of the scanner with the line it was found at.
type scanError struct {
	line int
	err  error
}

func (e *scanError) Error() string { return e.err.Error() }
func (e *scanError) Unwrap() error { return e.err }

func newScanner(r io.Reader, lim Limits) *scanner {
	return &scanner{
		r:    r,
		lim:  lim,
		buf:  make([]byte, readBufSize),
		line: 1,
		ns:   []nsBinding{{prefix: "xml", uri: xmlNamespace}},
	}
}

// depth is the number of open elements: 1 inside the root element.
func (s *scanner) depth() int { return len(s.open) }

// offset is the number of bytes of the document consumed so far.
func (s *scanner) offset() int64 { return s.nread - int64(s.end-s.pos) }

// next reads the next event. At an error it returns evEOF and the error,
// and keeps returning them.
func (s *scanner) next() (event, error) {
	if s.err != nil {
		return evEOF, s.err
	}
	if s.pendingEnd {
		s.pendingEnd = false
		s.pop()
		return evEnd, nil
	}
	var ev event
	var err error
	switch s.state {
	case stContent:
		ev, err = s.content()
	case stProlog:
		ev, err = s.prolog()
	case stEpilog:
		ev, err = s.epilog()
	default:
		return evEOF, nil
	}
	if err != nil {
		return evEOF, s.setErr(err)
	}
	return ev, nil
}

// skip reads past the end of the element whose start tag was the last
// event, checking everything in it.
func (s *scanner) skip() error {
	d := s.depth()
	for s.depth() >= d {
		if _, err := s.next(); err != nil {
			return err
		}
	}
	return nil
}

// content reads the next event inside the root element. Character data,
// CDATA sections, comments and processing instructions between two tags
// make one evText, so that a reader sees "a<!-- -->b" as the text "ab".
func (s *scanner) content() (event, error) {
	// text is emptied only when new text starts: after an evText, the end
	// tag that follows leaves it for the caller to read.
	text := false
	for {
		if s.pos >= s.end {
			if err := s.more("element content"); err != nil {
				return evEOF, err
			}
		}
		if s.buf[s.pos] != '<' {
			if !text && s.skipSpaceToTag() {
				continue
			}
			if !text {
				s.tokLine = s.line
				s.text = s.text[:0]
				text = true
			}
			if err := s.charData(); err != nil {
				return evEOF, err
			}
			continue
		}
		if err := s.need(2, "a tag"); err != nil {
			return evEOF, err
		}
		switch c := s.buf[s.pos+1]; c {
		case '?':
			if err := s.procInst(); err != nil {
				return evEOF, err
			}
		case '!':
			if !text && s.ensure(3) == nil && s.buf[s.pos+2] == '[' { // a CDATA section starts text
				s.tokLine = s.line
				s.text = s.text[:0]
				text = true
			}
			if _, err := s.bang(); err != nil {
				return evEOF, err
			}
		default:
			if text {
				return evText, nil // the tag is read by the next call
			}
			s.tokLine = s.line
			if c == '/' {
				return evEnd, s.endTag()
			}
			return evStart, s.startTag()
		}
		if len(s.text) > s.lim.MaxTokenBytes {
			return evEOF, s.failf(ErrLimit, "text longer than MaxTokenBytes (%d bytes)", s.lim.MaxTokenBytes)
		}
	}
}

// skipSpaceToTag skips white space at pos when the buffer shows that a tag
// follows it, and reports whether it did. White space alone between two
// tags is not reported as text: it is the indentation of every document,
// and the Reader trims every text value, so it would never make a
// difference but for time.
func (s *scanner) skipSpaceToTag() bool {
	b := s.buf[s.pos:s.end]
	i, nl := 0, 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '\n':
			nl++
		case ' ', '\t', '\r':
		default:
			goto end
		}
	}
	return false
end:
	// A start or end tag; not a comment, PI or CDATA section, which may
	// join text around them.
	if b[i] != '<' || i+1 == len(b) || b[i+1] == '!' || b[i+1] == '?' || i > s.lim.MaxTokenBytes {
		return false
	}
	s.pos += i
	s.line += nl
	return true
}

func (s *scanner) prolog() (event, error) {
	if !s.started {
		s.started = true
		if err := s.documentStart(); err != nil {
			return evEOF, err
		}
	}
	for {
		if err := s.skipSpace(); err != nil {
			return evEOF, err
		}
		if s.pos >= s.end {
			if err := s.fill(); err == io.EOF {
				if !s.markup {
					return evEOF, s.fail(ErrSyntax, "not XML: the document is empty")
				}
				return evEOF, s.fail(ErrSyntax, "no root element")
			} else if err != nil {
				return evEOF, s.readErr(err, "")
			}
			continue
		}
		s.tokLine = s.line
		if s.buf[s.pos] != '<' {
			if !s.markup {
				_ = s.ensure(24)
				return evEOF, s.failf(ErrSyntax, "not XML: the document starts with %q", s.buf[s.pos:min(s.end, s.pos+24)])
			}
			return evEOF, s.fail(ErrSyntax, "text before the root element")
		}
		s.markup = true
		if err := s.need(2, "a tag"); err != nil {
			return evEOF, err
		}
		switch s.buf[s.pos+1] {
		case '?':
			if err := s.procInst(); err != nil {
				return evEOF, err
			}
		case '!':
			if cdata, err := s.bang(); err != nil {
				return evEOF, err
			} else if cdata {
				return evEOF, s.fail(ErrSyntax, "CDATA section before the root element")
			}
		case '/':
			return evEOF, s.fail(ErrSyntax, "end tag before the root element")
		default:
			s.state = stContent
			return evStart, s.startTag()
		}
	}
}

func (s *scanner) epilog() (event, error) {
	for {
		if err := s.skipSpace(); err != nil {
			return evEOF, err
		}
		if s.pos >= s.end {
			if err := s.fill(); err == io.EOF {
				s.state = stDone
				return evEOF, nil
			} else if err != nil {
				return evEOF, s.readErr(err, "")
			}
			continue
		}
		s.tokLine = s.line
		if s.buf[s.pos] != '<' {
			return evEOF, s.fail(ErrSyntax, "text after the root element")
		}
		if err := s.need(2, "a tag"); err != nil {
			return evEOF, err
		}
		switch s.buf[s.pos+1] {
		case '?':
			if err := s.procInst(); err != nil {
				return evEOF, err
			}
		case '!':
			if cdata, err := s.bang(); err != nil {
				return evEOF, err
			} else if cdata {
				return evEOF, s.fail(ErrSyntax, "CDATA section after the root element")
			}
		default:
			return evEOF, s.fail(ErrSyntax, "content after the root element")
		}
	}
}

// documentStart handles what may only come first: a byte order mark and the
// XML declaration.
func (s *scanner) documentStart() error {
	_ = s.ensure(6) // a short document is dealt with by the callers
	b := s.buf[s.pos:s.end]
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		s.pos += 3
		_ = s.ensure(6)
		b = s.buf[s.pos:s.end]
	case len(b) >= 2 && (b[0] == 0xFE && b[1] == 0xFF || b[0] == 0xFF && b[1] == 0xFE):
		return s.fail(ErrSyntax, "unsupported encoding UTF-16 (only UTF-8 and US-ASCII are accepted)")
	}
	if len(b) >= 6 && string(b[:5]) == "<?xml" && isSpace(b[5]) {
		s.markup = true
		return s.xmlDecl()
	}
	return nil
}

// fill reads more of the document into buf, keeping the unread bytes. It
// returns nil when at least one byte was added, else the reason none was:
// io.EOF, errMaxBytes or a read error.
func (s *scanner) fill() error {
	if s.rerr != nil {
		return s.rerr
	}
	if s.pos > 0 {
		s.end = copy(s.buf, s.buf[s.pos:s.end])
		s.pos = 0
	}
	room := len(s.buf) - s.end
	// Read at most one byte past MaxBytes: enough to know it was exceeded.
	if left := s.lim.MaxBytes - s.nread; left < int64(room) {
		room = int(left) + 1
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end : s.end+room])
		s.end += n
		s.nread += int64(n)
		if s.nread > s.lim.MaxBytes {
			// Keep the bytes within the limit: the error comes when the
			// scanner needs the first byte past it, at that byte's line.
			s.end--
			s.nread--
			s.rerr = errMaxBytes
			if n > 1 {
				return nil
			}
			return s.rerr
		}
		if err != nil {
			s.rerr = err
			if n > 0 {
				return nil
			}
			return err
		}
		if n > 0 {
			return nil
		}
	}
	s.rerr = io.ErrNoProgress
	return s.rerr
}

// ensure makes n bytes available from pos if the document has them.
func (s *scanner) ensure(n int) error {
	for s.end-s.pos < n {
		if err := s.fill(); err != nil {
			return err
		}
	}
	return nil
}

// need is ensure for bytes that must be there: the end of the document
// there is an error, inside what.
func (s *scanner) need(n int, what string) error {
	if err := s.ensure(n); err != nil {
		return s.readErr(err, what)
	}
	return nil
}

// need1 is need(1), cheap when the byte is buffered.
func (s *scanner) need1(what string) error {
	if s.pos < s.end {
		return nil
	}
	return s.more(what)
}

// more is need(1) for a caller that found the buffer drained.
func (s *scanner) more(what string) error {
	if err := s.fill(); err != nil {
		return s.readErr(err, what)
	}
	return nil
}

// readErr turns what fill returned into the error to report.
func (s *scanner) readErr(err error, what string) error {
	var se *scanError
	switch {
	case errors.As(err, &se):
		return err
	case err == errMaxBytes:
		return s.failf(ErrLimit, "document longer than %d bytes (MaxBytes; the standard allows 50 MB per document)", s.lim.MaxBytes)
	case err == io.EOF:
		msg := "unexpected end of document"
		if what != "" {
			msg += " in " + what
		}
		if len(s.open) > 0 {
			return s.failf(ErrSyntax, "%s: <%s> is not closed", msg, s.openName(len(s.open)-1))
		}
		return s.fail(ErrSyntax, msg)
	}
	return &scanError{line: s.line, err: &reason{kind: err, msg: "read: " + err.Error()}}
}

func (s *scanner) setErr(err error) error {
	if s.err == nil {
		s.err = err
	}
	return s.err
}

func (s *scanner) fail(kind error, msg string) error {
	return &scanError{line: s.line, err: &reason{kind: kind, msg: msg}}
}

func (s *scanner) failf(kind error, format string, args ...any) error {
	return s.fail(kind, fmt.Sprintf(format, args...))
}

// tokenLimit fails when the token that started at offset start has grown
// past MaxTokenBytes; what names it.
func (s *scanner) tokenLimit(start int64, what string) error {
	if s.offset()-start > int64(s.lim.MaxTokenBytes) {
		return s.failf(ErrLimit, "%s longer than MaxTokenBytes (%d bytes)", what, s.lim.MaxTokenBytes)
	}
	return nil
}

// skipSpace skips XML white space, counting lines. A run of it is a token
// for MaxTokenBytes, so that no input is read without bound.
func (s *scanner) skipSpace() error {
	if s.pos < s.end && !isSpace(s.buf[s.pos]) {
		return nil // the common case: no space at all
	}
	start := s.offset()
	for {
		for s.pos < s.end {
			switch s.buf[s.pos] {
			case '\n':
				s.line++
			case ' ', '\t', '\r':
			default:
				return s.tokenLimit(start, "white space")
			}
			s.pos++
		}
		if err := s.tokenLimit(start, "white space"); err != nil {
			return err
		}
		if err := s.fill(); err == io.EOF {
			return nil
		} else if err != nil {
			return s.readErr(err, "")
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
