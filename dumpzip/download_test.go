package dumpzip

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// fakeSource serves package bytes by URL as the HTTP client would: written
// to the sink in chunks, verified against the fetch's length and hashes.
type fakeSource struct {
	bodies map[string][]byte
	// cancel, when set, is called after the first chunk (a user's ^C
	// mid-download).
	cancel func()
}

func (f *fakeSource) Download(ctx context.Context, fe resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	b, ok := f.bodies[fe.URL]
	if !ok {
		return resourcesync.Fetched{}, fmt.Errorf("get %s: %w", fe.URL, resourcesync.ErrNotFound)
	}
	v := resourcesync.NewVerifier(fe.Hash, fe.Length, fe.HasLength)
	for len(b) > 0 {
		if err := ctx.Err(); err != nil {
			return resourcesync.Fetched{}, err
		}
		n := min(len(b), 4096)
		if _, err := dst.Write(b[:n]); err != nil {
			return resourcesync.Fetched{}, fmt.Errorf("get %s: sink: %w", fe.URL, err)
		}
		if _, err := v.Write(b[:n]); err != nil {
			return resourcesync.Fetched{}, fmt.Errorf("get %s: %w", fe.URL, err)
		}
		b = b[n:]
		if f.cancel != nil {
			f.cancel()
		}
	}
	if err := v.Verify(); err != nil {
		return resourcesync.Fetched{}, fmt.Errorf("get %s: %w", fe.URL, err)
	}
	return resourcesync.Fetched{FinalURL: fe.URL, Bytes: v.Written(), Sums: v.Sums()}, nil
}

// assertEmpty fails unless dir holds nothing: no temp file survived.
func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		t.Errorf("left in the temp directory: %s", de.Name())
	}
}

func TestDownload(t *testing.T) {
	body := bytes.Repeat([]byte("a bitstream "), 2000) // several chunks
	good := buildZip(t,
		zfile{Name: "manifest.xml", Body: manifest(t, resourcesync.CapResourceDumpManifest, item{loc: "http://example.org/a", path: "/a", body: body})},
		zfile{Name: "a", Body: body})
	ref := func(b []byte) *resourcesync.Entry {
		e := &resourcesync.Entry{Loc: testPkg}
		e.MD.Length, e.MD.HasLength, e.MD.Hash = int64(len(b)), true, fixity(b)
		return e
	}
	t.Run("success", func(t *testing.T) {
		o := testOptions()
		o.TempDir = t.TempDir()
		p, err := Download(context.Background(), &fakeSource{bodies: map[string][]byte{testPkg: good}}, ref(good), resourcesync.CapResourceDumpManifest, o)
		if err != nil {
			t.Fatal(err)
		}
		if des, _ := os.ReadDir(o.TempDir); len(des) != 1 {
			t.Errorf("%d files in the temp directory while the package is open", len(des))
		}
		m, err := p.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := extract(m); err != nil || string(got) != string(body) {
			t.Errorf("%q %v", got, err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		assertEmpty(t, o.TempDir)
	})

	bad := ref(good)
	bad.MD.Hash = fixity([]byte("something else"))
	noLength := ref(good)
	noLength.MD.HasLength = false
	notZip := []byte("not a zip, but what the dump describes")
	for _, tc := range []struct {
		name   string
		ref    *resourcesync.Entry
		body   []byte
		o      func(*Options)
		cancel bool
		want   error
	}{
		{name: "not found", ref: ref(good), want: resourcesync.ErrNotFound},
		{name: "hash mismatch", ref: bad, body: good, want: resourcesync.ErrMismatch},
		{name: "not a zip", ref: ref(notZip), body: notZip, want: ErrNotZip},
		{name: "cancelled", ref: ref(good), body: good, cancel: true, want: context.Canceled},
		{name: "length over MaxSize", ref: ref(good), body: good, o: func(o *Options) { o.MaxSize = 100 }, want: ErrTooLarge},
		{name: "body over MaxSize", ref: noLength, body: good, o: func(o *Options) { o.MaxSize = 100 }, want: ErrTooLarge},
		{name: "no room", ref: ref(good), body: good, o: func(o *Options) {
			o.FreeSpace = func(string) (int64, error) { return o.MinFree + 10, nil }
		}, want: resourcesync.ErrLocal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := testOptions()
			o.TempDir = t.TempDir()
			if tc.o != nil {
				tc.o(&o)
			}
			src := &fakeSource{bodies: map[string][]byte{}}
			if tc.body != nil {
				src.bodies[testPkg] = tc.body
			}
			ctx := context.Background()
			if tc.cancel {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
				src.cancel = cancel
			}
			p, err := Download(ctx, src, tc.ref, resourcesync.CapResourceDumpManifest, o)
			if !errors.Is(err, tc.want) {
				if p != nil {
					p.Close()
				}
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			assertEmpty(t, o.TempDir)
		})
	}

	t.Run("temp dir not writable", func(t *testing.T) {
		o := testOptions()
		o.TempDir = t.TempDir() + "/absent"
		_, err := Download(context.Background(), &fakeSource{bodies: map[string][]byte{testPkg: good}}, ref(good), resourcesync.CapResourceDumpManifest, o)
		if !errors.Is(err, resourcesync.ErrLocal) {
			t.Fatalf("err %v", err)
		}
	})
}
