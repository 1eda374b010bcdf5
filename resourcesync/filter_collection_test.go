package resourcesync

import (
	"errors"
	"strings"
	"testing"
)

func TestFilterCollections(t *testing.T) {
	const (
		agg1 = "http://example.com/aggregation/0601007" // example 30
		agg2 = "http://example.com/set/b"
		pdf  = "http://example.com/res1.pdf"
		html = "http://example.com/res1"
	)
	member := func(c ...string) []Link {
		ls := []Link{{Rel: RelDuplicate, Href: "http://mirror.example/res1"}}
		for _, h := range c {
			ls = append(ls, Link{Rel: RelCollection, Href: h})
		}
		return ls
	}
	tests := []struct {
		name        string
		exclude     []string
		collections []string
		uri         string
		links       []Link
		why         string // "" when taken
	}{
		{"no --collection takes a resource in none", nil, nil, html, nil, ""},
		{"a member of the collection", nil, []string{agg1}, html, member(agg1), ""},
		{"a member of any of them", nil, []string{agg2, agg1}, html, member("http://other.example/c", agg1), ""},
		{"a member of another collection", nil, []string{agg1}, html, member(agg2), "names no --collection"},
		{"a resource in no collection", nil, []string{agg1}, html, member(), "names no --collection"},
		{"membership unknown (no links): left out", nil, []string{agg1}, html, nil, "names no --collection"},
		{"exact URI: no case folding", nil, []string{agg1}, html, member(strings.ToUpper(agg1)), "names no --collection"},
		{"exact URI: a trailing slash is another URI", nil, []string{agg1}, html, member(agg1 + "/"), "names no --collection"},
		{"surrounding white space is trimmed", nil, []string{" " + agg1 + "\n"}, html, member("\t" + agg1), ""},
		{"rel must be collection", nil, []string{agg1}, html, []Link{{Rel: RelDescribedBy, Href: agg1}}, "names no --collection"},
		{"both must admit: excluded member", []string{`\.pdf$`}, []string{agg1}, pdf, member(agg1), "--exclude"},
		{"both must admit: taken by URI, not a member", []string{`\.pdf$`}, []string{agg1}, html, member(agg2), "names no --collection"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFilter(nil, tt.exclude)
			if err != nil {
				t.Fatal(err)
			}
			if f, err = f.InCollections(tt.collections); err != nil {
				t.Fatal(err)
			}
			if f.Empty() != (len(tt.exclude)+len(tt.collections) == 0) {
				t.Errorf("Empty() = %v", f.Empty())
			}
			err = f.CheckEntry(tt.uri, tt.links)
			switch {
			case tt.why == "" && err != nil:
				t.Errorf("CheckEntry(%s) = %v, want nil", tt.uri, err)
			case tt.why != "" && (!errors.Is(err, ErrLeftOut) || !strings.Contains(err.Error(), tt.why) || !strings.Contains(err.Error(), tt.uri)):
				t.Errorf("CheckEntry(%s) = %v, want ErrLeftOut naming it and saying %q", tt.uri, err, tt.why)
			}
			if len(tt.links) == 0 && f.Check(tt.uri) == nil != (err == nil) {
				t.Errorf("Check and CheckEntry without links disagree")
			}
		})
	}
}

// A resource of which only the URI and the state's record are known is
// judged by the collection links recorded with it; with no record, or a
// record without any, its membership is unknown and it is left out.
func TestFilterCheckHeld(t *testing.T) {
	const (
		agg1 = "http://example.com/aggregation/0601007"
		agg2 = "http://example.com/set/b"
		uri  = "http://example.com/res1"
	)
	held := func(links ...Link) *Held { return &Held{URI: uri, Path: "example.com/res1", Links: links} }
	tests := []struct {
		name        string
		exclude     []string
		collections []string
		h           *Held
		why         string // "" when taken
	}{
		{"no --collection, nothing held", nil, nil, nil, ""},
		{"no --collection, a record in another collection", nil, nil, held(Link{Rel: RelCollection, Href: agg2}), ""},
		{"recorded a member", nil, []string{agg1}, held(Link{Rel: RelDescribedBy, Href: "http://example.com/m"}, Link{Rel: RelCollection, Href: agg1}), ""},
		{"recorded a member of any of them", nil, []string{agg2, agg1}, held(Link{Rel: RelCollection, Href: " " + agg1}), ""},
		{"recorded a member of another collection", nil, []string{agg1}, held(Link{Rel: RelCollection, Href: agg2}), "names no --collection"},
		{"a record without links: unknown, left out", nil, []string{agg1}, held(), "names no --collection"},
		{"a record without collection links: unknown, left out", nil, []string{agg1}, held(Link{Rel: RelDescribedBy, Href: agg1}), "names no --collection"},
		{"nothing held: unknown, left out", nil, []string{agg1}, nil, "names no --collection"},
		{"both must admit: a recorded member excluded", []string{`res1$`}, []string{agg1}, held(Link{Rel: RelCollection, Href: agg1}), "--exclude"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFilter(nil, tt.exclude)
			if err == nil {
				f, err = f.InCollections(tt.collections)
			}
			if err != nil {
				t.Fatal(err)
			}
			err = f.CheckHeld(uri, tt.h)
			switch {
			case tt.why == "" && err != nil:
				t.Errorf("CheckHeld = %v, want nil", err)
			case tt.why != "" && (!errors.Is(err, ErrLeftOut) || !strings.Contains(err.Error(), tt.why) || !strings.Contains(err.Error(), uri)):
				t.Errorf("CheckHeld = %v, want ErrLeftOut naming %s and saying %q", err, uri, tt.why)
			}
		})
	}
}

func TestInCollectionsErrors(t *testing.T) {
	for _, c := range []string{"", "  ", "aggregation/0601007", "%zz"} {
		_, err := Filter{}.InCollections([]string{"http://example.com/ok", c})
		if err == nil || !strings.Contains(err.Error(), "--collection") || !strings.Contains(err.Error(), "absolute URI") {
			t.Errorf("InCollections(%q) = %v, want an error naming --collection", c, err)
		}
	}
}

func TestFilterStringCollections(t *testing.T) {
	f, err := ParseFilter([]string{`i1`}, []string{`e1`})
	if err == nil {
		f, err = f.InCollections([]string{"http://c/1", "http://c/2", "http://c/1"})
	}
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.String(), "--exclude e1 --include i1 --collection http://c/1 --collection http://c/2"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// FuzzFilterCollections: any --collection is either an absolute URI the
// filter takes the members of, or refused naming the flag; the decision
// is the same every time, and a resource in no collection is left out.
func FuzzFilterCollections(f *testing.F) {
	f.Add("http://example.com/aggregation/0601007", "http://example.com/aggregation/0601007")
	f.Add(" urn:x:set ", "urn:x:set")
	f.Add("aggregation/1", "aggregation/1")
	f.Add("%zz", "http://h/")
	f.Fuzz(func(t *testing.T, collection, href string) {
		flt, err := Filter{}.InCollections([]string{collection})
		if err != nil {
			if !strings.Contains(err.Error(), "--collection") {
				t.Fatalf("error %q names no flag", err)
			}
			return
		}
		links := []Link{{Rel: RelCollection, Href: href}}
		e1, e2 := flt.CheckEntry("http://h/r", links), flt.CheckEntry("http://h/r", links)
		if (e1 == nil) != (e2 == nil) || (e1 != nil && !errors.Is(e1, ErrLeftOut)) {
			t.Fatalf("CheckEntry = %v then %v", e1, e2)
		}
		if (e1 == nil) != (strings.TrimSpace(collection) == strings.TrimSpace(href)) {
			t.Fatalf("collection %q, link %q: CheckEntry = %v", collection, href, e1)
		}
		if err := flt.Check("http://h/r"); !errors.Is(err, ErrLeftOut) {
			t.Fatalf("a resource of unknown membership taken: %v", err)
		}
	})
}
