package resourcesync

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
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

// Digest is one algorithm:hexdigest token of a hash attribute. Alg is the
// canonical lower-case token, Hex the lower-case hex digest.
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

var digestLen = map[string]int{AlgMD5: 32, AlgSHA1: 40, AlgSHA256: 64, AlgSHA512: 128}

// KnownAlg reports whether alg (canonical or an alias such as "sha256") is
// an algorithm this package computes, and its canonical name.
func KnownAlg(alg string) (string, bool) {
	c, ok := algAliases[strings.ToLower(alg)]
	return c, ok
}

// ParseHash parses a hash attribute: whitespace-separated alg:hexdigest
// tokens. Known algorithms must have a hex digest of the right length;
// unknown algorithms are kept as given. An empty attribute is an empty
// Fixity.
func ParseHash(s string) (Fixity, error) {
	var f Fixity
	for _, tok := range strings.Fields(s) {
		alg, hexd, ok := strings.Cut(tok, ":")
		if !ok || alg == "" || hexd == "" {
			return nil, fmt.Errorf("%w %q: token %q is not algorithm:hexdigest", ErrHash, s, tok)
		}
		hexd = strings.ToLower(hexd)
		if c, known := KnownAlg(alg); known {
			if len(hexd) != digestLen[c] {
				return nil, fmt.Errorf("%w %q: %s digest has %d hex digits, want %d", ErrHash, s, c, len(hexd), digestLen[c])
			}
			if _, err := hex.DecodeString(hexd); err != nil {
				return nil, fmt.Errorf("%w %q: %s digest is not hex", ErrHash, s, c)
			}
			alg = c
		} else {
			alg = strings.ToLower(alg)
		}
		if _, dup := f.Get(alg); dup {
			return nil, fmt.Errorf("%w %q: %s given twice", ErrHash, s, alg)
		}
		f = append(f, Digest{Alg: alg, Hex: hexd})
	}
	return f, nil
}

// String is the hash attribute form of f.
func (f Fixity) String() string {
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
		if _, ok := digestLen[d.Alg]; ok {
			return true
		}
	}
	return false
}

// Unverifiable lists the algorithms of f this package cannot compute.
func (f Fixity) Unverifiable() []string {
	var out []string
	for _, d := range f {
		if _, ok := digestLen[d.Alg]; !ok {
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
	v := &Verifier{want: want, length: length, hasLength: hasLength}
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
	for i, h := range v.hashes {
		out[i] = Digest{Alg: v.algs[i], Hex: hex.EncodeToString(h.Sum(nil))}
	}
	return out
}

// Verify compares what was written with the Source's length and every
// digest it can compute; it returns nil or a *MismatchError naming every
// difference.
func (v *Verifier) Verify() error {
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
