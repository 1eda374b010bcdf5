package resourcesync

import (
	"reflect"
	"testing"
)

func TestMirrors(t *testing.T) {
	links := []Link{
		{Rel: RelDuplicate, Href: "http://m/nopri"},
		{Rel: RelDuplicate, Href: "gsiftp://grid/x", Pri: 1},
		{Rel: RelDuplicate, Href: "https://m/b", Pri: 2},
		{Rel: RelDescribedBy, Href: "http://m/meta", Pri: 1},
		{Rel: RelDuplicate, Href: "HTTP://m/a", Pri: 1},
		{Rel: RelDuplicate, Href: "http:///nohost", Pri: 1},
		{Rel: RelDuplicate, Href: "http://m/b2", Pri: 2},
		{Rel: RelDuplicate, Href: "%zz", Pri: 1},
	}
	var got []string
	for _, l := range Mirrors(links) {
		got = append(got, l.Href)
	}
	want := []string{"HTTP://m/a", "https://m/b", "http://m/b2", "http://m/nopri"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Mirrors = %q, want %q", got, want)
	}
	if m := Mirrors(nil); m != nil {
		t.Errorf("Mirrors(nil) = %v", m)
	}
}

func TestCompanions(t *testing.T) {
	links := []Link{
		{Rel: RelAlternate, Href: "http://s/a.pdf", Type: "application/pdf"},
		{Rel: RelAlternate, Href: "http://s/a.html", Type: "text/html; charset=utf-8"},
		{Rel: RelAlternate, Href: "ftp://s/a2.pdf", Type: "application/pdf"},
		{Rel: RelDescribedBy, Href: "http://s/a.xml", Type: "application/xml"},
		{Rel: RelDescribedBy, Href: "http://s/a.pdf"}, // the same target once
		{Rel: RelDuplicate, Href: "http://m/a", Type: "application/pdf"},
	}
	for _, tc := range []struct {
		types []string
		meta  bool
		want  []string
	}{
		{nil, false, nil},
		{[]string{"APPLICATION/PDF"}, false, []string{"http://s/a.pdf"}},
		{[]string{"text/html"}, false, []string{"http://s/a.html"}},
		{nil, true, []string{"http://s/a.xml", "http://s/a.pdf"}},
		{[]string{"application/pdf"}, true, []string{"http://s/a.pdf", "http://s/a.xml"}},
	} {
		var got []string
		for _, l := range Companions(links, tc.types, tc.meta) {
			got = append(got, l.Href)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Companions(%q, %v) = %q, want %q", tc.types, tc.meta, got, tc.want)
		}
	}
}

// Example 29's links: the memento is acted on, the TimeGate and TimeMap
// are not; a collection link is what --collection reads.
func TestMementosAndCollections(t *testing.T) {
	links := []Link{
		{Rel: RelMemento, Href: "http://example.com/20130103070000/res1", Pri: 2},
		{Rel: RelTimeGate, Href: "http://example.com/timegate/http://example.com/res1"},
		{Rel: RelTimeMap, Href: "http://example.com/timemap/http://example.com/res1", Type: "application/link-format"},
		{Rel: RelMemento, Href: "urn:x-memento:res1", Pri: 1},
		{Rel: RelMemento, Href: "https://example.com/20130102/res1", Pri: 1},
		{Rel: RelCollection, Href: "http://example.com/aggregation/0601007"},
		{Rel: RelDuplicate, Href: "http://m/res1"},
	}
	hrefs := func(ls []Link) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Href)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		got  []Link
		want []string
	}{
		{"Mementos", Mementos(links), []string{"https://example.com/20130102/res1", "http://example.com/20130103070000/res1"}},
		{"Collections", Collections(links), []string{"http://example.com/aggregation/0601007"}},
		// and the links recorded with the copy (Recorded), the collection's.
		{"ActedOn", ActedOn(links), []string{"http://m/res1", "https://example.com/20130102/res1", "http://example.com/20130103070000/res1",
			"http://example.com/aggregation/0601007"}},
	} {
		if got := hrefs(tc.got); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %q, want %q", tc.name, got, tc.want)
		}
	}
}
