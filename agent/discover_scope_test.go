package agent_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// bare serves the document at u without its rel="up" link, as the
// standard's Examples 1, 2 and 8 (and Hyrax) publish it.
func bare(t *testing.T, src *fixtures.Source, u string) {
	t.Helper()
	doc := string(mustGet(t, u))
	if !strings.Contains(doc, `rel="up"`) {
		t.Fatalf("%s has no rel=\"up\" to remove", u)
	}
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	src.SetRaw(p.Path, "application/xml", []byte(strings.Replace(doc, `rel="up"`, `rel="related"`, 1)))
}

// TestDiscoverSelectsTheSetGiven: a URL within one set's documents stands
// for that set; the Source's root or its Source Description for every set.
// Discovery still reads the whole Source.
func TestDiscoverSelectsTheSetGiven(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 3; s.ListMax = 4 })
	tests := []struct {
		name, start, selected string
	}{
		{"Source root", srv.URL, ""},
		{"Source Description", src.SourceDescriptionURL(), ""},
		{"Capability List", src.CapabilityListURL(1), src.CapabilityListURL(1)},
		{"Resource List Index", src.ResourceListURL(2), src.CapabilityListURL(2)},
		{"Resource List part", strings.Replace(src.ResourceListURL(0), "resourcelist.xml", "resourcelist-1.xml", 1), src.CapabilityListURL(0)},
		{"Change List", src.ChangeListURL(1), src.CapabilityListURL(1)},
		{"a resource's Link header", src.Resources(1)[0].URI, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := discover(t, tt.start)
			if err != nil {
				t.Fatal(err)
			}
			checkSource(t, d, src)
			if d.Selected != tt.selected {
				t.Errorf("selected %q, want %q", d.Selected, tt.selected)
			}
		})
	}
}

func TestDiscoverBareDocuments(t *testing.T) {
	t.Run("a bare Resource List the well-known Source Description names is its set", func(t *testing.T) {
		src, _ := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
		bare(t, src, src.ResourceListURL(1))
		d, err := discover(t, src.ResourceListURL(1))
		if err != nil {
			t.Fatal(err)
		}
		checkSource(t, d, src)
		if d.Selected != src.CapabilityListURL(1) {
			t.Errorf("selected %q, want %q", d.Selected, src.CapabilityListURL(1))
		}
		if w := strings.Join(d.Warnings, "\n"); !strings.Contains(w, "no rel=\"up\"") || !strings.Contains(w, src.CapabilityListURL(1)) {
			t.Errorf("warnings %q do not say the list is bare and which set names it", d.Warnings)
		}
	})
	for _, doc := range []struct {
		name string
		url  func(*fixtures.Source) string
		cap  resourcesync.Capability
	}{
		{"Resource List", func(s *fixtures.Source) string { return s.ResourceListURL(0) }, resourcesync.CapResourceList},
		{"Change List", func(s *fixtures.Source) string { return s.ChangeListURL(0) }, resourcesync.CapChangeList},
	} {
		t.Run("a bare "+doc.name+" nothing names is a one-set Source", func(t *testing.T) {
			src, _ := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true })
			u := doc.url(src)
			bare(t, src, u)
			d, err := discover(t, u)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Sets) != 1 || d.Sets[0].CapabilityList != u || d.Selected != u || d.SourceDescription != "" {
				t.Fatalf("discovery %+v, want one set known by %s", d, u)
			}
			if got, _ := d.Sets[0].Doc(doc.cap); got != u {
				t.Errorf("the set's %s is %q, want %q", doc.name, got, u)
			}
			if w := strings.Join(d.Warnings, "\n"); !strings.Contains(w, u) || !strings.Contains(w, "alone") {
				t.Errorf("warnings %q do not say the %s is used alone", d.Warnings, doc.name)
			}
		})
	}
	t.Run("a bare Resource Dump is still an error naming it", func(t *testing.T) {
		src, _ := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true; s.DumpPackages = 1 })
		bare(t, src, src.ResourceDumpURL(0))
		_, err := discover(t, src.ResourceDumpURL(0))
		if err == nil || !strings.Contains(err.Error(), src.ResourceDumpURL(0)) || !strings.Contains(err.Error(), "Resource Dump") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("an unknown capability is named", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetRaw("/odd.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcelistx"/></urlset>`))
		_, err := discover(t, srv.URL+"odd.xml")
		if err == nil || !strings.Contains(err.Error(), `"resourcelistx"`) || !strings.Contains(err.Error(), srv.URL+"odd.xml") {
			t.Fatalf("err = %v, want one naming the URL and the capability", err)
		}
	})
}

func TestDiscoverRobotsSkipsPlainSitemaps(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true; s.Sets = 2 })
	src.SetRaw("/", "text/html", []byte("<html><head><title>no links</title></head></html>"))
	src.SetRaw("/sitemap.xml", "application/xml", []byte(`<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+srv.URL+`about.html</loc></url></urlset>`))
	src.SetRaw("/odd.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcelist-v2"/></urlset>`))
	src.SetRaw("/robots.txt", "text/plain", []byte("User-agent: *\nSitemap: "+srv.URL+"sitemap.xml\nSitemap: "+srv.URL+"odd.xml\nSitemap: "+src.ResourceListURL(0)+"\nSitemap: "+src.ResourceListURL(1)+"\n"))
	d, err := discover(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	checkSource(t, d, src)
	if d.FoundBy != "robots.txt" || d.Selected != "" {
		t.Errorf("via %q, selected %q", d.FoundBy, d.Selected)
	}
	if w := strings.Join(d.Warnings, "\n"); !strings.Contains(w, srv.URL+"sitemap.xml") || !strings.Contains(w, `"resourcelist-v2"`) {
		t.Errorf("warnings %q do not note the plain sitemap and the unknown capability skipped", d.Warnings)
	}
}

// A Capability List that points up to a Source Description already read,
// which does not name it, is still a set (with a warning), whatever the
// order discovery met them in.
func TestDiscoverCapabilityListTheDescriptionOmits(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.NoWellKnown = true; s.Sets = 2 })
	sd := string(mustGet(t, src.SourceDescriptionURL()))
	second := strings.Index(sd[strings.Index(sd, "<url>")+1:], "<url>") + strings.Index(sd, "<url>") + 1
	end := strings.Index(sd[second:], "</url>") + second + len("</url>")
	if !strings.Contains(sd[second:end], src.CapabilityListURL(1)) {
		t.Fatalf("the second entry is not dataset2's: %s", sd[second:end])
	}
	u, _ := url.Parse(src.SourceDescriptionURL())
	src.SetRaw(u.Path, "application/xml", []byte(sd[:second]+sd[end:]))
	src.SetRaw("/", "text/html", []byte("<html></html>"))
	src.SetRaw("/robots.txt", "text/plain", []byte("Sitemap: "+src.SourceDescriptionURL()+"\nSitemap: "+src.CapabilityListURL(1)+"\n"))
	d, err := discover(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sets) != 2 {
		t.Fatalf("%d sets, want both: %+v", len(d.Sets), d.Sets)
	}
	if w := strings.Join(d.Warnings, "\n"); !strings.Contains(w, "does not name the Capability List "+src.CapabilityListURL(1)) {
		t.Errorf("warnings %q", d.Warnings)
	}
}
