package agent

import (
	"bufio"
	"io"
	"regexp"
	"strings"
)

// This file reads the three places a Source may hint at its ResourceSync
// documents besides the well-known URI (ANSI/NISO Z39.99-2014 §6.3): an HTTP
// Link header, an HTML <link> element, and robots.txt Sitemap directives.

// LinkValue is one link of an HTTP Link header (RFC 8288).
type LinkValue struct {
	Target string
	Rels   []string // lower-cased relation types
	Params map[string]string
}

// HasRel reports whether the link has the relation rel.
func (l LinkValue) HasRel(rel string) bool {
	for _, r := range l.Rels {
		if r == rel {
			return true
		}
	}
	return false
}

// ParseLinkHeader parses the values of HTTP Link headers. It is lenient:
// a malformed link is skipped and the rest are still returned.
func ParseLinkHeader(values []string) []LinkValue {
	var out []LinkValue
	for _, v := range values {
		p := linkParser{s: v}
		for {
			l, ok, more := p.next()
			if ok {
				out = append(out, l)
			}
			if !more {
				break
			}
		}
	}
	return out
}

type linkParser struct {
	s string
	i int
}

func (p *linkParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r' || p.s[p.i] == '\n') {
		p.i++
	}
}

// next parses one link-value. ok is false for a malformed one; more is
// false at the end of the header.
func (p *linkParser) next() (l LinkValue, ok, more bool) {
	p.skipSpace()
	if p.i >= len(p.s) {
		return l, false, false
	}
	if p.s[p.i] != '<' {
		return l, false, p.skipTo(',')
	}
	end := strings.IndexByte(p.s[p.i:], '>')
	if end < 0 {
		return l, false, false
	}
	l.Target = strings.TrimSpace(p.s[p.i+1 : p.i+end])
	p.i += end + 1
	l.Params = map[string]string{}
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return l, l.finish(), false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			return l, l.finish(), true
		case ';':
			p.i++
			name, val := p.param()
			if name == "" {
				continue
			}
			if _, dup := l.Params[name]; !dup { // RFC 8288: the first occurrence counts
				l.Params[name] = val
			}
		default:
			return l, false, p.skipTo(',')
		}
	}
}

// param parses name[=value] with value a token or a quoted string.
func (p *linkParser) param() (string, string) {
	p.skipSpace()
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune("=;, \t", rune(p.s[p.i])) {
		p.i++
	}
	name := strings.ToLower(strings.TrimSuffix(p.s[start:p.i], "*"))
	p.skipSpace()
	if p.i >= len(p.s) || p.s[p.i] != '=' {
		return name, ""
	}
	p.i++
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '"' {
		p.i++
		var b strings.Builder
		for p.i < len(p.s) && p.s[p.i] != '"' {
			if p.s[p.i] == '\\' && p.i+1 < len(p.s) {
				p.i++
			}
			b.WriteByte(p.s[p.i])
			p.i++
		}
		p.i++ // closing quote
		return name, b.String()
	}
	start = p.i
	for p.i < len(p.s) && p.s[p.i] != ';' && p.s[p.i] != ',' {
		p.i++
	}
	return name, strings.TrimSpace(p.s[start:p.i])
}

// skipTo moves past the next sep outside angle brackets and quotes; it
// reports whether anything follows.
func (p *linkParser) skipTo(sep byte) bool {
	inQuote, inAngle := false, false
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '"' && !inAngle:
			inQuote = !inQuote
		case c == '<' && !inQuote:
			inAngle = true
		case c == '>' && !inQuote:
			inAngle = false
		case c == sep && !inQuote && !inAngle:
			return true
		}
	}
	return false
}

func (l *LinkValue) finish() bool {
	if l.Target == "" {
		return false
	}
	for _, r := range strings.Fields(l.Params["rel"]) {
		l.Rels = append(l.Rels, strings.ToLower(r))
	}
	return true
}

var (
	linkTagRe = regexp.MustCompile(`(?is)<link\b([^>]*)>`)
	attrRe    = regexp.MustCompile(`(?is)([a-z][a-z0-9_:.-]*)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))`)
)

// maxHTMLBytes bounds how much of an HTML page is searched for <link>
// elements; they belong in the <head>.
const maxHTMLBytes = 1 << 20

// HTMLLinks returns the href of every <link> element of an HTML page whose
// rel includes rel (case-insensitive), in document order. Only the first
// MiB is searched.
func HTMLLinks(r io.Reader, rel string) ([]string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHTMLBytes))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range linkTagRe.FindAllSubmatch(b, -1) {
		var rels, href string
		for _, a := range attrRe.FindAllSubmatch(m[1], -1) {
			val := string(a[3]) + string(a[4]) + string(a[5])
			switch strings.ToLower(string(a[1])) {
			case "rel":
				rels = val
			case "href":
				href = htmlUnescape(strings.TrimSpace(val))
			}
		}
		if href == "" {
			continue
		}
		for _, r := range strings.Fields(rels) {
			if strings.EqualFold(r, rel) {
				out = append(out, href)
				break
			}
		}
	}
	return out, nil
}

var htmlEntities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&apos;", "'")

func htmlUnescape(s string) string { return htmlEntities.Replace(s) }

// maxRobotsBytes bounds how much of robots.txt is read (Google reads 500 KiB).
const maxRobotsBytes = 512 << 10

// RobotsSitemaps returns the URLs of the Sitemap directives of a robots.txt,
// in order. Directive names are case-insensitive.
func RobotsSitemaps(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(io.LimitReader(r, maxRobotsBytes))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		name, val, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "sitemap") {
			continue
		}
		if v := strings.TrimSpace(val); v != "" {
			out = append(out, v)
		}
	}
	return out, sc.Err()
}
