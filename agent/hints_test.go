package agent

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseLinkHeader(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   []LinkValue
	}{
		{"spec example 10", []string{`<http://www.example.com/dataset1/capabilitylist.xml>;
         rel="resourcesync"`}, []LinkValue{{Target: "http://www.example.com/dataset1/capabilitylist.xml", Rels: []string{"resourcesync"}, Params: map[string]string{"rel": "resourcesync"}}}},
		{"several links, several rels", []string{`<a>; rel="self", <b>; rel="hub resourcesync"; title="x, y"`}, []LinkValue{
			{Target: "a", Rels: []string{"self"}, Params: map[string]string{"rel": "self"}},
			{Target: "b", Rels: []string{"hub", "resourcesync"}, Params: map[string]string{"rel": "hub resourcesync", "title": "x, y"}},
		}},
		{"token rel, case", []string{`<c>;REL=ResourceSync`}, []LinkValue{{Target: "c", Rels: []string{"resourcesync"}, Params: map[string]string{"rel": "ResourceSync"}}}},
		{"two header lines", []string{`<a>; rel=up`, `<b>; rel=index`}, []LinkValue{
			{Target: "a", Rels: []string{"up"}, Params: map[string]string{"rel": "up"}},
			{Target: "b", Rels: []string{"index"}, Params: map[string]string{"rel": "index"}},
		}},
		{"first rel wins", []string{`<a>; rel=up; rel=index`}, []LinkValue{{Target: "a", Rels: []string{"up"}, Params: map[string]string{"rel": "up"}}}},
		{"garbage then a link", []string{`garbage, <a>; rel=up`}, []LinkValue{{Target: "a", Rels: []string{"up"}, Params: map[string]string{"rel": "up"}}}},
		{"comma inside the target", []string{`<http://x/a,b>; rel="resourcesync"`}, []LinkValue{{Target: "http://x/a,b", Rels: []string{"resourcesync"}, Params: map[string]string{"rel": "resourcesync"}}}},
		{"unterminated", []string{`<http://x/a; rel=up`}, nil},
		{"empty", []string{""}, nil},
		{"escaped quote", []string{`<a>; rel="up"; title="say \"hi\""`}, []LinkValue{{Target: "a", Rels: []string{"up"}, Params: map[string]string{"rel": "up", "title": `say "hi"`}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseLinkHeader(tt.values)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseLinkHeader(%q)\n got %#v\nwant %#v", tt.values, got, tt.want)
			}
		})
	}
}

func TestHTMLLinks(t *testing.T) {
	tests := []struct {
		name, html string
		want       []string
	}{
		{"spec example 9", `<html>
  <head>
    <link rel="resourcesync"
          href="http://www.example.com/dataset1/capabilitylist.xml"/>
  </head><body>...</body></html>`, []string{"http://www.example.com/dataset1/capabilitylist.xml"}},
		{"case, single quotes, other rels", `<LINK REL='stylesheet' href=a.css><link href='cl.xml' rel='alternate ResourceSync'>`, []string{"cl.xml"}},
		{"unquoted and entity", `<link rel=resourcesync href=/cl.xml?a=1&amp;b=2>`, []string{"/cl.xml?a=1&b=2"}},
		{"no href", `<link rel="resourcesync">`, nil},
		{"not a link element", `<linked rel="resourcesync" href="x">`, nil},
		{"two", `<link rel="resourcesync" href="a"><link rel="resourcesync" href="b">`, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := HTMLLinks(strings.NewReader(tt.html), "resourcesync")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRobotsSitemaps(t *testing.T) {
	robots := "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /tmp/\nSitemap: http://example.com/dataset1/resourcelist.xml\n" +
		"sitemap:http://example.com/sitemap.xml # a comment\nSITEMAP :  /relative.xml\r\nSitemap:\n# Sitemap: http://commented/\n"
	got, err := RobotsSitemaps(strings.NewReader(robots))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://example.com/dataset1/resourcelist.xml", "http://example.com/sitemap.xml", "/relative.xml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzParseLinkHeader(f *testing.F) {
	for _, s := range []string{`<a>; rel="up"`, `<a>;rel=up, <b>; rel="x y"; t="\""`, `<`, `,,;;`, `<a>; rel="`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, l := range ParseLinkHeader([]string{s}) {
			if l.Target == "" {
				t.Fatalf("empty target from %q", s)
			}
			for _, r := range l.Rels {
				if r == "" || r != strings.ToLower(r) {
					t.Fatalf("bad rel %q from %q", r, s)
				}
			}
		}
	})
}

func FuzzHTMLLinks(f *testing.F) {
	for _, s := range []string{`<link rel="resourcesync" href="a">`, `<link rel=resourcesync href=a`, `<LINK`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		links, err := HTMLLinks(strings.NewReader(s), "resourcesync")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links {
			if l == "" {
				t.Fatalf("empty href from %q", s)
			}
		}
	})
}

func FuzzRobotsSitemaps(f *testing.F) {
	f.Add("Sitemap: http://a/b\nsitemap:c # x")
	f.Fuzz(func(t *testing.T, s string) {
		maps, _ := RobotsSitemaps(strings.NewReader(s))
		for _, m := range maps {
			if m == "" || strings.ContainsAny(m, "\n#") {
				t.Fatalf("bad sitemap %q from %q", m, s)
			}
		}
	})
}
