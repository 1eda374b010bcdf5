package resourcesync

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"
)

// rawAttr locates one attribute of the tag being read in scanner.arena.
type rawAttr struct {
	name, colon, nameEnd int // colon < name for an unprefixed name
	val, valEnd          int
}

// startTag reads a start tag or empty-element tag at pos.
func (s *scanner) startTag() error {
	s.pos++ // '<'
	s.arena = s.arena[:0]
	s.raw = s.raw[:0]
	_, colon, nameEnd, err := s.name("an element name")
	if err != nil {
		return err
	}
	empty := false
	for {
		spaceStart := s.offset()
		if err := s.skipSpace(); err != nil {
			return err
		}
		spaced := s.offset() > spaceStart
		if err := s.need1("a start tag"); err != nil {
			return err
		}
		c := s.buf[s.pos]
		if c == '>' {
			s.pos++
			break
		}
		if c == '/' {
			if err := s.need(2, "a start tag"); err != nil {
				return err
			}
			if s.buf[s.pos+1] != '>' {
				return s.failf(ErrSyntax, "'/' not followed by '>' in the tag <%s>", s.arena[:nameEnd])
			}
			s.pos += 2
			empty = true
			break
		}
		if !spaced {
			return s.failf(ErrSyntax, "unexpected %s in the tag <%s>", quoteByte(c), s.arena[:nameEnd])
		}
		if len(s.raw) >= s.lim.MaxAttrs {
			return s.failf(ErrLimit, "more than MaxAttrs (%d) attributes on <%s>", s.lim.MaxAttrs, s.arena[:nameEnd])
		}
		if err := s.attribute(nameEnd); err != nil {
			return err
		}
	}
	if len(s.open) >= s.lim.MaxDepth {
		return s.failf(ErrLimit, "elements nested deeper than MaxDepth (%d)", s.lim.MaxDepth)
	}
	if err := s.declare(nameEnd); err != nil {
		return err
	}
	s.open = append(s.open, openElem{nameStart: len(s.names)})
	s.names = append(s.names, s.arena[:nameEnd]...)
	space, err := s.resolveElement(colon, nameEnd)
	if err != nil {
		return err
	}
	s.space = space
	s.local = s.arena[colon+1 : nameEnd]
	if err := s.resolveAttrs(nameEnd); err != nil {
		return err
	}
	s.pendingEnd = empty
	return nil
}

// attribute reads name="value" at pos into the arena.
func (s *scanner) attribute(tagEnd int) error {
	name, colon, nameEnd, err := s.name("an attribute name")
	if err != nil {
		return err
	}
	if err := s.skipSpace(); err != nil {
		return err
	}
	if err := s.need1("a start tag"); err != nil {
		return err
	}
	if s.buf[s.pos] != '=' {
		return s.failf(ErrSyntax, "attribute %s of <%s> has no value", s.arena[name:nameEnd], s.arena[:tagEnd])
	}
	s.pos++
	if err := s.skipSpace(); err != nil {
		return err
	}
	if err := s.need1("a start tag"); err != nil {
		return err
	}
	q := s.buf[s.pos]
	if q != '"' && q != '\'' {
		return s.failf(ErrSyntax, "value of attribute %s of <%s> is not in quotes", s.arena[name:nameEnd], s.arena[:tagEnd])
	}
	s.pos++
	val := len(s.arena)
	if err := s.attrValue(q); err != nil {
		return err
	}
	s.raw = append(s.raw, rawAttr{name: name, colon: colon, nameEnd: nameEnd, val: val, valEnd: len(s.arena)})
	return nil
}

// endTag reads an end tag at pos and closes the innermost element.
func (s *scanner) endTag() error {
	s.pos += 2 // "</"
	open := s.openName(len(s.open) - 1)
	// Fast path: the name of the open element, then a byte that ends it.
	if n := len(open); s.ensure(n+1) == nil && string(s.buf[s.pos:s.pos+n]) == string(open) {
		if c := s.buf[s.pos+n]; c == '>' {
			s.pos += n + 1
			s.pop()
			return nil
		} else if c < utf8.RuneSelf && charClass[c]&clName == 0 {
			s.pos += n
			return s.endTagClose(open)
		}
	}
	s.arena = s.arena[:0]
	if _, _, nameEnd, err := s.name("an end tag"); err != nil {
		return err
	} else if !bytes.Equal(s.arena[:nameEnd], open) {
		return s.failf(ErrSyntax, "end tag </%s> does not match <%s>", s.arena[:nameEnd], open)
	}
	return s.endTagClose(open)
}

// endTagClose reads what follows the name in an end tag: space and '>'.
func (s *scanner) endTagClose(name []byte) error {
	if err := s.skipSpace(); err != nil {
		return err
	}
	if err := s.need1("an end tag"); err != nil {
		return err
	}
	if s.buf[s.pos] != '>' {
		return s.failf(ErrSyntax, "unexpected %s in the end tag </%s>", quoteByte(s.buf[s.pos]), name)
	}
	s.pos++
	s.pop()
	return nil
}

// pop closes the innermost element and the declarations made on it.
func (s *scanner) pop() {
	d := len(s.open)
	for len(s.ns) > 0 && s.ns[len(s.ns)-1].depth == d {
		s.ns = s.ns[:len(s.ns)-1]
	}
	s.names = s.names[:s.open[d-1].nameStart]
	s.open = s.open[:d-1]
	if d == 1 {
		s.state = stEpilog
	}
}

// openName is the qualified name of the open element i.
func (s *scanner) openName(i int) []byte {
	end := len(s.names)
	if i+1 < len(s.open) {
		end = s.open[i+1].nameStart
	}
	return s.names[s.open[i].nameStart:end]
}

// bang reads markup starting "<!" at pos: a comment (skipped), a CDATA
// section (its content goes to text and cdata is true) or a DOCTYPE, which
// is refused: without a DTD there are no entities to expand, which rules out
// entity-expansion attacks altogether.
func (s *scanner) bang() (cdata bool, err error) {
	_ = s.ensure(9)
	b := s.buf[s.pos:s.end]
	switch {
	case bytes.HasPrefix(b, []byte("<!--")):
		s.pos += 4
		return false, s.until("-->", false, "comment")
	case bytes.HasPrefix(b, []byte("<![CDATA[")):
		if s.state != stContent {
			return true, nil // the caller says where it is not allowed
		}
		s.pos += 9
		return true, s.until("]]>", true, "CDATA section")
	case bytes.HasPrefix(b, []byte("<!DOCTYPE")):
		s.pos += 9
		_ = s.skipSpace()
		_ = s.ensure(64)
		n := 0
		for n < s.end-s.pos && n < 64 && charClass[s.buf[s.pos+n]]&clName != 0 {
			n++
		}
		if n > 0 {
			return false, s.failf(ErrSyntax, "DOCTYPE %s: DTDs are not accepted", s.buf[s.pos:s.pos+n])
		}
		return false, s.fail(ErrSyntax, "DOCTYPE: DTDs are not accepted")
	}
	if len(b) < 9 && s.rerr == io.EOF {
		return false, s.readErr(io.EOF, "markup")
	}
	return false, s.fail(ErrSyntax, "unknown markup after '<!' (only comments and CDATA sections are allowed)")
}

// procInst skips a processing instruction at pos.
func (s *scanner) procInst() error {
	s.pos += 2 // "<?"
	s.arena = s.arena[:0]
	if _, _, nameEnd, err := s.name("a processing instruction"); err != nil {
		return err
	} else if strings.EqualFold(string(s.arena[:nameEnd]), "xml") {
		return s.fail(ErrSyntax, "XML declaration not at the start of the document")
	}
	if err := s.need(2, "a processing instruction"); err != nil {
		return err
	}
	if s.buf[s.pos] == '?' && s.buf[s.pos+1] == '>' {
		s.pos += 2
		return nil
	}
	if !isSpace(s.buf[s.pos]) {
		return s.failf(ErrSyntax, "unexpected %s after the target of a processing instruction", quoteByte(s.buf[s.pos]))
	}
	return s.until("?>", false, "processing instruction")
}

// xmlDecl reads the XML declaration at pos and checks its version and
// encoding: this package reads UTF-8 only (US-ASCII being a subset).
func (s *scanner) xmlDecl() error {
	s.pos += 5 // "<?xml"
	s.text = s.text[:0]
	if err := s.until("?>", true, "XML declaration"); err != nil {
		return err
	}
	d := s.text
	next := func() (name, value string, ok bool) {
		d = bytes.TrimLeft(d, " \t\r\n")
		eq := bytes.IndexByte(d, '=')
		if eq < 0 {
			return "", "", false
		}
		name = string(bytes.TrimRight(d[:eq], " \t\r\n"))
		d = bytes.TrimLeft(d[eq+1:], " \t\r\n")
		if len(d) == 0 || d[0] != '"' && d[0] != '\'' {
			return "", "", false
		}
		q := bytes.IndexByte(d[1:], d[0])
		if q < 0 {
			return "", "", false
		}
		value, d = string(d[1:1+q]), d[2+q:]
		return name, value, true
	}
	seen := 0
	for len(bytes.TrimLeft(d, " \t\r\n")) > 0 {
		name, value, ok := next()
		if !ok {
			return s.fail(ErrSyntax, "malformed XML declaration")
		}
		switch {
		case name == "version" && seen == 0:
			if len(value) < 3 || !strings.HasPrefix(value, "1.") || strings.Trim(value[2:], "0123456789") != "" {
				return s.failf(ErrSyntax, "unsupported XML version %q", value)
			}
		case name == "encoding" && seen == 1:
			if !strings.EqualFold(value, "UTF-8") && !strings.EqualFold(value, "US-ASCII") {
				return s.failf(ErrSyntax, "unsupported encoding %q (only UTF-8 and US-ASCII are accepted)", value)
			}
		case name == "standalone" && seen >= 1 && seen <= 2:
			if value != "yes" && value != "no" {
				return s.failf(ErrSyntax, "bad standalone %q in the XML declaration", value)
			}
			seen = 2
		default:
			return s.failf(ErrSyntax, "unexpected %q in the XML declaration", name)
		}
		seen++
	}
	if seen == 0 {
		return s.fail(ErrSyntax, "XML declaration without a version")
	}
	return nil
}

// until reads up to and past term, checking characters and counting lines;
// with collect, what it read (line ends normalized) is appended to text.
func (s *scanner) until(term string, collect bool, what string) error {
	start := s.offset()
	t0 := term[0]
	for {
		if s.pos >= s.end {
			if err := s.tokenLimit(start, what); err != nil {
				return err
			}
			if err := s.more("a " + what); err != nil {
				return err
			}
		}
		b := s.buf[s.pos:s.end]
		i := 0
		for i < len(b) {
			c := b[i]
			if c >= 0x20 && c < 0x80 && c != t0 || c == '\t' {
				i++
				continue
			}
			if c == '\n' {
				s.line++
				i++
				continue
			}
			break
		}
		if collect {
			s.text = append(s.text, b[:i]...)
		}
		s.pos += i
		if err := s.tokenLimit(start, what); err != nil {
			return err
		}
		if i == len(b) {
			continue
		}
		switch c := b[i]; {
		case c == t0:
			if err := s.need(len(term), "a "+what); err != nil {
				return err
			}
			if string(s.buf[s.pos:s.pos+len(term)]) == term {
				s.pos += len(term)
				return nil
			}
			if collect {
				s.text = append(s.text, c)
			}
			s.pos++
		case c == '\r':
			if err := s.newline(collect); err != nil {
				return err
			}
		default:
			var err error
			var dst *[]byte
			if collect {
				dst = &s.text
			}
			if err = s.char(dst); err != nil {
				return err
			}
		}
	}
}

// newline normalizes "\r\n" and a lone "\r" at pos to "\n" in text.
func (s *scanner) newline(collect bool) error {
	_ = s.ensure(2)
	if s.end-s.pos >= 2 && s.buf[s.pos+1] == '\n' {
		s.pos++ // the '\n' is taken by the caller's loop
		return nil
	}
	s.pos++
	if collect {
		s.text = append(s.text, '\n')
	}
	return nil
}
