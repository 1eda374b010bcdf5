package resourcesync

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"unicode/utf8"
)

// Byte classes of charClass.
const (
	clText      = 1 << iota // taken as is in character data
	clAttr                  // taken as is in an attribute value
	clName                  // an ASCII name character
	clNameStart             // an ASCII name start character
)

// charClass gives the classes of each byte. Bytes of no class need a closer
// look (markup, references, line ends, control characters, non-ASCII). A
// constant, so it cannot change; TestCharClass checks it against its
// definition.
const charClass = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x03\x03\x01\x03\x03\x03\x00\x01\x03\x03\x03\x03\x03\x07\x07\x03" +
	"\x07\x07\x07\x07\x07\x07\x07\x07\x07\x07\x0f\x03\x00\x03\x03\x03" +
	"\x03\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f" +
	"\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x03\x03\x02\x03\x0f" +
	"\x03\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f" +
	"\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x0f\x03\x03\x03\x03\x03" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// The fast loops look at eight bytes at a time (SWAR): a mask with the high
// bit of each byte that needs a closer look. Only the lowest flagged byte is
// exact (a borrow may flag bytes above a true one), which is all they use.
const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// swarEq flags the bytes of x equal to c.
func swarEq(x uint64, c byte) uint64 {
	y := x ^ (swarOnes * uint64(c))
	return (y - swarOnes) & ^y & swarHigh
}

// swarSpecial flags the bytes of x that are control characters or
// non-ASCII.
func swarSpecial(x uint64) uint64 {
	return x&swarHigh | (x-swarOnes*0x20)&^x&swarHigh
}

// firstSpecial returns the index of the first byte of b from i on that the
// byte loops must look at: for text (quote 0) one of no clText class or a
// tab or line feed; for an attribute value the quote or a byte not of
// clAttr other than the other quote.
// It returns len(b) when there is none.
func firstSpecial(b []byte, i int, quote byte) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		var m uint64
		if quote == 0 {
			m = swarSpecial(x) | swarEq(x, '<') | swarEq(x, '&') | swarEq(x, ']')
		} else {
			m = swarSpecial(x) | swarEq(x, '<') | swarEq(x, '&') | swarEq(x, quote)
		}
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		c := b[i]
		if quote == 0 {
			if charClass[c]&clText == 0 || c == '\t' {
				return i
			}
		} else if charClass[c]&clAttr == 0 && c != '"' && c != '\'' || c == quote {
			return i
		}
	}
	return i
}

// maxRef bounds a reference ("&#x10FFFF;" and a few leading zeros).
const maxRef = 16

// charData reads character data at pos, up to the next '<' or the end of
// the document, appending it to text.
func (s *scanner) charData() error {
	start := s.offset() - int64(len(s.text))
	for {
		if s.pos >= s.end {
			if err := s.fill(); err == io.EOF {
				return nil // the caller reports what is not closed
			} else if err != nil {
				return s.readErr(err, "")
			}
		}
		b := s.buf[s.pos:s.end]
		i := 0
		for {
			i = firstSpecial(b, i, 0)
			if i == len(b) {
				break
			}
			if c := b[i]; c == '\n' {
				s.line++
			} else if c != '\t' {
				break
			}
			i++
		}
		s.text = append(s.text, b[:i]...)
		s.pos += i
		if err := s.tokenLimit(start, "text"); err != nil {
			return err
		}
		if i == len(b) {
			continue
		}
		var err error
		switch c := b[i]; c {
		case '<':
			return nil
		case '&':
			err = s.reference(&s.text)
		case ']':
			_ = s.ensure(3)
			if s.end-s.pos >= 3 && s.buf[s.pos+1] == ']' && s.buf[s.pos+2] == '>' {
				return s.fail(ErrSyntax, "']]>' in text (write ']]&gt;')")
			}
			s.text = append(s.text, ']')
			s.pos++
		case '\r':
			err = s.newline(true)
		default:
			err = s.char(&s.text)
		}
		if err != nil {
			return err
		}
	}
}

// attrValue reads an attribute value at pos up to the quote q into the
// arena, normalized as XML says: references resolved, each literal tab and
// line end a space.
func (s *scanner) attrValue(q byte) error {
	start := s.offset()
	for {
		if s.pos >= s.end {
			if err := s.more("an attribute value"); err != nil {
				return err
			}
		}
		b := s.buf[s.pos:s.end]
		i := firstSpecial(b, 0, q)
		s.arena = append(s.arena, b[:i]...)
		s.pos += i
		if err := s.tokenLimit(start, "attribute value"); err != nil {
			return err
		}
		if i == len(b) {
			continue
		}
		var err error
		switch c := b[i]; c {
		case q:
			s.pos++
			return nil
		case '"', '\'':
			s.arena = append(s.arena, c)
			s.pos++
		case '<':
			return s.fail(ErrSyntax, "'<' in an attribute value (write &lt;)")
		case '&':
			err = s.reference(&s.arena)
		case '\n', '\t':
			if c == '\n' {
				s.line++
			}
			s.arena = append(s.arena, ' ')
			s.pos++
		case '\r':
			_ = s.ensure(2)
			if s.end-s.pos < 2 || s.buf[s.pos+1] != '\n' {
				s.arena = append(s.arena, ' ')
			}
			s.pos++ // a following '\n' becomes the space
		default:
			err = s.char(&s.arena)
		}
		if err != nil {
			return err
		}
	}
}

// char checks the character at pos that the fast loops stopped at (a
// control character or the first byte of a UTF-8 sequence), appends it to
// *dst unless dst is nil, and moves past it.
func (s *scanner) char(dst *[]byte) error {
	c := s.buf[s.pos]
	if c < utf8.RuneSelf {
		return s.failf(ErrSyntax, "character %U is not allowed in XML", rune(c))
	}
	_ = s.ensure(utf8.UTFMax)
	r, n := utf8.DecodeRune(s.buf[s.pos:s.end])
	if r == utf8.RuneError && n <= 1 {
		return s.fail(ErrSyntax, "invalid UTF-8")
	}
	if r == 0xFFFE || r == 0xFFFF {
		return s.failf(ErrSyntax, "character %U is not allowed in XML", r)
	}
	if dst != nil {
		*dst = append(*dst, s.buf[s.pos:s.pos+n]...)
	}
	s.pos += n
	return nil
}

// reference resolves the entity or character reference at pos and appends
// the character to *dst. Only the five predefined entities exist: DTDs are
// refused, so nothing else can be defined.
func (s *scanner) reference(dst *[]byte) error {
	_ = s.ensure(maxRef)
	b := s.buf[s.pos+1 : min(s.end, s.pos+maxRef)]
	semi := -1
	for i, c := range b {
		if c == ';' {
			semi = i
			break
		}
	}
	if semi <= 0 {
		return s.fail(ErrSyntax, "'&' not followed by a reference such as &amp;")
	}
	name := b[:semi]
	var r rune
	switch string(name) {
	case "lt":
		r = '<'
	case "gt":
		r = '>'
	case "amp":
		r = '&'
	case "apos":
		r = '\''
	case "quot":
		r = '"'
	default:
		if name[0] != '#' {
			return s.failf(ErrSyntax, "undefined entity &%s;", name)
		}
		var ok bool
		if r, ok = charRef(name[1:]); !ok {
			return s.failf(ErrSyntax, "bad character reference &%s;", name)
		}
	}
	*dst = utf8.AppendRune(*dst, r)
	s.pos += semi + 2
	return nil
}

// charRef decodes the digits of a character reference ("65", "x41") and
// reports whether they name a character allowed in XML.
func charRef(d []byte) (rune, bool) {
	base := 10
	if len(d) > 0 && d[0] == 'x' {
		base, d = 16, d[1:]
	}
	if len(d) == 0 {
		return 0, false
	}
	var r rune
	for _, c := range d {
		var v rune
		switch {
		case '0' <= c && c <= '9':
			v = rune(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			v = rune(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			v = rune(c-'A') + 10
		default:
			return 0, false
		}
		r = r*rune(base) + v
		if r > utf8.MaxRune {
			return 0, false
		}
	}
	return r, isXMLChar(r)
}

// isXMLChar reports whether r is a Char of XML 1.0.
func isXMLChar(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xE000:
		return false
	case r <= 0xFFFD:
		return true
	}
	return r >= 0x10000 && r <= utf8.MaxRune
}

// name reads an XML name at pos into the arena and returns where it is and
// where its colon is (-1 for none). A name with a colon must be
// prefix:local, both non-empty, as Namespaces in XML requires.
func (s *scanner) name(what string) (start, colon, end int, err error) {
	start = len(s.arena)
	// Fast path: an ASCII name that ends inside the buffer.
	b := s.buf[s.pos:s.end]
	i := 0
	colon = start - 1 // so that local is always arena[colon+1:end]
	for i < len(b) && charClass[b[i]]&clName != 0 {
		if b[i] == ':' {
			if colon >= start || i == 0 {
				colon = -2
			} else {
				colon = start + i
			}
		}
		i++
	}
	if i > 0 && i < len(b) && b[i] < utf8.RuneSelf && i <= s.lim.MaxTokenBytes &&
		charClass[b[0]]&clNameStart != 0 && colon != -2 && b[i-1] != ':' {
		s.arena = append(s.arena, b[:i]...)
		s.pos += i
		return start, colon, len(s.arena), nil
	}
	off := s.offset()
	for {
		if s.pos >= s.end {
			if err := s.more(what); err != nil {
				return 0, 0, 0, err
			}
		}
		b := s.buf[s.pos:s.end]
		i := 0
		for i < len(b) && charClass[b[i]]&clName != 0 {
			i++
		}
		s.arena = append(s.arena, b[:i]...)
		s.pos += i
		if err := s.tokenLimit(off, "name"); err != nil {
			return 0, 0, 0, err
		}
		if i < len(b) {
			if b[i] < utf8.RuneSelf {
				break
			}
			_ = s.ensure(utf8.UTFMax)
			r, n := utf8.DecodeRune(s.buf[s.pos:s.end])
			if r == utf8.RuneError && n <= 1 {
				return 0, 0, 0, s.fail(ErrSyntax, "invalid UTF-8")
			}
			if !isNameRune(r) {
				break
			}
			s.arena = append(s.arena, s.buf[s.pos:s.pos+n]...)
			s.pos += n
		}
	}
	end = len(s.arena)
	n := s.arena[start:end]
	if len(n) == 0 {
		if s.pos < s.end {
			return 0, 0, 0, s.failf(ErrSyntax, "expected %s, found %s", what, quoteByte(s.buf[s.pos]))
		}
		return 0, 0, 0, s.failf(ErrSyntax, "expected %s", what)
	}
	if r, _ := utf8.DecodeRune(n); r < utf8.RuneSelf && charClass[r]&clNameStart == 0 || r >= utf8.RuneSelf && !isNameStartRune(r) {
		return 0, 0, 0, s.failf(ErrSyntax, "%q is not a name: it cannot start with %q", n, r)
	}
	colon = -1
	for i, c := range n {
		if c == ':' {
			if colon >= 0 || i == 0 || i == len(n)-1 {
				return 0, 0, 0, s.failf(ErrSyntax, "%q is not a name of the form prefix:local", n)
			}
			colon = start + i
		}
	}
	if colon < 0 {
		colon = start - 1 // so that local is always arena[colon+1:end]
	}
	return start, colon, end, nil
}

// isNameStartRune and isNameRune are XML 1.0's NameStartChar and NameChar
// for non-ASCII characters (ASCII is in charClass).
func isNameStartRune(r rune) bool {
	switch {
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

func isNameRune(r rune) bool {
	return isNameStartRune(r) || r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// quoteByte names a byte for a message: 'x' or U+0001.
func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7F {
		return fmt.Sprintf("'%c'", c)
	}
	return fmt.Sprintf("%U", rune(c))
}
