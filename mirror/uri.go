package mirror

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// parsedURI is a URI split the way the mapping needs it.
type parsedURI struct {
	scheme    string
	host      string   // lower-case, decoded, without brackets
	port      string   // "" for the scheme's default, else decimal digits
	bracketed bool     // an IP literal: [host]
	rawPath   string   // the path exactly as written (escapes intact)
	segs      []string // rawPath split on "/" and percent-decoded
	query     string   // the raw query, escapes intact
	hasQuery  bool     // a "?" was present, even with an empty query
}

// hostPort is the normalised authority: host[:port], brackets kept.
func (p parsedURI) hostPort() string {
	h := p.host
	if p.bracketed {
		h = "[" + h + "]"
	}
	if p.port != "" {
		h += ":" + p.port
	}
	return h
}

// parseURI applies rules 1, 2 and the splitting of rule 3 of MAPPING.md.
// Errors wrap ErrUnmappable.
func parseURI(s string) (parsedURI, error) {
	bad := func(format string, args ...any) (parsedURI, error) {
		return parsedURI{}, fmt.Errorf("%w: %s", ErrUnmappable, fmt.Sprintf(format, args...))
	}
	if strings.IndexByte(s, 0) >= 0 {
		return bad("contains NUL")
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return parsedURI{}, fmt.Errorf("%w: %w", ErrUnmappable, err)
	}
	switch {
	case u.Scheme == "":
		return bad("not an absolute URI")
	case u.Scheme != "http" && u.Scheme != "https":
		return bad("scheme %q is neither http nor https", u.Scheme)
	case u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return bad("no host")
	case u.User != nil:
		return bad("userinfo (user:password@) is not allowed")
	}
	p := parsedURI{scheme: u.Scheme, host: asciiLower(u.Hostname()), bracketed: strings.HasPrefix(u.Host, "[")}
	if !p.bracketed && strings.Contains(p.host, ":") {
		return bad("host %q contains \":\"", p.host)
	}
	if p.port, err = normalPort(u.Scheme, u.Port()); err != nil {
		return bad("%v", err)
	}

	// The path is taken from the string itself, not from u.EscapedPath: when
	// the raw path is not a valid escaping by net/url's strict rules (a raw
	// space, say) EscapedPath re-escapes the decoded path and an escaped
	// "/" (%2F) would turn into a separator.
	noFrag, _, _ := strings.Cut(s, "#")
	beforeQ, query, hasQuery := strings.Cut(noFrag, "?")
	rest := beforeQ[strings.Index(beforeQ, "://")+3:] // "//" is there: u.Host != ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		p.rawPath = rest[i:]
	}
	if hasQuery {
		if _, err := percentDecode(query); err != nil {
			return bad("query: %v", err)
		}
		p.query, p.hasQuery = query, true
	}
	if p.rawPath != "" {
		p.segs = strings.Split(p.rawPath[1:], "/")
		for i, raw := range p.segs {
			if p.segs[i], err = percentDecode(raw); err != nil {
				return bad("path: %v", err)
			}
		}
	}
	return p, nil
}

// normalPort returns the port in decimal without leading zeros, or "" when
// it is the scheme's default (or absent).
func normalPort(scheme, ps string) (string, error) {
	if ps == "" {
		return "", nil
	}
	n, err := strconv.ParseUint(ps, 10, 16)
	if err != nil {
		return "", fmt.Errorf("port %q is out of range", ps)
	}
	def := uint64(defaultHTTP)
	if scheme == "https" {
		def = defaultTLS
	}
	if n == def {
		return "", nil
	}
	return strconv.FormatUint(n, 10), nil
}

// percentDecode decodes %XX escapes. It rejects a "%" not followed by two
// hex digits and an escaped NUL.
func percentDecode(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		return s, nil
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			esc := s[i:min(i+3, len(s))]
			return "", fmt.Errorf("invalid escape %q", esc)
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		if c == 0 {
			return "", errors.New("escaped NUL (%00)")
		}
		b = append(b, c)
		i += 2
	}
	return string(b), nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// asciiLower lower-cases ASCII letters only: strings.ToLower would fold
// non-ASCII runes and replace invalid UTF-8, merging distinct hosts.
func asciiLower(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
