package s3mirror

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/resync-dest/resync-dest/mirror"
)

// Options configure a Mirror.
type Options struct {
	// Endpoint is the S3 service's URL (http://host:port or https://...);
	// "" means AWS S3 itself.
	Endpoint string
	// AccessKey, SecretKey and SessionToken are the credentials; with no
	// AccessKey, the usual AWS chain is asked (environment, shared
	// credentials file, instance role).
	AccessKey, SecretKey, SessionToken string
	// Region is the bucket's region; "" lets the client find out.
	Region string
	// Maps are the --map options (MAPPING.md); their directories are
	// relative to the prefix.
	Maps []mirror.Map
	// TempDir is where staged files wait for Publish; "" means the
	// system's temp directory. Open makes a directory of its own inside.
	TempDir string
	// ReadOnly opens the mirror for dry runs, audit and status: every
	// write fails with mirror.ErrReadOnly and Lock takes nothing.
	ReadOnly bool
	// Uploads is how many PUTs Publish runs at once.
	Uploads int
	// Lease is how long the lock is held without renewal; a killed run's
	// lock is taken over after it.
	Lease time.Duration
	// RequestTimeout bounds each request to the service (retries
	// included).
	RequestTimeout time.Duration
	// Transport carries the requests; nil means a default transport.
	Transport http.RoundTripper
	// Now is the clock (lease expiry).
	Now func() time.Time
	// Fence, when set, bounds the Mirror's writes: once it is done, Put,
	// Publish and Remove fail with ErrFenced (fatal, as a lost lock) and
	// the requests in flight are cancelled (a PUT cut short leaves the
	// object's previous version). A worker's job passes its context,
	// which ends when the job's lease is lost: a job replaced writes
	// nothing more to the bucket.
	Fence context.Context
}

// DefaultOptions returns Options for AWS S3 with the credential chain, 16
// concurrent uploads, a 2-minute lease, 5-minute requests and the wall
// clock.
func DefaultOptions() Options {
	return Options{Uploads: 16, Lease: 2 * time.Minute, RequestTimeout: 5 * time.Minute, Now: time.Now}
}

// FromEnv fills what is unset from the usual variables: AWS_ENDPOINT_URL
// (AWS_ENDPOINT_URL_S3 first), AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN and AWS_REGION (else AWS_DEFAULT_REGION).
func (o *Options) FromEnv(getenv func(string) string) {
	fill := func(dst *string, names ...string) {
		for _, n := range names {
			if *dst == "" {
				*dst = getenv(n)
			}
		}
	}
	fill(&o.Endpoint, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
	fill(&o.AccessKey, "AWS_ACCESS_KEY_ID")
	fill(&o.SecretKey, "AWS_SECRET_ACCESS_KEY")
	fill(&o.SessionToken, "AWS_SESSION_TOKEN")
	fill(&o.Region, "AWS_REGION", "AWS_DEFAULT_REGION")
}

// Location is where a mirror lives: a bucket and a key prefix ("" or
// slash-separated elements without a leading or trailing slash).
type Location struct {
	Bucket, Prefix string
}

// String is the location as --dest takes it.
func (l Location) String() string {
	if l.Prefix == "" {
		return "s3://" + l.Bucket
	}
	return "s3://" + l.Bucket + "/" + l.Prefix
}

// key is the object key of a mirror-relative path.
func (l Location) key(rel string) string {
	if l.Prefix == "" {
		return rel
	}
	return l.Prefix + "/" + rel
}

// base is what every key of the mirror starts with.
func (l Location) base() string {
	if l.Prefix == "" {
		return ""
	}
	return l.Prefix + "/"
}

// ErrNotS3 is returned by ParseURL for a --dest that is not s3://.
var ErrNotS3 = errors.New("not an s3:// URL")

// IsURL reports whether dest names a bucket (s3://...) rather than a
// directory.
func IsURL(dest string) bool { return strings.HasPrefix(strings.ToLower(dest), "s3://") }

// ParseURL reads s3://BUCKET[/PREFIX]. The prefix is cleaned of leading,
// trailing and doubled slashes; "." and ".." elements, a NUL or a query
// are refused, and so is a prefix inside another mirror's .resync-dest.
func ParseURL(s string) (Location, error) {
	if !IsURL(s) {
		return Location{}, fmt.Errorf("%q: %w", s, ErrNotS3)
	}
	u, err := url.Parse(s)
	if err != nil {
		return Location{}, fmt.Errorf("%q: %w", s, err)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Port() != "" {
		return Location{}, fmt.Errorf("%q: an s3:// URL is s3://BUCKET/PREFIX (no user, port, query or fragment)", s)
	}
	if !validBucket(u.Host) {
		return Location{}, fmt.Errorf("%q: %q is not a valid bucket name (3-63 lower-case letters, digits, dots and hyphens)", s, u.Host)
	}
	var elems []string
	for _, e := range strings.Split(u.Path, "/") {
		switch {
		case e == "":
			continue
		case e == "." || e == "..":
			return Location{}, fmt.Errorf("%q: the prefix may not contain %q", s, e)
		case strings.ContainsFunc(e, unicode.IsControl):
			// NUL, a newline ...: no key should carry one, and the URL
			// written back (Location.String) would not parse.
			return Location{}, fmt.Errorf("%q: the prefix contains a control character", s)
		case e == ".resync-dest":
			return Location{}, fmt.Errorf("%q: the prefix may not contain .resync-dest, which a mirror reserves", s)
		}
		elems = append(elems, e)
	}
	return Location{Bucket: u.Host, Prefix: strings.Join(elems, "/")}, nil
}

func validBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return b[0] != '.' && b[0] != '-' && b[len(b)-1] != '.' && b[len(b)-1] != '-'
}
