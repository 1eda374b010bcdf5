package resourcesync

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readAll(t *testing.T, doc string) (*Header, []*Entry) {
	t.Helper()
	r := NewReader(strings.NewReader(doc), "test.xml", Limits{})
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	var es []*Entry
	for e, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	if r.Count() != int64(len(es)) {
		t.Errorf("Count = %d, want %d", r.Count(), len(es))
	}
	return h, es
}

func TestReaderNamespaces(t *testing.T) {
	// Any prefixes, the default namespace on rs:md, redeclarations inside
	// entries, and a rebinding of the prefix rs to something else.
	doc := lines(
		`<?xml version='1.0' encoding='utf-8' standalone='yes'?>`,
		`<s:sitemapindex xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="http://www.openarchives.org/rs/terms/">`,
		`<md xmlns="http://www.openarchives.org/rs/terms/" capability="changelist" from="2013-01-01T00:00:00Z"/>`,
		`<x:ln rel="up" href="http://example.com/caps.xml"/>`,
		`<s:sitemap><s:loc>http://example.com/cl1.xml</s:loc>`,
		`  <rs:md xmlns:rs="http://www.openarchives.org/rs/terms/" from="2013-01-01T00:00:00Z" until="2013-01-02T00:00:00Z"/></s:sitemap>`,
		`<s:sitemap xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><loc>http://example.com/cl2.xml</loc>`,
		`  <rs:md xmlns:rs="urn:not-resourcesync" from="bad, but not ResourceSync's"/></s:sitemap>`,
		`</s:sitemapindex>`)
	h, es := readAll(t, doc)
	if h.Root != RootSitemapIndex || !h.IsIndex() || h.Capability() != CapChangeList || len(h.Links) != 1 {
		t.Fatalf("header %+v", h)
	}
	if len(es) != 2 || es[0].Loc != "http://example.com/cl1.xml" || es[1].Loc != "http://example.com/cl2.xml" {
		t.Fatalf("entries %+v", es)
	}
	if !es[0].HasMD || es[0].MD.Until.IsZero() {
		t.Errorf("entry 1 md %+v", es[0].MD)
	}
	if es[1].HasMD {
		t.Errorf("an md in another namespace was taken for rs:md: %+v", es[1].MD)
	}
}

func TestReaderSkipsUnknown(t *testing.T) {
	doc := lines(
		testRoot,
		`<rs:md capability="resourcelist" at="2013-01-03T09:00:00Z" xmlns:ext="urn:ext" ext:level="2" note="n"/>`,
		`<ext:whatever xmlns:ext="urn:ext"><url><loc>http://example.com/not-an-entry</loc></url></ext:whatever>`,
		`<loc>a stray loc</loc>`,
		`<url>`,
		`  <loc>http://example.com/res1</loc>`,
		`  <priority>0.5</priority>`,
		`  <image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>http://example.com/i.png</image:loc></image:image>`,
		`  <rs:unknown><deep><deeper/></deep></rs:unknown>`,
		`  <rs:md change="moved" hash="md5:`+md5Hex+`" length="0" type=" text/html " foo:bar="1" xmlns:foo="urn:foo" other="x" xml:lang="en"><child/>text</rs:md>`,
		`  <rs:ln rel="http://example.com/rels/custom" href="http://example.com/x" pri="5" ext:q="" xmlns:ext="urn:ext"/>`,
		`  <url><loc>http://example.com/nested-url-is-unknown-here</loc></url>`,
		`</url>`,
		`<ext:tail xmlns:ext="urn:ext"/>`,
		`</urlset>`,
		`<!-- trailing comment --><?pi trailing?>`)
	h, es := readAll(t, doc)
	wantHeaderExtra := []Attr{{Space: "urn:ext", Local: "level", Value: "2"}, {Local: "note", Value: "n"}}
	if !reflect.DeepEqual(h.MD.Extra, wantHeaderExtra) {
		t.Errorf("header Extra %+v, want %+v", h.MD.Extra, wantHeaderExtra)
	}
	if len(es) != 1 {
		t.Fatalf("read %d entries, want 1", len(es))
	}
	e := es[0]
	if e.Loc != "http://example.com/res1" || e.Line != 5 || !e.HasMD || e.MD.Change != "moved" || e.MD.Change.Known() {
		t.Errorf("entry %+v", e)
	}
	if !e.MD.HasLength || e.MD.Length != 0 || e.MD.Type != "text/html" || len(e.MD.Hash) != 1 {
		t.Errorf("md %+v", e.MD)
	}
	wantExtra := []Attr{{Space: "urn:foo", Local: "bar", Value: "1"}, {Local: "other", Value: "x"},
		{Space: xmlNamespace, Local: "lang", Value: "en"}}
	if !reflect.DeepEqual(e.MD.Extra, wantExtra) {
		t.Errorf("md Extra %+v, want %+v", e.MD.Extra, wantExtra)
	}
	wantLink := Link{Rel: "http://example.com/rels/custom", Href: "http://example.com/x", Pri: 5,
		Extra: []Attr{{Space: "urn:ext", Local: "q", Value: ""}}}
	if len(e.Links) != 1 || !reflect.DeepEqual(e.Links[0], wantLink) {
		t.Errorf("links %+v, want %+v", e.Links, wantLink)
	}
}

func TestReaderText(t *testing.T) {
	doc := "\xef\xbb\xbf" + `<?xml version="1.0" encoding="US-ASCII"?>` + "\r\n" +
		testRoot + "\r\n" +
		`<rs:md capability="resourcelist" at=" 2013-01-03T09:00:00Z&#x9;"/>` + "\r\n" +
		"<url>\r\n<loc>\r\n   http://example.com/a?x=1&amp;y=&#50;&#x33;&lt;&gt;&quot;&apos;   \r\n</loc>\r\n" +
		"<lastmod> 2013-01-02T14:00:00+01:00 </lastmod><changefreq>\tdaily\n</changefreq></url>\r\n" +
		"<url><loc><![CDATA[http://example.com/b?x=<1>&y=2]]></loc></url>\n" +
		"<url><loc>http://example.com/<!-- split -->c<?pi x?>/d<ignored>e</ignored></loc></url>\n" +
		"<url><loc>http://example.com/\u00e9\u4e2d\U0001F600&#xE9;&#233;</loc></url>\n" +
		"<url><loc>a&#xD;b&#xA;c</loc></url>\n" +
		"<url><loc>http://example.com/attr</loc><rs:ln rel=\"x\" href=\"line1\nline2\ttab\r\nend&#xA;&#9;x \" type=\"it's\" path='say \"hi\"'/></url>\n" +
		"</urlset>"
	h, es := readAll(t, doc)
	if want := time.Date(2013, 1, 3, 9, 0, 0, 0, time.UTC); !h.MD.At.Equal(want) {
		t.Errorf("at = %v", h.MD.At)
	}
	want := []struct {
		loc  string
		line int
	}{
		{`http://example.com/a?x=1&y=23<>"'`, 4},
		{"http://example.com/b?x=<1>&y=2", 10},
		{"http://example.com/c/d", 11},
		{"http://example.com/\u00e9\u4e2d\U0001F600\u00e9\u00e9", 12},
		{"a\rb\nc", 13},
		{"http://example.com/attr", 14},
	}
	if len(es) != len(want) {
		t.Fatalf("read %d entries, want %d", len(es), len(want))
	}
	for i, w := range want {
		if es[i].Loc != w.loc || es[i].Line != w.line {
			t.Errorf("entry %d: loc %q line %d, want %q line %d", i+1, es[i].Loc, es[i].Line, w.loc, w.line)
		}
	}
	if want := time.Date(2013, 1, 2, 13, 0, 0, 0, time.UTC); !es[0].LastMod.Equal(want) || es[0].ChangeFreq != "daily" {
		t.Errorf("lastmod %v changefreq %q", es[0].LastMod, es[0].ChangeFreq)
	}
	l := es[5].Links[0]
	if l.Href != "line1 line2 tab end\n\tx" || l.Type != "it's" || l.Path != `say "hi"` {
		t.Errorf("attribute values not normalized as XML says: href %q type %q path %q", l.Href, l.Type, l.Path)
	}
}

func TestReaderHeader(t *testing.T) {
	doc := testRoot + "\n" +
		`<rs:ln rel="up" href="http://example.com/caps.xml"/>` +
		`<rs:ln rel="index" href="http://example.com/index.xml" hash="sha-256:` + sha256Hex + `" length="12" modified="2013-01-03" type="application/xml" path="/p" encoding="gzip" pri="3"/>` +
		`<rs:md capability="changedump" from="2013-01-01T00:00:00Z" until="2013-01-02T00:00:00.5Z" completed="2013-01-02T00:00:01Z" datetime="2013-01-02T00:00:02Z" encoding="gzip" path="/x" type="t" length="7" hash="md5:` + md5Hex + `"/>` +
		"\n<url><loc>http://example.com/a</loc><rs:md/></url><url><loc>http://example.com/b</loc></url></urlset>"
	r := NewReader(strings.NewReader(doc), "test.xml", Limits{})
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if h2, _ := r.Header(); h2 != h {
		t.Error("Header is not idempotent")
	}
	md := h.MD
	if md.Capability != CapChangeDump || md.From.IsZero() || md.Until.Nanosecond() != 500_000_000 || md.Completed.IsZero() ||
		md.Datetime.IsZero() || md.Encoding != "gzip" || md.Path != "/x" || md.Type != "t" || !md.HasLength || md.Length != 7 || len(md.Hash) != 1 {
		t.Errorf("header md %+v", md)
	}
	if !h.Closed() || h.IsIndex() {
		t.Errorf("Closed %v IsIndex %v", h.Closed(), h.IsIndex())
	}
	l, ok := h.Link(RelIndex)
	if !ok || l.Pri != 3 || l.Length != 12 || !l.HasLength || l.Type != "application/xml" || l.Path != "/p" || l.Encoding != "gzip" ||
		l.Modified != time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC) || len(l.Hash) != 1 {
		t.Errorf("index link %+v", l)
	}
	a, err := r.Next()
	if err != nil || !a.HasMD || !isZeroMD(&a.MD) {
		t.Fatalf("first entry %+v, %v: want an empty rs:md", a, err)
	}
	b, err := r.Next()
	if err != nil || b.HasMD {
		t.Fatalf("second entry %+v, %v: want no rs:md", b, err)
	}
	if a == b {
		t.Error("entries share a value")
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("Next = %v, want io.EOF", err)
	}
	if r.Count() != 2 {
		t.Errorf("Count = %d", r.Count())
	}
}

func TestReaderNextWithoutHeader(t *testing.T) {
	r := NewReader(strings.NewReader(testHead+testOK+"</urlset>"), "test.xml", Limits{})
	e, err := r.Next()
	if err != nil || e.Loc != "http://example.com/ok" || e.Line != 3 {
		t.Fatalf("Next = %+v, %v", e, err)
	}
	h, err := r.Header()
	if err != nil || h.Capability() != CapResourceList {
		t.Fatalf("Header after Next = %+v, %v", h, err)
	}
}

func TestReadDocumentEmptyList(t *testing.T) {
	d, err := ReadDocument(strings.NewReader(testRoot+`<rs:md capability="x-custom"/></urlset>`), "test.xml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Capability() != "x-custom" || d.Capability().Known() || len(d.Entries) != 0 {
		t.Errorf("document %+v", d)
	}
}

// A malformed hash on a link is kept, not fatal: related resources are not
// fetched by their hash, and one bad link must not make a whole list
// unreadable. The resource's own hash (rs:md) stays strict.
func TestReaderKeepsBadLinkHash(t *testing.T) {
	doc := testHead + `<url><loc>a</loc><rs:ln rel="x" href="y" hash="md5"/></url></urlset>`
	d, err := ReadDocument(strings.NewReader(doc), "t", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	l := d.Entries[0].Links[0]
	if l.BadHash != "md5" || len(l.Hash) != 0 {
		t.Fatalf("link = %+v, want BadHash md5 and no Hash", l)
	}
	var b strings.Builder
	if err := WriteDocument(&b, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `hash="md5"`) {
		t.Errorf("written back without the bad hash:\n%s", b.String())
	}
}
