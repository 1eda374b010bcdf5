package websub

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"
)

// Reasons a delivery's signature is refused. They stay inside the package:
// a refused delivery is logged, never reported to the hub.
var (
	errNoSignature  = errors.New("no X-Hub-Signature header")
	errBadSignature = errors.New("malformed X-Hub-Signature header")
	errSignature    = errors.New("signature does not match")
)

// parseSignature reads an X-Hub-Signature header value, "<alg>=<hex>" with
// alg sha1, sha256, sha384 or sha512 (WebSub's list). It returns the hash
// and the digest, checked to be of that hash's size.
func parseSignature(header string) (func() hash.Hash, []byte, error) {
	header = strings.TrimSpace(header)
	if header == "" {
		return nil, nil, errNoSignature
	}
	alg, digest, ok := strings.Cut(header, "=")
	if !ok {
		return nil, nil, fmt.Errorf("%w: no '='", errBadSignature)
	}
	var h func() hash.Hash
	var size int
	switch strings.ToLower(alg) {
	case "sha1":
		h, size = sha1.New, sha1.Size
	case "sha256":
		h, size = sha256.New, sha256.Size
	case "sha384":
		h, size = sha512.New384, sha512.Size384
	case "sha512":
		h, size = sha512.New, sha512.Size
	default:
		return nil, nil, fmt.Errorf("%w: unknown algorithm %.20q", errBadSignature, alg)
	}
	if len(digest) != 2*size {
		return nil, nil, fmt.Errorf("%w: %s digest of %d hex digits, want %d", errBadSignature, alg, len(digest), 2*size)
	}
	sum, err := hex.DecodeString(digest)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: digest is not hex", errBadSignature)
	}
	return h, sum, nil
}

// checkSignature verifies header against the HMAC of body keyed with
// secret, in constant time.
func checkSignature(secret []byte, header string, body []byte) error {
	h, sum, err := parseSignature(header)
	if err != nil {
		return err
	}
	mac := hmac.New(h, secret)
	mac.Write(body)
	if !hmac.Equal(mac.Sum(nil), sum) {
		return errSignature
	}
	return nil
}
