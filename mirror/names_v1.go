package mirror

// The naming rules of MappingVersion 1, kept so that Rename can find the
// files an earlier version named and give them their current names. They
// must never change: they describe mirrors that exist.

// isSafeV1 reports whether version 1 kept c as is in a name: RFC 3986
// unreserved characters, sub-delims, ":" and "@" (pchar without "%").
func isSafeV1(c byte) bool {
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

// appendEncodedV1 appends s to dst with every byte outside isSafeV1 as
// %XX (upper-case hex): version 1's encoding of segments, hosts and
// queries alike.
func appendEncodedV1(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; isSafeV1(c) {
			dst = append(dst, c)
		} else {
			dst = appendEscape(dst, c)
		}
	}
	return dst
}
