package dumpzip

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// docs is an Opener over documents in memory that counts the bodies it
// has open.
type docs struct {
	m    map[string][]byte
	open int
}

type countedBody struct {
	io.Reader
	d *docs
}

func (b *countedBody) Close() error { b.d.open--; return nil }

func (d *docs) opener() resourcesync.Opener {
	return func(_ context.Context, url string) (string, io.ReadCloser, error) {
		b, ok := d.m[url]
		if !ok {
			return "", nil, resourcesync.ErrNotFound
		}
		d.open++
		return url, &countedBody{Reader: bytes.NewReader(b), d: d}, nil
	}
}

func TestContents(t *testing.T) {
	const copyURL = "http://example.org/dump/part1-manifest.xml"
	m := manifest(t, resourcesync.CapResourceDumpManifest,
		item{loc: "a", path: "/a", body: []byte("a")}, // relative: resolved against the package
		item{loc: "http://example.org/b", path: "/b", body: []byte("b")})
	d := &docs{m: map[string][]byte{copyURL: m}}
	ctx := context.Background()
	for range 2 { // each range reads the document anew
		var locs []string
		for e, err := range Contents(ctx, d.opener(), copyURL, testPkg, resourcesync.CapResourceDumpManifest, resourcesync.Limits{}) {
			if err != nil {
				t.Fatal(err)
			}
			locs = append(locs, e.Loc)
		}
		if len(locs) != 2 || locs[0] != "http://example.org/dump/a" || locs[1] != "http://example.org/b" {
			t.Fatalf("locs %v", locs)
		}
	}
	for range Contents(ctx, d.opener(), copyURL, testPkg, resourcesync.CapResourceDumpManifest, resourcesync.Limits{}) {
		break
	}
	if d.open != 0 {
		t.Errorf("%d bodies left open", d.open)
	}

	firstErr := func(url string, want resourcesync.Capability) error {
		for _, err := range Contents(ctx, d.opener(), url, testPkg, want, resourcesync.Limits{}) {
			if err != nil {
				return err
			}
		}
		return nil
	}
	var cm *resourcesync.CapabilityMismatchError
	if err := firstErr(copyURL, resourcesync.CapChangeDumpManifest); !errors.As(err, &cm) {
		t.Errorf("wrong capability: %v", err)
	}
	if err := firstErr("http://example.org/absent.xml", resourcesync.CapResourceDumpManifest); !errors.Is(err, resourcesync.ErrNotFound) {
		t.Errorf("absent copy: %v", err)
	}
	d.m["http://example.org/index.xml"] = []byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcedump-manifest"/></sitemapindex>`)
	if err := firstErr("http://example.org/index.xml", resourcesync.CapResourceDumpManifest); err == nil {
		t.Error("an index accepted as a manifest copy")
	}
	d.m["http://example.org/broken.xml"] = m[:len(m)-20]
	if err := firstErr("http://example.org/broken.xml", resourcesync.CapResourceDumpManifest); !errors.Is(err, resourcesync.ErrSyntax) {
		t.Errorf("broken copy: %v", err)
	}
	if d.open != 0 {
		t.Errorf("%d bodies left open", d.open)
	}
}
