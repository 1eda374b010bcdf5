package s3mirror

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// tamper is a transport that changes the bytes of the PUTs to keys ending
// in bad after the client hashed them, or fails every PUT when down.
type tamper struct {
	bad  string
	down bool
}

func (tp *tamper) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPut && tp.down {
		return nil, errors.New("connection refused (injected)")
	}
	if r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, tp.bad) && r.Body != nil {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body.Close()
		b = bytes.ToUpper(b)
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Content-MD5: bytes changed on the way are refused by the server; the
// object stays absent and only that ticket fails.
func TestCorruptedUploadIsRefused(t *testing.T) {
	tp := &tamper{bad: "/h/corrupt"}
	m, s := open(t, "", func(o *Options) { o.Transport = tp })
	good := put(t, m, "h/good", "fine", time.Time{})
	bad := put(t, m, "h/corrupt", "lower case", time.Time{})
	errs, err := m.Publish([]string{good, bad})
	if err != nil || errs[0] != nil || errs[1] == nil {
		t.Fatalf("publish: %v, %v", errs, err)
	}
	t.Logf("refused: %v", errs[1])
	if _, _, ok := object(t, s, "h/corrupt"); ok {
		t.Fatal("corrupted bytes stored")
	}
	if body, _, _ := object(t, s, "h/good"); body != "fine" {
		t.Fatalf("good object %q", body)
	}
}

// A bucket that cannot be written stops the run: the fatal error wraps
// resourcesync.ErrLocal.
func TestUnreachableBucketIsFatal(t *testing.T) {
	tp := &tamper{}
	m, _ := open(t, "", func(o *Options) { o.Transport = tp })
	ticket := put(t, m, "h/x", "x", time.Time{})
	tp.down = true
	errs, err := m.Publish([]string{ticket})
	if !errors.Is(err, resourcesync.ErrLocal) || !errors.Is(errs[0], resourcesync.ErrLocal) {
		t.Fatalf("publish to an unreachable bucket: %v, %v", errs, err)
	}
}
