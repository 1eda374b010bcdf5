package mirror

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// MappingVersion numbers the naming rules of MAPPING.md. Version 1 (the
// first releases) escaped every byte outside RFC 3986's pchar, so "with space.txt" was stored as "with%20space.txt"; version 2
// keeps what the file system allows. The state records, per set, the
// version its files were named by, and a write run renames the files of
// an older one (Rename).
const MappingVersion = 2

// Names the mapping reserves. An encoded name uses "%" only as "%" followed
// by two upper-case hex digits; every other use of "%" is one of these
// markers (or the temp-file prefix of write.go), which is what keeps the
// mapping injective.
const (
	indexName = "%index" // the directory URI itself: a path ending in "/"
	emptyName = "%empty" // an empty middle segment: a//b
	longMark  = "%~"     // a shortened long name: first bytes + %~ + hash

	maxNameLen  = 200 // names longer than this are shortened
	keepNameLen = 180 // bytes of a long name kept before the hash
	hashHexLen  = 32  // hex digits of SHA-256 in a shortened name
)

// names applies rules 2 to 6 with the naming rules of version v: the
// authority directory, then one name per path segment, the query appended
// to the last one. Long names are not yet shortened. Every version gives
// as many names as the URI has segments (plus one), so that names of
// different versions correspond one to one.
func (p parsedURI) names(v int) []string {
	segs := p.segs
	if len(segs) == 0 {
		segs = []string{""} // "http://h" is "http://h/"
	}
	names := make([]string, 0, len(segs)+1)
	names = append(names, p.authorityName(v))
	for i, s := range segs {
		names = append(names, segmentName(s, i == len(segs)-1, v))
	}
	if p.hasQuery {
		last := len(names) - 1
		if v == 1 {
			names[last] += "?" + string(appendEncodedV1(nil, p.query))
		} else {
			names[last] += "?" + string(appendName(nil, p.query, true))
		}
	}
	return names
}

// authorityName is the directory name of the authority: host[:port], the
// host encoded like a segment, with a leading "." escaped so that no
// top-level name of the default layout starts with "." (.resync-dest is
// one), and brackets kept for IP literals.
func (p parsedURI) authorityName(v int) string {
	enc := func(b []byte, s string) []byte {
		if v == 1 {
			return appendEncodedV1(b, s)
		}
		return appendHost(b, s)
	}
	host := p.host
	if v != 1 && !p.bracketed && kept(host) && !strings.ContainsAny(host, "[]") && !strings.HasPrefix(host, ".") {
		if p.port == "" {
			return host // what appendHost would give
		}
		return host + ":" + p.port
	}
	var b []byte
	if p.bracketed {
		b = append(b, '[')
		b = enc(b, host)
		b = append(b, ']')
	} else {
		if len(host) > 0 && host[0] == '.' {
			b = append(b, "%2E"...)
			host = host[1:]
		}
		b = enc(b, host)
	}
	if p.port != "" {
		b = append(b, ':')
		b = append(b, p.port...)
	}
	return string(b)
}

// segmentName is the name of one decoded path segment.
func segmentName(seg string, last bool, v int) string {
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
	if v == 1 {
		return string(appendEncodedV1(nil, seg))
	}
	if kept(seg) {
		return seg
	}
	return string(appendName(nil, seg, false))
}

// kept reports whether appendName keeps s as it is outside a query:
// printable ASCII without "%", "/" or "?". Most names are, and are then
// spared a copy.
func kept(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '%' || c == '/' || c == '?' {
			return false
		}
	}
	return true
}

// appendName appends s to dst as version 2 names it: bytes are kept as
// they are, except those that must be escaped (as %XX, upper-case hex) to
// keep names injective, confined and printable: "%" itself, "/", "?"
// outside a query (a raw "?" marks where the query starts), the control
// characters (C0, DEL and C1) and every byte of an invalid UTF-8 sequence.
func appendName(dst []byte, s string, inQuery bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '%' || c == '/' || (c == '?' && !inQuery) {
				dst = appendEscape(dst, c)
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (0x80 <= r && r <= 0x9f) {
			for j := i; j < i+size; j++ {
				dst = appendEscape(dst, s[j])
			}
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// appendHost is appendName for a host, which also escapes the brackets:
// only an IP literal's directory name starts with "[".
func appendHost(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] != '[' && s[j] != ']' {
			j++
		}
		dst = appendName(dst, s[i:j], false)
		if j < len(s) {
			dst = appendEscape(dst, s[j])
			j++
		}
		i = j
	}
	return dst
}

func appendEscape(dst []byte, c byte) []byte {
	const hexDigits = "0123456789ABCDEF"
	return append(dst, '%', hexDigits[c>>4], hexDigits[c&15])
}

// shortenName applies rule 7 to one name of version v: a name longer than
// maxNameLen bytes keeps its first keepNameLen bytes - fewer, so as not
// to cut a %XX escape or (version 2) a UTF-8 sequence in two -, then
// longMark and the start of the SHA-256 of the whole name.
func shortenName(n string, v int) string {
	if len(n) <= maxNameLen {
		return n
	}
	cut := keepNameLen
	if v >= 2 {
		for cut > 0 && !utf8.RuneStart(n[cut]) {
			cut--
		}
	}
	switch {
	case n[cut-1] == '%':
		cut--
	case n[cut-2] == '%':
		cut -= 2
	}
	sum := sha256.Sum256([]byte(n))
	return n[:cut] + longMark + hex.EncodeToString(sum[:])[:hashHexLen]
}
