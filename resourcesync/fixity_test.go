package resourcesync

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

const (
	md5Hex    = "1584abdf8ebdc9802ac0c6a7402c03b6"
	sha1Hex   = "a9993e364706816aba3e25717850c26c9cd0d89d"
	sha256Hex = "854f61290e2e197a11bc91063afce22e43f8ccc655237050ace766adc68dc784"
	sha512Hex = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
)

// hashCases are hash attributes and what they parse to (Fixity.String), or
// the message they fail with.
var hashCases = []struct {
	in   string
	want string
	err  string
}{
	{in: "", want: ""},
	{in: " \t\n", want: ""},
	{in: "md5:" + md5Hex, want: "md5:" + md5Hex},
	{in: "md5:" + md5Hex + " sha-256:" + sha256Hex, want: "md5:" + md5Hex + " sha-256:" + sha256Hex},
	// Order kept, any XML white space between and around.
	{in: "\n  sha-256:" + sha256Hex + "\n\t md5:" + md5Hex + "  ", want: "sha-256:" + sha256Hex + " md5:" + md5Hex},
	// All four algorithms and their aliases, in any case.
	{in: "sha-1:" + sha1Hex + " sha-512:" + sha512Hex, want: "sha-1:" + sha1Hex + " sha-512:" + sha512Hex},
	{in: "sha1:" + sha1Hex, want: "sha-1:" + sha1Hex},
	{in: "SHA256:" + sha256Hex, want: "sha-256:" + sha256Hex},
	{in: "sha512:" + sha512Hex, want: "sha-512:" + sha512Hex},
	{in: "MD5:" + strings.ToUpper(md5Hex), want: "md5:" + md5Hex},
	// Unknown algorithms are kept, their digest as given.
	{in: "sha3-256:AbCdEf md5:" + md5Hex, want: "sha3-256:AbCdEf md5:" + md5Hex},
	{in: "XXH64:Zz-_/+=", want: "xxh64:Zz-_/+="},
	// Bad digests.
	// Base64 and base64url of exactly the digest's size are read as that
	// digest (the standard's Example 27 writes base64url SHA-256).
	{in: "sha-256:f4OxZX_x_DFGFDgghgdfb6rtSx-iosjf6735432nklj", want: "sha-256:7f83b1657ff1fc314614382086075f6faaed4b1fa2a2c8dfebbdf9e37da79258"},
	{in: "md5:FYSr3469yYAqwManQCwDtg==", want: "md5:1584abdf8ebdc9802ac0c6a7402c03b6"},
	{in: "md5:FYSr3469yYAqwManQCwDtg", want: "md5:1584abdf8ebdc9802ac0c6a7402c03b6"},
	// Bad digests.
	{in: "md5:1584abdf", err: "md5 digest has 8 characters, neither 32 hex digits nor base64 of 16 bytes"},
	{in: "md5:" + strings.Repeat("g", 32), err: "md5 digest has 32 characters, neither 32 hex digits"},
	{in: "sha-256:h986gT_t_87HTkjHYE76G558hY-jdfgy76t55sadJUYT", err: "sha-256 digest has 44 characters"},
	{in: "sha-1:" + md5Hex, err: "sha-1 digest has 32 characters, neither 40 hex digits"},
	// Malformed tokens.
	{in: "md5", err: `token "md5" is not algorithm:digest`},
	{in: ":" + md5Hex, err: "is not algorithm:digest"},
	{in: "md5:", err: "is not algorithm:digest"},
	// Only XML white space separates: a no-break space does not.
	{in: "md5:" + md5Hex + "\u00a0sha-1:" + sha1Hex, err: "md5 digest has"},
	// An algorithm twice, under any name: one digest when they agree, an
	// error when they differ.
	{in: "md5:" + md5Hex + " md5:" + md5Hex, want: "md5:" + md5Hex},
	{in: "sha256:" + sha256Hex + " sha-256:" + strings.ToUpper(sha256Hex), want: "sha-256:" + sha256Hex},
	{in: "md5:" + md5Hex + " md5:" + strings.Repeat("0", 32), err: "md5 given twice, with different digests"},
	{in: "foo:a FOO:b", err: "foo given twice"},
}

// TestMalformedFixity: an entry's hash attribute that does not parse is
// kept as a Fixity that cannot be verified, which says why.
func TestMalformedFixity(t *testing.T) {
	for _, attr := range []string{"md5:", "md5:" + md5Hex + " md5:" + strings.Repeat("0", 32), "md5:123"} {
		f := MalformedFixity(attr)
		err := f.Err()
		if !errors.Is(err, ErrHash) || !strings.Contains(err.Error(), "could not be verified") || !strings.Contains(err.Error(), attr) {
			t.Errorf("MalformedFixity(%q).Err() = %v", attr, err)
		}
		if f.Verifiable() || f.String() != "" {
			t.Errorf("MalformedFixity(%q): verifiable %v, written as %q", attr, f.Verifiable(), f.String())
		}
		v := NewVerifier(f, 3, true)
		v.Write([]byte("abc"))
		if err := v.Verify(); !errors.Is(err, ErrHash) {
			t.Errorf("Verify with MalformedFixity(%q) = %v, want ErrHash", attr, err)
		}
	}
	if good, _ := ParseHash("md5:" + md5Hex); good.Err() != nil {
		t.Errorf("a good Fixity has Err %v", good.Err())
	}
}

func TestParseHash(t *testing.T) {
	for _, tc := range hashCases {
		got, err := ParseHash(tc.in)
		if tc.err != "" {
			if err == nil || !errors.Is(err, ErrHash) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseHash(%q) = %q, %v; want ErrHash with %q", tc.in, got.String(), err, tc.err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("ParseHash(%q) = %q, %v; want %q", tc.in, got.String(), err, tc.want)
		}
	}
}

func TestFixity(t *testing.T) {
	f, err := ParseHash("md5:" + md5Hex + " sha3-256:abc")
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := f.Get(AlgMD5); !ok || h != md5Hex {
		t.Errorf("Get(md5) = %q, %v", h, ok)
	}
	if _, ok := f.Get(AlgSHA256); ok {
		t.Error("Get(sha-256) found a digest that is not there")
	}
	if !f.Verifiable() {
		t.Error("md5 is verifiable")
	}
	if u := f.Unverifiable(); len(u) != 1 || u[0] != "sha3-256" {
		t.Errorf("Unverifiable = %v, want [sha3-256]", u)
	}
	g, _ := ParseHash("sha3-256:abc")
	if g.Verifiable() {
		t.Error("sha3-256 alone is not verifiable")
	}
	other, _ := ParseHash("md5:" + md5Hex + " sha-1:" + sha1Hex)
	if !f.Agrees(other) {
		t.Error("fixities sharing an equal md5 agree")
	}
	differ, _ := ParseHash("md5:" + strings.Repeat("0", 32))
	if f.Agrees(differ) {
		t.Error("fixities with different md5 do not agree")
	}
	disjoint, _ := ParseHash("sha-1:" + sha1Hex)
	if f.Agrees(disjoint) {
		t.Error("fixities sharing no algorithm do not agree")
	}
	if c, ok := KnownAlg("SHA-512"); !ok || c != AlgSHA512 {
		t.Errorf("KnownAlg(SHA-512) = %q, %v", c, ok)
	}
	if _, ok := KnownAlg("sha3-256"); ok {
		t.Error("KnownAlg(sha3-256) is true")
	}
}

// sums is the Fixity of data in all four algorithms.
func sums(data []byte) Fixity {
	m, s1, s2, s5 := md5.Sum(data), sha1.Sum(data), sha256.Sum256(data), sha512.Sum512(data)
	return Fixity{
		{AlgMD5, hex.EncodeToString(m[:])}, {AlgSHA1, hex.EncodeToString(s1[:])},
		{AlgSHA256, hex.EncodeToString(s2[:])}, {AlgSHA512, hex.EncodeToString(s5[:])},
	}
}

func TestVerifierAllAlgorithms(t *testing.T) {
	data := bytes.Repeat([]byte("resourcesync "), 1000)
	want := sums(data)
	v := NewVerifier(want, int64(len(data)), true)
	for chunk := data; len(chunk) > 0; { // uneven writes
		n := min(len(chunk), 777)
		if _, err := v.Write(chunk[:n]); err != nil {
			t.Fatal(err)
		}
		chunk = chunk[n:]
	}
	if err := v.Verify(); err != nil {
		t.Fatal(err)
	}
	if v.Written() != int64(len(data)) {
		t.Errorf("Written = %d", v.Written())
	}
	if got := v.Sums(); got.String() != want.String() {
		t.Errorf("Sums = %s, want %s", got, want)
	}
}

func TestVerifierReportsEachMismatch(t *testing.T) {
	data := []byte("the bytes the Destination got")
	want := sums([]byte("the bytes the Source described"))
	want = append(want, Digest{"sha3-256", "cannot-be-checked"})
	v := NewVerifier(want, 100, true)
	if _, err := v.Write(data); err != nil {
		t.Fatal(err)
	}
	err := v.Verify()
	var me *MismatchError
	if !errors.As(err, &me) || !errors.Is(err, ErrMismatch) {
		t.Fatalf("Verify = %v, want a *MismatchError", err)
	}
	var algs []string
	for _, m := range me.Mismatches {
		algs = append(algs, m.Alg)
	}
	if got := strings.Join(algs, " "); got != "length md5 sha-1 sha-256 sha-512" {
		t.Errorf("mismatches %q, want length and every known algorithm", got)
	}
	if !strings.Contains(err.Error(), "length is 29, want 100") {
		t.Errorf("message %q does not give the lengths", err)
	}
}

func TestVerifierStopsPastLength(t *testing.T) {
	data := []byte("0123456789")
	v := NewVerifier(sums(data), 10, true)
	if _, err := v.Write(data[:8]); err != nil {
		t.Fatal(err)
	}
	n, err := v.Write([]byte("89!"))
	if n != 0 || !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "more than 10") {
		t.Fatalf("write past the length = %d, %v; want 0 and a mismatch", n, err)
	}
	if _, err := v.Write([]byte("x")); err == nil {
		t.Error("a later write succeeded")
	}
	err = v.Verify()
	var me *MismatchError
	if !errors.As(err, &me) || len(me.Mismatches) != 1 || me.Mismatches[0].Alg != "length" {
		t.Fatalf("Verify = %v, want only the length mismatch", err)
	}
	// Reset starts again from nothing.
	v.Reset()
	if _, err := v.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := v.Verify(); err != nil {
		t.Fatalf("after Reset: %v", err)
	}
}

func TestVerifierWithoutExpectations(t *testing.T) {
	v := NewVerifier(nil, 0, false, "SHA256", "md5", "sha-256", "nonsense")
	v.Write([]byte("abc"))
	if err := v.Verify(); err != nil {
		t.Fatal(err)
	}
	got := v.Sums()
	if got.String() != "sha-256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad md5:900150983cd24fb0d6963f7d28e17f72" {
		t.Errorf("Sums = %s", got)
	}
	// Unknown algorithms the Source gave are not held against the content.
	v = NewVerifier(Fixity{{"sha3-256", "whatever"}}, 3, true)
	v.Write([]byte("abc"))
	if err := v.Verify(); err != nil {
		t.Errorf("Verify = %v, want nil: only the length can be checked", err)
	}
}

// TestIsHex checks the eight-bytes-at-a-time check against a plain one,
// for every byte at every position.
func TestIsHex(t *testing.T) {
	naive := func(s string) (bool, bool) {
		upper := false
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
			case 'A' <= c && c <= 'F':
				upper = true
			default:
				return false, false
			}
		}
		return true, upper
	}
	for _, base := range []string{"0123456789abcdef0", "fedcba9876543210f"} {
		for c := range 256 {
			for at := range len(base) {
				b := []byte(base)
				b[at] = byte(c)
				s := string(b)
				h1, u1 := isHex(s)
				h2, u2 := naive(s)
				if h1 != h2 || u1 != u2 {
					t.Fatalf("isHex(%q) = %v, %v; want %v, %v", s, h1, u1, h2, u2)
				}
			}
		}
	}
}
