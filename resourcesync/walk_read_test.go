package resourcesync

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// sizedBody is a document whose reader knows its size, as a spooled one.
type sizedBody struct{ *bytes.Reader }

func (sizedBody) Close() error { return nil }

// Walk tells the share of the walk read as it goes: rising, an equal share
// per part of an index, 1 at the end; and nothing for a body of unknown size.
func TestWalkReadShare(t *testing.T) {
	urlset := func(n, from int) string {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>`)
		for i := range n {
			fmt.Fprintf(&b, "<url><loc>http://example.org/r%d</loc></url>", from+i)
		}
		b.WriteString("</urlset>")
		return b.String()
	}
	docs := map[string]string{
		"http://example.org/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>` +
			`<sitemap><loc>http://example.org/p1.xml</loc></sitemap><sitemap><loc>http://example.org/p2.xml</loc></sitemap></sitemapindex>`,
		"http://example.org/p1.xml": urlset(20000, 0),
		"http://example.org/p2.xml": urlset(20000, 20000),
	}
	for _, sized := range []bool{true, false} {
		open := func(_ context.Context, u string) (string, io.ReadCloser, error) {
			if sized {
				return u, sizedBody{bytes.NewReader([]byte(docs[u]))}, nil
			}
			return u, io.NopCloser(strings.NewReader(docs[u])), nil
		}
		var shares []float64
		entries := 0
		_, err := Walk(context.Background(), open, "http://example.org/index.xml", CapResourceList,
			WalkOptions{Read: func(s float64) { shares = append(shares, s) }},
			func(*Part, *Entry) error { entries++; return nil })
		if err != nil || entries != 40000 {
			t.Fatalf("sized %v: %d entries, %v", sized, entries, err)
		}
		if !sized {
			if len(shares) != 0 {
				t.Errorf("unknown size: told %d shares", len(shares))
			}
			continue
		}
		for i := 1; i < len(shares); i++ {
			if shares[i] < shares[i-1] || shares[i] > 1 {
				t.Fatalf("share %v after %v", shares[i], shares[i-1])
			}
		}
		if last := shares[len(shares)-1]; last != 1 {
			t.Errorf("last share %v, want 1", last)
		}
		if mid := shares[len(shares)/2]; mid < 0.4 || mid > 0.6 {
			t.Errorf("share half way through %v, want about 0.5", mid)
		}
	}
}
