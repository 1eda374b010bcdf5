package resourcesync

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestRecorded(t *testing.T) {
	md5, _ := ParseHash("md5:1584abdf8ebdc9802ac0c6a7402c03b6")
	modified := time.Date(2013, 1, 3, 7, 0, 0, 0, time.FixedZone("x", 3600))
	links := []Link{
		{Rel: RelDuplicate, Href: "http://m/res1", Pri: 1},
		{Rel: RelVia, Href: "http://original.example.com/res1.html", Modified: modified, Hash: md5, Length: 8876, HasLength: true, Type: "text/html"},
		{Rel: RelPatch, Href: "http://s/p", Type: "application/json-patch"},
		{Rel: RelCollection, Href: "http://example.com/aggregation/0601007"},
		{Rel: RelDescribedBy, Href: "http://example.com/res2_dc.xml", Type: "application/xml"},
		{Rel: RelAlternate, Href: "http://s/a.pdf"},
		{Rel: RelDescribes, Href: "http://example.com/res2.pdf", Length: 0, HasLength: true},
		{Rel: RelProfile, Href: "http://purl.org/dc/elements/1.1/"},
		{Rel: RelCanonical, Href: "http://example.com/res1"},
		{Rel: "memento", Href: "http://s/m"},
		{Rel: RelCollection, Href: "http://example.com/aggregation/0601007"}, // given twice: recorded once
	}
	got := Recorded(links)
	var rels []string
	for _, l := range got {
		rels = append(rels, l.Rel)
	}
	want := []string{RelVia, RelCollection, RelDescribedBy, RelAlternate, RelDescribes, RelProfile, RelCanonical}
	if !reflect.DeepEqual(rels, want) {
		t.Fatalf("Recorded rels = %q, want %q", rels, want)
	}
	if Recorded(links[:1]) != nil || Recorded(nil) != nil {
		t.Error("Recorded of no recorded link is not nil")
	}

	// Through the stored form (JSON) and back: the same links.
	b, err := json.Marshal(LinkRecords(got))
	if err != nil {
		t.Fatal(err)
	}
	var recs []LinkRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	back, err := LinksOf(recs)
	if err != nil {
		t.Fatal(err)
	}
	if !SameLinks(got, back) {
		t.Errorf("round trip through %s:\n got %+v\nwant %+v", b, back, got)
	}
	if LinkRecords(nil) != nil {
		t.Error("LinkRecords(nil) is not nil")
	}
	if _, err := LinksOf([]LinkRecord{{Rel: RelVia, Href: "http://x/", Hash: "md5:zz"}}); err == nil {
		t.Error("LinksOf accepted a hash that does not parse")
	}

	if got := ProvenanceHosts(append(got, Link{Rel: RelVia, Href: "http://ORIGINAL.example.com/other"}, Link{Rel: RelVia, Href: "https://b:8080/x"})); !reflect.DeepEqual(got, []string{"original.example.com", "b:8080"}) {
		t.Errorf("ProvenanceHosts = %q", got)
	}
}

func TestSameLinks(t *testing.T) {
	base := Link{Rel: RelCollection, Href: "http://c/1", Modified: time.Date(2013, 1, 3, 7, 0, 0, 0, time.UTC)}
	for _, c := range []struct {
		name string
		edit func(*Link)
		same bool
	}{
		{"same", func(*Link) {}, true},
		{"same instant in another zone", func(l *Link) { l.Modified = l.Modified.In(time.FixedZone("y", -7200)) }, true},
		{"href", func(l *Link) { l.Href = "http://c/2" }, false},
		{"rel", func(l *Link) { l.Rel = RelVia }, false},
		{"type", func(l *Link) { l.Type = "text/html" }, false},
		{"pri", func(l *Link) { l.Pri = 2 }, false},
		{"modified", func(l *Link) { l.Modified = l.Modified.Add(time.Second) }, false},
		{"length", func(l *Link) { l.HasLength = true }, false},
		{"hash", func(l *Link) { l.Hash, _ = ParseHash("md5:1584abdf8ebdc9802ac0c6a7402c03b6") }, false},
	} {
		other := base
		c.edit(&other)
		if got := SameLinks([]Link{base}, []Link{other}); got != c.same {
			t.Errorf("%s: SameLinks = %v, want %v", c.name, got, c.same)
		}
	}
	if !SameLinks(nil, []Link{}) || SameLinks(nil, []Link{base}) {
		t.Error("SameLinks of empty lists")
	}
}
