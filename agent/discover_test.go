package agent_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
)

func discover(t *testing.T, start string) (*agent.Discovery, error) {
	t.Helper()
	return agent.Discover(context.Background(), testClient(t), start, agent.DefaultDiscoverOptions())
}

// checkSource asserts that discovery found the whole fixture Source.
func checkSource(t *testing.T, d *agent.Discovery, src *fixtures.Source) {
	t.Helper()
	if d.SourceDescription != src.SourceDescriptionURL() {
		t.Errorf("Source Description = %q, want %q", d.SourceDescription, src.SourceDescriptionURL())
	}
	if len(d.Sets) != src.Sets() {
		t.Fatalf("%d sets, want %d: %+v", len(d.Sets), src.Sets(), d.Sets)
	}
	for k := range src.Sets() {
		s, ok := d.Set(src.CapabilityListURL(k))
		if !ok {
			t.Fatalf("set %s not found", src.CapabilityListURL(k))
		}
		if s.Err != nil {
			t.Fatalf("set %s: %v", s.CapabilityList, s.Err)
		}
		for c, want := range map[resourcesync.Capability]string{
			resourcesync.CapResourceList: src.ResourceListURL(k),
			resourcesync.CapChangeList:   src.ChangeListURL(k),
		} {
			if got, _ := s.Doc(c); got != want {
				t.Errorf("set %d %s = %q, want %q", k, c, got, want)
			}
		}
		if s.DescribedBy != src.AboutURL(k) {
			t.Errorf("set %d described by %q, want %q", k, s.DescribedBy, src.AboutURL(k))
		}
	}
}

func TestDiscoverPaths(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 3; s.DumpPackages = 2; s.ListMax = 4 })
	res := src.Resources(1)[0]
	tests := []struct {
		name, start, via string
	}{
		{"Source root", srv.URL, "well-known URI"},
		{"Source root without slash", strings.TrimSuffix(srv.URL, "/"), "well-known URI"},
		{"Source Description", src.SourceDescriptionURL(), "the URL given"},
		{"Capability List", src.CapabilityListURL(2), "the URL given"},
		{"Resource List Index", src.ResourceListURL(1), "the URL given"},
		{"Resource List part (index, then up)", strings.Replace(src.ResourceListURL(0), "resourcelist.xml", "resourcelist-1.xml", 1), "the URL given"},
		{"Change List Index", src.ChangeListURL(0), "the URL given"},
		{"Resource Dump", src.ResourceDumpURL(0), "the URL given"},
		{"a resource with a Link header", res.URI, "HTTP Link header"},
		{"an HTML page", src.AboutURL(1), "HTTP Link header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := discover(t, tt.start)
			if err != nil {
				t.Fatal(err)
			}
			checkSource(t, d, src)
			if d.FoundBy != tt.via {
				t.Errorf("via %q, want %q", d.FoundBy, tt.via)
			}
		})
	}
}

func TestDiscoverFallbacks(t *testing.T) {
	t.Run("HTML link on the root page", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true })
		d, err := discover(t, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		checkSource(t, d, src)
		if d.FoundBy != "HTML link" {
			t.Errorf("via %q", d.FoundBy)
		}
		if !strings.Contains(strings.Join(d.Tried, "\n"), "/.well-known/resourcesync") {
			t.Errorf("the well-known URI is not among the places tried: %q", d.Tried)
		}
	})
	t.Run("robots.txt", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true; s.Sets = 2 })
		src.SetRaw("/", "text/html", []byte("<html><head><title>no links</title></head></html>"))
		d, err := discover(t, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		checkSource(t, d, src)
		if d.FoundBy != "robots.txt" {
			t.Errorf("via %q", d.FoundBy)
		}
	})
	t.Run("nothing anywhere lists every place tried", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true })
		src.SetRaw("/", "text/html", []byte("<html></html>"))
		src.SetNotFound("/robots.txt")
		_, err := discover(t, srv.URL+"some/page")
		if !errors.Is(err, agent.ErrNotResourceSync) {
			t.Fatalf("err = %v, want ErrNotResourceSync", err)
		}
		for _, want := range []string{srv.URL + "some/page", "/.well-known/resourcesync", "/robots.txt"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error does not name %s:\n%v", want, err)
			}
		}
	})
}

func TestDiscoverSourceDescriptionIndex(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
	sdIndex := `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:md capability="description"/>
  <sitemap><loc>/sd-part.xml</loc></sitemap>
</sitemapindex>`
	part := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:md capability="description"/>
  <url><loc>` + src.CapabilityListURL(0) + `</loc><rs:md capability="capabilitylist"/></url>
  <url><loc>` + src.CapabilityListURL(1) + `</loc></url>
</urlset>`
	src.SetRaw("/.well-known/resourcesync", "application/xml", []byte(sdIndex))
	src.SetRaw("/sd-part.xml", "application/xml", []byte(part))
	d, err := discover(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sets) != 2 {
		t.Fatalf("sets %+v", d.Sets)
	}
	if d.SourceDescription != src.SourceDescriptionURL() {
		t.Errorf("Source Description %q, want the index %q", d.SourceDescription, src.SourceDescriptionURL())
	}
	if len(d.Warnings) != 0 {
		t.Errorf("warnings: %q", d.Warnings)
	}
}

func TestDiscoverBadDocuments(t *testing.T) {
	t.Run("malformed Source Description names the URL", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetRaw("/.well-known/resourcesync", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="description"/><url><loc>x</loc></url`))
		_, err := discover(t, srv.URL)
		var pe *resourcesync.ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "/.well-known/resourcesync") {
			t.Fatalf("err = %v, want a ParseError naming the document", err)
		}
	})
	t.Run("well-known that is not a Source Description", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetRaw("/.well-known/resourcesync", "application/xml", mustGet(t, src.CapabilityListURL(0)))
		_, err := discover(t, srv.URL)
		var me *resourcesync.CapabilityMismatchError
		if !errors.As(err, &me) || me.Got != resourcesync.CapCapabilityList {
			t.Fatalf("err = %v, want a capability mismatch", err)
		}
	})
	t.Run("Capability List that is a Resource List is a set error naming both URLs", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
		src.SetRaw("/dataset2/capabilitylist.xml", "application/xml", mustGet(t, src.ResourceListURL(1)))
		d, err := discover(t, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		bad, _ := d.Set(src.CapabilityListURL(1))
		good, _ := d.Set(src.CapabilityListURL(0))
		if good.Err != nil || bad.Err == nil {
			t.Fatalf("good: %v, bad: %v", good.Err, bad.Err)
		}
		for _, want := range []string{src.CapabilityListURL(1), src.SourceDescriptionURL(), "Resource List"} {
			if !strings.Contains(bad.Err.Error(), want) {
				t.Errorf("set error does not say %q: %v", want, bad.Err)
			}
		}
	})
	t.Run("up link to a document that is not a Capability List", func(t *testing.T) {
		src, srv := served(t, nil)
		rl := strings.Replace(string(mustGet(t, src.ResourceListURL(0))), src.CapabilityListURL(0), src.ResourceListURL(0), 1)
		src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(rl))
		_, err := discover(t, src.ResourceListURL(0))
		if err == nil || !strings.Contains(err.Error(), "pointed at as a Capability List") {
			t.Fatalf("err = %v", err)
		}
		_ = srv
	})
	t.Run("index links that loop", func(t *testing.T) {
		src, srv := served(t, nil)
		doc := func(index string) []byte {
			return []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:ln rel="index" href="` + index + `"/><rs:md capability="resourcelist" at="2013-01-03T09:00:00Z"/></urlset>`)
		}
		src.SetRaw("/a.xml", "application/xml", doc("/b.xml"))
		src.SetRaw("/b.xml", "application/xml", doc("/a.xml"))
		_, err := discover(t, srv.URL+"a.xml")
		if err == nil || !strings.Contains(err.Error(), "loop") {
			t.Fatalf("err = %v, want a loop", err)
		}
	})
	t.Run("capability list without up is used alone", func(t *testing.T) {
		src, _ := served(t, nil)
		cl := strings.Replace(string(mustGet(t, src.CapabilityListURL(0))), `rel="up"`, `rel="related"`, 1)
		src.SetRaw("/dataset1/capabilitylist.xml", "application/xml", []byte(cl))
		d, err := discover(t, src.CapabilityListURL(0))
		if err != nil {
			t.Fatal(err)
		}
		if d.SourceDescription != "" || len(d.Sets) != 1 || len(d.Warnings) == 0 {
			t.Fatalf("discovery %+v", d)
		}
	})
}

func TestDiscoverNetwork(t *testing.T) {
	t.Run("redirect", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetFault("/start", fixtures.Fault{Status: []int{302}, Location: src.CapabilityListURL(0)})
		d, err := discover(t, srv.URL+"start")
		if err != nil {
			t.Fatal(err)
		}
		checkSource(t, d, src)
	})
	t.Run("503 then 200", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetFault("/.well-known/resourcesync", fixtures.Fault{Status: []int{503}, Times: 1})
		d, err := discover(t, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		checkSource(t, d, src)
		if n := src.Requests("/.well-known/resourcesync"); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})
	t.Run("reset mid-body is retried", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetFault("/dataset1/capabilitylist.xml", fixtures.Fault{Body: fixtures.Reset, At: 40, Times: 1})
		d, err := discover(t, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		checkSource(t, d, src)
	})
	t.Run("Source down is unavailable", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetFault("/*", fixtures.Fault{Status: []int{503, 503, 503, 503, 503, 503, 503, 503, 503, 503}})
		_, err := discover(t, srv.URL)
		if !errors.Is(err, resourcesync.ErrUnavailable) {
			t.Fatalf("err = %v, want ErrUnavailable", err)
		}
	})
	t.Run("unreachable port", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		_, err = discover(t, "http://"+addr+"/")
		if !errors.Is(err, resourcesync.ErrUnavailable) {
			t.Fatalf("err = %v, want ErrUnavailable", err)
		}
	})
	t.Run("gzip bomb at the well-known URI fails small", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(fixtures.GzipBomb(1 << 30))
		}))
		defer srv.Close()
		_, err := discover(t, srv.URL+"/")
		// Discovery's summary of what it tried keeps each cause's text.
		if err == nil || !strings.Contains(err.Error(), srv.URL+"/.well-known/resourcesync: get ") || !strings.Contains(err.Error(), source.ErrTooLarge.Error()) {
			t.Fatalf("err = %v, want one naming the document as too large", err)
		}
	})
}

func mustGet(t *testing.T, u string) []byte {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
