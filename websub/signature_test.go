package websub

import (
	"errors"
	"strings"
	"testing"
)

func TestSignature(t *testing.T) {
	body := []byte("<urlset/>")
	secret := "s3cret"
	for _, c := range []struct {
		name   string
		header string
		err    error
	}{
		{"sha1", sign("sha1", secret, body), nil},
		{"sha256", sign("sha256", secret, body), nil},
		{"sha384", sign("sha384", secret, body), nil},
		{"sha512", sign("sha512", secret, body), nil},
		{"upper-case hex and algorithm", strings.ToUpper(sign("sha256", secret, body)), nil},
		{"padded", "  " + sign("sha1", secret, body) + " ", nil},
		{"missing", "", errNoSignature},
		{"blank", "   ", errNoSignature},
		{"no equals sign", "sha1", errBadSignature},
		{"unknown algorithm", "md5=" + strings.Repeat("a", 32), errBadSignature},
		{"empty algorithm", "=" + strings.Repeat("a", 40), errBadSignature},
		{"short digest", sign("sha256", secret, body)[:40], errBadSignature},
		{"long digest", sign("sha1", secret, body) + "00", errBadSignature},
		{"not hex", "sha1=" + strings.Repeat("g", 40), errBadSignature},
		{"wrong secret", sign("sha256", "other", body), errSignature},
		{"sha384 digest labelled sha512", "sha512=" + strings.TrimPrefix(sign("sha384", secret, body), "sha384=") + strings.Repeat("0", 32), errSignature},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checkSignature([]byte(secret), c.header, body)
			if c.err == nil && err != nil || c.err != nil && !errors.Is(err, c.err) {
				t.Errorf("checkSignature(%q) = %v, want %v", c.header, err, c.err)
			}
		})
	}
}

func FuzzSignature(f *testing.F) {
	f.Add("sha1=" + strings.Repeat("0", 40))
	f.Add("sha256=" + strings.Repeat("f", 64))
	f.Add("SHA384=" + strings.Repeat("A", 96))
	f.Add("sha512=xyz")
	f.Add("md5=00")
	f.Add("=")
	f.Add("")
	f.Fuzz(func(t *testing.T, header string) {
		h, sum, err := parseSignature(header)
		if err != nil {
			if h != nil || sum != nil {
				t.Fatal("result with an error")
			}
			return
		}
		if len(sum) != h().Size() {
			t.Fatalf("%q: digest of %d bytes for a hash of %d", header, len(sum), h().Size())
		}
		// A header that parses verifies exactly when its digest is the HMAC.
		body := []byte(header)
		alg, _, _ := strings.Cut(strings.TrimSpace(header), "=")
		good := sign(strings.ToLower(alg), "k", body)
		if err := checkSignature([]byte("k"), good, body); err != nil {
			t.Fatalf("own signature %q refused: %v", good, err)
		}
	})
}
