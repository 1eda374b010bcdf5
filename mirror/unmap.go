package mirror

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// URI returns the URI whose resource the mapping stores at rel: the
// inverse of Path, so that a file nobody recorded (an extra file of an
// audit) can be named by its URI. scheme ("http" or "https") is used where
// the path does not say: http and https share the default layout's paths.
// For a path Path gives, Path(URI(rel)) is rel again, except for a
// shortened long name, whose hash cannot be undone. A name the mapping
// never gives (a file put there by something else) is read as the bytes
// of its segment, so a file below a map always gets a URI; in the default
// layout, a path whose first element is no authority gets an error. It is
// safe for concurrent use.
func (m *Mapper) URI(rel, scheme string) (string, error) {
	elems := strings.Split(rel, "/")
	base, rest := "", elems
	if m.root {
		base = m.maps[0].display
	} else {
		for _, cm := range m.maps {
			if len(elems) > len(cm.dirElem) && slices.Equal(elems[:len(cm.dirElem)], cm.dirElem) {
				base, rest = cm.display, elems[len(cm.dirElem):]
				break
			}
		}
	}
	if base == "" {
		hostPort, err := authorityOf(elems[0])
		if err != nil {
			return "", fmt.Errorf("the URI of %s: %w", rel, err)
		}
		base, rest = scheme+"://"+hostPort+"/", elems[1:]
	}
	if len(rest) == 0 || rel == "" {
		return "", fmt.Errorf("the URI of %s: not a file's path", rel)
	}
	b := []byte(base)
	for i, e := range rest {
		last := i == len(rest)-1
		name, query, hasQuery := e, "", false
		if last {
			name, query, hasQuery = strings.Cut(e, "?")
		}
		if i > 0 {
			b = append(b, '/')
		}
		switch {
		case last && name == indexName, !last && name == emptyName:
			// an empty segment: "a/" or "a//b"
		default:
			b = appendURISegment(b, decodeName(name))
		}
		if hasQuery {
			b = append(b, '?')
			b = append(b, strings.ReplaceAll(decodeName(query), "#", "%23")...)
		}
	}
	return string(b), nil
}

// authorityOf reads a default-layout authority directory name back into
// host[:port].
func authorityOf(name string) (string, error) {
	a := decodeName(name)
	host, port := a, ""
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return "", fmt.Errorf("%q is not a host's directory", name)
		}
		host, port = a[:end+1], a[end+1:]
		if port != "" && port[0] != ':' {
			return "", fmt.Errorf("%q is not a host's directory", name)
		}
	} else if i := strings.LastIndexByte(a, ':'); i >= 0 {
		host, port = a[:i], a[i:]
	}
	for _, c := range []byte(port[min(1, len(port)):]) {
		if c < '0' || c > '9' {
			return "", fmt.Errorf("%q is not a host's directory", name)
		}
	}
	if host == "" || host == "[]" || strings.ContainsAny(host, "/?#@") {
		return "", errors.New("not below a host's directory")
	}
	// A URI's host admits no escape of an ASCII byte but %25 (the "%" of
	// an IPv6 zone): the other ASCII bytes a host can hold stay as they
	// are, and the rest is escaped.
	var b []byte
	for i := 0; i < len(host); i++ {
		if c := host[i]; c == '%' || c >= utf8.RuneSelf {
			b = appendEscape(b, c)
		} else {
			b = append(b, c)
		}
	}
	return string(b) + port, nil
}

// decodeName undoes appendName: %XX escapes become their bytes. A "%"
// that starts no escape (a marker, or a name the mapping never gives)
// stays as it is.
func decodeName(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// appendURISegment appends a decoded path segment to a URI: RFC 3986's
// pchar as they are, every other byte as %XX, and "." and ".." escaped so
// that they stay segments rather than steps.
func appendURISegment(dst []byte, seg string) []byte {
	switch seg {
	case ".":
		return append(dst, "%2E"...)
	case "..":
		return append(dst, "%2E%2E"...)
	}
	return appendEncodedV1(dst, seg) // version 1's safe set is pchar
}
