package mirror

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ErrUnmappable is wrapped by every error of Mapper.Path: the URI has no
// place in the mirror (not http/https, userinfo, a bad escape, a NUL, a path
// too long, or a default path that would fall into a --map directory).
// It is a per-resource error: record it and carry on.
var ErrUnmappable = errors.New("unmappable")

// Names the mapping reserves. An encoded name uses "%" only as "%" followed
// by two upper-case hex digits; every other use of "%" is one of these
// markers (or the temp-file prefix of write.go), which is what keeps the
// mapping injective.
const (
	indexName = "%index" // the directory URI itself: a path ending in "/"
	emptyName = "%empty" // an empty middle segment: a//b
	longMark  = "%~"     // a shortened long name: first bytes + %~ + hash

	maxNameLen  = 200  // names longer than this are shortened
	keepNameLen = 180  // bytes of a long name kept before the hash
	hashHexLen  = 32   // hex digits of SHA-256 in a shortened name
	maxPathLen  = 3800 // longer paths are unmappable (Linux PATH_MAX is 4096)
	maxElemLen  = 255  // NAME_MAX: the limit for --map directory elements
	stateDir    = ".resync-dest"
	defaultHTTP = 80
	defaultTLS  = 443
)

// Map stores the resources whose URI starts with Prefix under Dir instead of
// the default <host>[:port]/<path> (the --map URI_PREFIX=LOCAL_DIR option).
// Prefix is a directory prefix (a trailing "/" is implied); Dir is relative
// to the mirror root and slash-separated.
type Map struct {
	Prefix string
	Dir    string
}

// ParseMap parses a --map value "URI_PREFIX=LOCAL_DIR". The value is split
// at the first "=": a prefix whose path holds "=" writes it as %3D (which the
// mapping treats as the same character), while LOCAL_DIR may contain "=".
// It returns the Map in normalised form (lower-case scheme and host, default
// port dropped, trailing "/", cleaned Dir) or an error saying what is wrong.
// It is safe for concurrent use.
func ParseMap(s string) (Map, error) {
	prefix, dir, ok := strings.Cut(s, "=")
	if !ok {
		return Map{}, fmt.Errorf("map %q: want URI_PREFIX=LOCAL_DIR", s)
	}
	cm, err := compileMap(Map{Prefix: prefix, Dir: dir})
	if err != nil {
		return Map{}, err
	}
	return Map{Prefix: cm.display, Dir: cm.dir}, nil
}

// compiledMap is a Map ready for matching: the prefix as the names the
// default mapping gives its authority and path segments.
type compiledMap struct {
	prefix  []string
	dir     string
	dirElem []string
	display string
}

func compileMap(m Map) (compiledMap, error) {
	p, err := parseURI(m.Prefix)
	if err != nil {
		return compiledMap{}, fmt.Errorf("map prefix %q: %w", m.Prefix, err)
	}
	if p.hasQuery || strings.Contains(m.Prefix, "#") {
		return compiledMap{}, fmt.Errorf("map prefix %q: a prefix has no query or fragment", m.Prefix)
	}
	dir, elems, err := cleanMapDir(m.Dir)
	if err != nil {
		return compiledMap{}, fmt.Errorf("map %q: %w", m.Prefix, err)
	}
	segs := p.segs
	if n := len(segs); n > 0 && segs[n-1] == "" {
		segs = segs[:n-1] // a directory prefix: "/a" and "/a/" are the same
	}
	names := []string{p.authority}
	for _, s := range segs {
		names = append(names, segmentName(s, false))
	}
	display := p.scheme + "://" + p.hostPort + p.rawPath
	if !strings.HasSuffix(display, "/") {
		display += "/"
	}
	return compiledMap{prefix: names, dir: dir, dirElem: elems, display: display}, nil
}

// cleanMapDir checks a --map LOCAL_DIR and returns it cleaned and split.
func cleanMapDir(d string) (string, []string, error) {
	switch {
	case strings.IndexByte(d, 0) >= 0:
		return "", nil, fmt.Errorf("local directory %q contains NUL", d)
	case strings.HasPrefix(d, "/"):
		return "", nil, fmt.Errorf("local directory %q is absolute; it must be relative to the mirror root", d)
	}
	for _, e := range strings.Split(d, "/") {
		if e == ".." {
			return "", nil, fmt.Errorf("local directory %q contains \"..\"", d)
		}
	}
	clean := path.Clean(d)
	if clean == "." {
		return "", nil, fmt.Errorf("local directory %q is empty; it must name a directory below the mirror root", d)
	}
	if strings.HasPrefix(clean, stateDir) {
		return "", nil, fmt.Errorf("local directory %q is inside %s, which holds the state", d, stateDir)
	}
	if strings.HasPrefix(clean, ".") {
		return "", nil, fmt.Errorf("local directory %q starts with \".\", which the mirror reserves", d)
	}
	elems := strings.Split(clean, "/")
	for _, e := range elems {
		if len(e) > maxElemLen {
			return "", nil, fmt.Errorf("local directory %q has an element longer than %d bytes", d, maxElemLen)
		}
		if isTempName(e) {
			return "", nil, fmt.Errorf("local directory %q has an element named like a temp file", d)
		}
	}
	return clean, elems, nil
}

// Mapper turns resource URIs into mirror paths by the rules of MAPPING.md.
// It is immutable and safe for concurrent use.
type Mapper struct {
	maps []compiledMap // longest prefix first
}

// NewMapper checks maps and returns a Mapper. It fails when a map is
// invalid, when two maps have the same prefix, or when two maps' directories
// are equal or nested (either would break injectivity).
func NewMapper(maps []Map) (*Mapper, error) {
	m := &Mapper{}
	for _, mp := range maps {
		cm, err := compileMap(mp)
		if err != nil {
			return nil, err
		}
		for _, o := range m.maps {
			if slices.Equal(o.prefix, cm.prefix) {
				return nil, fmt.Errorf("maps %s and %s have the same prefix", o.display, cm.display)
			}
			if within(o.dir, cm.dir) || within(cm.dir, o.dir) {
				return nil, fmt.Errorf("map directories %s and %s are equal or nested", o.dir, cm.dir)
			}
		}
		m.maps = append(m.maps, cm)
	}
	sort.SliceStable(m.maps, func(i, j int) bool { return len(m.maps[i].prefix) > len(m.maps[j].prefix) })
	return m, nil
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// Path returns the mirror-relative, slash-separated path of uri. The result
// is relative, clean, has no "." or ".." element, does not start with "."
// and never names .resync-dest. On failure the error wraps ErrUnmappable and
// names the URI and the reason. It is safe for concurrent use.
func (m *Mapper) Path(uri string) (string, error) {
	p, err := parseURI(uri)
	if err != nil {
		return "", fmt.Errorf("map %s: %w", uri, err)
	}
	names := p.names()
	var via *compiledMap
	for i := range m.maps {
		cm := &m.maps[i]
		if len(names) > len(cm.prefix) && slices.Equal(names[:len(cm.prefix)], cm.prefix) {
			via = cm
			break
		}
	}
	var elems []string
	if via != nil {
		names = names[len(via.prefix):]
		elems = make([]string, 0, len(via.dirElem)+len(names))
		elems = append(elems, via.dirElem...)
	}
	for _, n := range names {
		elems = append(elems, shortenName(n))
	}
	rel := strings.Join(elems, "/")
	if len(rel) > maxPathLen {
		return "", fmt.Errorf("map %s: %w: path of %d bytes is longer than %d", uri, ErrUnmappable, len(rel), maxPathLen)
	}
	if via == nil {
		for _, cm := range m.maps {
			if within(rel, cm.dir) {
				return "", fmt.Errorf("map %s: %w: %s would map into --map directory %s", uri, ErrUnmappable, rel, cm.dir)
			}
		}
	}
	return rel, nil
}

// parsedURI is a URI split the way the mapping needs it.
type parsedURI struct {
	scheme    string
	hostPort  string   // normalised authority, not yet encoded: host[:port]
	authority string   // the encoded authority directory name
	rawPath   string   // the path exactly as written (escapes intact)
	segs      []string // rawPath split on "/" and percent-decoded
	query     string   // the raw query, escapes intact
	hasQuery  bool     // a "?" was present, even with an empty query
}

// parseURI applies rules 1, 2 and the splitting of rule 3. Errors wrap
// ErrUnmappable.
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
	p := parsedURI{scheme: u.Scheme}
	if p.hostPort, p.authority, err = authorityName(u); err != nil {
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
		for _, raw := range strings.Split(p.rawPath[1:], "/") {
			seg, err := percentDecode(raw)
			if err != nil {
				return bad("path: %v", err)
			}
			p.segs = append(p.segs, seg)
		}
	}
	return p, nil
}

// authorityName returns the normalised host[:port] and its directory name:
// lower-case host, port only when not the scheme's default, brackets kept
// for IPv6 literals, encoded like a segment with a leading "." escaped.
func authorityName(u *url.URL) (hostPort, name string, err error) {
	host := asciiLower(u.Hostname())
	bracketed := strings.HasPrefix(u.Host, "[")
	if !bracketed && strings.Contains(host, ":") {
		return "", "", fmt.Errorf("host %q contains \":\"", host)
	}
	port := ""
	if ps := u.Port(); ps != "" {
		n, err := strconv.ParseUint(ps, 10, 16)
		if err != nil {
			return "", "", fmt.Errorf("port %q is out of range", ps)
		}
		def := uint64(defaultHTTP)
		if u.Scheme == "https" {
			def = defaultTLS
		}
		if n != def {
			port = ":" + strconv.FormatUint(n, 10)
		}
	}
	var b []byte
	if bracketed {
		hostPort = "[" + host + "]" + port
		b = append(b, '[')
		b = appendEncoded(b, host)
		b = append(b, ']')
	} else {
		hostPort = host + port
		if strings.HasPrefix(host, ".") {
			b = append(b, "%2E"...)
			host = host[1:]
		}
		b = appendEncoded(b, host)
	}
	b = append(b, port...) // digits and ":" are in the safe set
	return hostPort, string(b), nil
}

// names applies rules 3 to 6: the authority directory, then one name per
// path segment, the query appended to the last one. Long names are not yet
// shortened.
func (p parsedURI) names() []string {
	segs := p.segs
	if len(segs) == 0 {
		segs = []string{""} // "http://h" is "http://h/"
	}
	names := make([]string, 0, len(segs)+1)
	names = append(names, p.authority)
	for i, s := range segs {
		names = append(names, segmentName(s, i == len(segs)-1))
	}
	if p.hasQuery {
		last := len(names) - 1
		names[last] = names[last] + "?" + string(appendEncoded(nil, p.query))
	}
	return names
}

// segmentName is the name of one decoded path segment.
func segmentName(seg string, last bool) string {
	switch seg {
	case "":
		if last {
			return indexName
		}
		return emptyName
	case ".":
		return "%2E"
	case "..":
		return "%2E%2E"
	}
	return string(appendEncoded(nil, seg))
}

// shortenName applies rule 7 to one name.
func shortenName(n string) string {
	if len(n) <= maxNameLen {
		return n
	}
	cut := keepNameLen
	switch {
	case n[cut-1] == '%':
		cut--
	case n[cut-2] == '%':
		cut -= 2
	}
	sum := sha256.Sum256([]byte(n))
	return n[:cut] + longMark + hex.EncodeToString(sum[:])[:hashHexLen]
}

// isSafe reports whether c is kept as is in a name: RFC 3986 unreserved
// characters, sub-delims, ":" and "@" (pchar without "%").
func isSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '-', '.', '_', '~', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '@', ':':
		return true
	}
	return false
}

// appendEncoded appends s to dst with every byte outside the safe set as %XX
// (upper-case hex).
func appendEncoded(dst []byte, s string) []byte {
	const hexDigits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSafe(c) {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '%', hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
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
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
