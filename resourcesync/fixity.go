package resourcesync

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"
)

// Hash algorithms of the hash attribute that this package computes. The
// names are the tokens the standard uses ("md5:", "sha-256:").
const (
	AlgMD5    = "md5"
	AlgSHA1   = "sha-1"
	AlgSHA256 = "sha-256"
	AlgSHA512 = "sha-512"
)

// ErrHash is wrapped by every error about a malformed hash attribute.
var ErrHash = errors.New("bad hash")

// ErrMismatch is matched (errors.Is) by every *MismatchError: the bytes are
// not what the Source said they are.
var ErrMismatch = errors.New("content does not match the Source's fixity")

// Digest is one algorithm:digest token of a hash attribute. Alg is the
// canonical lower-case token; Hex is the lower-case hex digest for the
// algorithms this package knows and the digest exactly as the Source gave it
// for the others.
type Digest struct {
	Alg string
	Hex string
}

// Fixity is the parsed hash attribute: every digest the Source gave, in the
// order it gave them. Digests of algorithms this package does not know are
// kept (and written back) but cannot be verified.
type Fixity []Digest

var algAliases = map[string]string{
	"md5": AlgMD5, "sha-1": AlgSHA1, "sha1": AlgSHA1,
	"sha-256": AlgSHA256, "sha256": AlgSHA256,
	"sha-512": AlgSHA512, "sha512": AlgSHA512,
}

// hexLen is the length of the hex digest of a known algorithm (canonical
// name), 0 for others.
func hexLen(alg string) int {
	switch alg {
	case AlgMD5:
		return 32
	case AlgSHA1:
		return 40
	case AlgSHA256:
		return 64
	case AlgSHA512:
		return 128
	}
	return 0
}

// KnownAlg reports whether alg (canonical or an alias such as "sha256") is
// an algorithm this package computes, and its canonical name.
func KnownAlg(alg string) (string, bool) {
	switch alg { // the canonical names, without lower-casing or hashing
	case AlgMD5, AlgSHA1, AlgSHA256, AlgSHA512:
		return alg, true
	}
	c, ok := algAliases[strings.ToLower(alg)]
	return c, ok
}

// ParseHash parses a hash attribute: alg:digest tokens separated by XML
// whitespace. Digests of known algorithms must be hex of the right length
// and are lower-cased; digests of unknown algorithms are kept exactly as
// given (they may be in another encoding), with the algorithm name
// lower-cased. An algorithm given twice, under any of its names, with two
// different digests is an error; the same digest twice is one digest. An
// empty attribute is an empty Fixity. Every error wraps ErrHash.
func ParseHash(s string) (Fixity, error) {
	// Most attributes have one or two digests: gather them on the stack
	// and allocate once, exactly.
	var small [4]Digest
	f := Fixity(small[:0])
	for i := 0; ; {
		for i < len(s) && isXMLSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		start := i
		for i < len(s) && s[i] != ':' && !isXMLSpace(s[i]) {
			i++
		}
		alg := s[start:i]
		if i == len(s) || s[i] != ':' || alg == "" {
			tok, _ := nextField(s[start:])
			return nil, fmt.Errorf("%w %q: token %q is not algorithm:digest", ErrHash, s, tok)
		}
		i++
		digest, _ := nextField(s[i:])
		if digest == "" {
			return nil, fmt.Errorf("%w %q: token %q is not algorithm:digest", ErrHash, s, s[start:i])
		}
		i += len(digest)
		if c, known := KnownAlg(alg); known {
			d, err := canonicalDigest(c, digest)
			if err != nil {
				return nil, fmt.Errorf("%w %q: %s", ErrHash, s, err)
			}
			digest, alg = d, c
		} else {
			alg = strings.ToLower(alg)
		}
		if prev, dup := f.Get(alg); dup {
			if prev == digest {
				continue
			}
			return nil, fmt.Errorf("%w %q: %s given twice, with different digests", ErrHash, s, alg)
		}
		f = append(f, Digest{Alg: alg, Hex: digest})
	}
	if len(f) == 0 {
		return nil, nil
	}
	return append(make(Fixity, 0, len(f)), f...), nil
}

// canonicalDigest returns a known algorithm's digest as lower-case hex.
// The standard says hex; base64 and base64url of exactly the digest's size
// (with or without padding) are accepted too, since Sources use them (the
// standard's own Example 27 writes base64url SHA-256 digests), and a digest
// the Destination can decode is one it can verify.
func canonicalDigest(alg, digest string) (string, error) {
	n := hexLen(alg)
	if len(digest) == n {
		if ok, upper := isHex(digest); ok {
			if upper {
				digest = strings.ToLower(digest)
			}
			return digest, nil
		}
	}
	size := n / 2
	for _, enc := range []*base64.Encoding{base64.RawURLEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.StdEncoding} {
		if b, err := enc.DecodeString(digest); err == nil && len(b) == size {
			return hex.EncodeToString(b), nil
		}
	}
	return "", fmt.Errorf("%s digest has %d characters, neither %d hex digits nor base64 of %d bytes", alg, len(digest), n, size)
}

// nextField returns the run of non-whitespace that s starts with (after
// any whitespace) and what follows it. Only XML whitespace separates tokens:
// the attribute is XML, and splitting on Unicode spaces would change what a
// digest is.
func nextField(s string) (tok, rest string) {
	i := 0
	for i < len(s) && isXMLSpace(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isXMLSpace(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func isXMLSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// isHex reports whether s is all hex digits, and whether any is upper case.
// It looks at eight bytes at a time: digests are most of a Resource List.
func isHex(s string) (hex, upper bool) {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		ok, up := hexWord(x)
		if !ok {
			return false, false
		}
		upper = upper || up
	}
	var seen byte
	for ; i < len(s); i++ {
		c := hexClass[s[i]]
		if c == 0 {
			return false, false
		}
		seen |= c
	}
	return true, upper || seen&2 != 0
}

// hexWord is isHex for the eight bytes of x. For ASCII bytes, adding
// 0x80-lo to each sets its high bit exactly when it is >= lo, without a
// carry into the next byte.
func hexWord(x uint64) (hex, upper bool) {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	if x&high != 0 {
		return false, false
	}
	ge := func(x uint64, lo byte) uint64 { return (x + ones*uint64(0x80-lo)) & high }
	digit := ge(x, '0') &^ ge(x, '9'+1)
	l := x | ones*0x20 // folds A-F onto a-f, and nothing else onto a-f
	letter := ge(l, 'a') &^ ge(l, 'f'+1)
	if digit|letter != high {
		return false, false
	}
	// An upper-case letter has bit 5 clear; shifted to bit 7 of its byte.
	return true, letter&^((x&(ones*0x20))<<2) != 0
}

// hexClass is 1 for 0-9 and a-f, 2 for A-F, 0 for other bytes. A constant,
// so that it cannot change.
const hexClass = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00" +
	"\x00\x02\x02\x02\x02\x02\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// MalformedFixity is what an entry's hash attribute that does not parse
// reads as (the attribute as given, in one Digest with no algorithm): the
// entry stays in its document, and its bytes can never be verified -
// NewVerifier's Verify and the HTTP client refuse it with Err.
func MalformedFixity(attr string) Fixity { return Fixity{{Hex: attr}} }

// Err is the error of a Fixity read from a malformed hash attribute
// (MalformedFixity), wrapping ErrHash; nil for any other.
func (f Fixity) Err() error {
	if len(f) != 1 || f[0].Alg != "" {
		return nil
	}
	_, err := ParseHash(f[0].Hex)
	if err == nil {
		err = fmt.Errorf("%w %q", ErrHash, f[0].Hex)
	}
	return fmt.Errorf("the hash attribute cannot be used, so the bytes could not be verified: %w", err)
}

// String is the hash attribute form of f; empty for a malformed one.
func (f Fixity) String() string {
	if f.Err() != nil {
		return ""
	}
	var b strings.Builder
	for i, d := range f {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.Alg)
		b.WriteByte(':')
		b.WriteString(d.Hex)
	}
	return b.String()
}

// Get returns the digest for alg (canonical name), if f has one.
func (f Fixity) Get(alg string) (string, bool) {
	for _, d := range f {
		if d.Alg == alg {
			return d.Hex, true
		}
	}
	return "", false
}

// Verifiable reports whether f has at least one digest this package can
// compute.
func (f Fixity) Verifiable() bool {
	for _, d := range f {
		if hexLen(d.Alg) > 0 {
			return true
		}
	}
	return false
}

// Unverifiable lists the algorithms of f this package cannot compute.
func (f Fixity) Unverifiable() []string {
	var out []string
	for _, d := range f {
		if hexLen(d.Alg) == 0 {
			out = append(out, d.Alg)
		}
	}
	return out
}

// Agrees reports whether f and g name the same bytes as far as they can
// tell: they share at least one algorithm and every shared one agrees.
func (f Fixity) Agrees(g Fixity) bool {
	shared := false
	for _, d := range f {
		if h, ok := g.Get(d.Alg); ok {
			if h != d.Hex {
				return false
			}
			shared = true
		}
	}
	return shared
}

func newHash(alg string) hash.Hash {
	switch alg {
	case AlgMD5:
		return md5.New()
	case AlgSHA1:
		return sha1.New()
	case AlgSHA256:
		return sha256.New()
	case AlgSHA512:
		return sha512.New()
	}
	return nil
}

// Mismatch is one way the bytes differ from what the Source said: Alg is
// "length" or a hash algorithm.
type Mismatch struct {
	Alg  string
	Want string
	Got  string
}

// MismatchError lists every way the bytes differ from the Source's length
// and hashes. It matches ErrMismatch.
type MismatchError struct {
	Mismatches []Mismatch
}

// Error lists every mismatch: "md5 is X, want Y; length is 3, want 4".
func (e *MismatchError) Error() string {
	parts := make([]string, len(e.Mismatches))
	for i, m := range e.Mismatches {
		parts[i] = fmt.Sprintf("%s is %s, want %s", m.Alg, m.Got, m.Want)
	}
	return "content does not match the Source: " + strings.Join(parts, "; ")
}

// Is makes errors.Is(err, ErrMismatch) true.
func (e *MismatchError) Is(target error) bool { return target == ErrMismatch }

// Verifier computes, in one pass, every known hash algorithm the Source gave
// (plus any extra ones asked for) and counts bytes. Use it as an io.Writer
// (or behind io.MultiWriter / io.TeeReader), then call Verify.
//
// When the Source gave a length, a write past it fails at once with a
// *MismatchError, so a lying or hostile server is stopped early.
// A Verifier is not safe for concurrent use.
type Verifier struct {
	want      Fixity
	length    int64
	hasLength bool
	n         int64
	algs      []string
	hashes    []hash.Hash
}

// NewVerifier returns a Verifier for content that should have the given
// fixity and, when hasLength, the given length. extra names algorithms to
// compute even though want lacks them (to record local digests).
func NewVerifier(want Fixity, length int64, hasLength bool, extra ...string) *Verifier {
	n := len(want) + len(extra)
	v := &Verifier{want: want, length: length, hasLength: hasLength,
		algs: make([]string, 0, n), hashes: make([]hash.Hash, 0, n)}
	add := func(alg string) {
		c, ok := KnownAlg(alg)
		if !ok {
			return
		}
		for _, a := range v.algs {
			if a == c {
				return
			}
		}
		v.algs = append(v.algs, c)
		v.hashes = append(v.hashes, newHash(c))
	}
	for _, d := range want {
		add(d.Alg)
	}
	for _, a := range extra {
		add(a)
	}
	return v
}

// Write hashes p. It fails only when the content grows past the length the
// Source gave.
func (v *Verifier) Write(p []byte) (int, error) {
	if v.hasLength && v.n+int64(len(p)) > v.length {
		v.n += int64(len(p))
		return 0, &MismatchError{Mismatches: []Mismatch{{
			Alg: "length", Want: fmt.Sprint(v.length), Got: fmt.Sprintf("more than %d", v.length),
		}}}
	}
	for _, h := range v.hashes {
		h.Write(p)
	}
	v.n += int64(len(p))
	return len(p), nil
}

// Written is the number of bytes seen so far.
func (v *Verifier) Written() int64 { return v.n }

// Sums returns the digests computed so far, one per algorithm, in the order
// the algorithms were asked for.
func (v *Verifier) Sums() Fixity {
	out := make(Fixity, len(v.algs))
	var buf [64]byte // the longest digest, SHA-512's
	for i, h := range v.hashes {
		out[i] = Digest{Alg: v.algs[i], Hex: hex.EncodeToString(h.Sum(buf[:0]))}
	}
	return out
}

// Verify compares what was written with the Source's length and every
// digest it can compute; it returns nil or a *MismatchError naming every
// difference - or, when the Source's hash attribute was malformed
// (MalformedFixity), its error: such bytes can never be verified.
func (v *Verifier) Verify() error {
	if err := v.want.Err(); err != nil {
		return err
	}
	var ms []Mismatch
	if v.hasLength && v.n != v.length {
		ms = append(ms, Mismatch{Alg: "length", Want: fmt.Sprint(v.length), Got: fmt.Sprint(v.n)})
	}
	if len(ms) == 0 || v.n <= v.length { // hashes of an overlong body are meaningless
		sums := v.Sums()
		for _, d := range v.want {
			if got, ok := sums.Get(d.Alg); ok && got != d.Hex {
				ms = append(ms, Mismatch{Alg: d.Alg, Want: d.Hex, Got: got})
			}
		}
	}
	if len(ms) > 0 {
		return &MismatchError{Mismatches: ms}
	}
	return nil
}

// Reset forgets everything written, for a fresh attempt.
func (v *Verifier) Reset() {
	v.n = 0
	for _, h := range v.hashes {
		h.Reset()
	}
}
