package resourcesync

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// richDocument uses every field, characters that need escaping, and Extra
// attributes in several namespaces.
func richDocument() *Document {
	t1 := time.Date(2013, 1, 3, 9, 0, 0, 0, time.UTC)
	t2 := time.Date(2013, 1, 3, 9, 1, 0, 250_000_000, time.UTC)
	md5f, _ := ParseHash("md5:" + md5Hex + " sha-256:" + sha256Hex + " x-alg:Opaque+/=")
	return &Document{
		Header: Header{
			Root: RootURLSet,
			MD: Metadata{Capability: CapChangeList, From: t1, Until: t2,
				Extra: []Attr{{Space: "urn:ext", Local: "level", Value: "2"}, {Local: "note", Value: `a "quoted" <note> & more`}}},
			Links: []Link{{Rel: RelUp, Href: "http://example.com/caps.xml?a=1&b=2"},
				{Rel: RelIndex, Href: "http://example.com/index.xml", Extra: []Attr{{Space: "urn:ext", Local: "q", Value: ""}}}},
		},
		Entries: []Entry{
			{
				Loc: "http://example.com/res?x=1&y=<2>\"'\ttab\r\nline", LastMod: t2, ChangeFreq: "daily", HasMD: true,
				MD: Metadata{Change: ChangeUpdated, Hash: md5f, Length: 8876, HasLength: true, Type: "text/html",
					Encoding: "gzip", Path: "/changes/res 1.html", Datetime: t2,
					Extra: []Attr{{Space: "urn:other", Local: "a", Value: "tab\there\nnewline\rcr"},
						{Space: xmlNamespace, Local: "lang", Value: "en"}, {Space: NamespaceRS, Local: "future", Value: "1"},
						{Space: NamespaceSitemap, Local: "odd", Value: "2"}}},
				Links: []Link{
					{Rel: RelDuplicate, Href: "http://mirror.example.com/res", Pri: 1, Modified: t1, Hash: md5f[:1],
						Length: 0, HasLength: true, Type: "text/html", Path: "/p", Encoding: "br",
						Extra: []Attr{{Space: "urn:other", Local: "b", Value: "\u00e9\U0001F600"}}},
					{Rel: "http://example.com/rels/custom", Href: "http://example.com/c"},
				},
			},
			{Loc: "http://example.com/plain", HasMD: true}, // an empty rs:md is kept
			{Loc: "http://example.com/other", MD: Metadata{Extra: []Attr{{Space: "urn:other", Local: "c", Value: "again"}}}},
		},
	}
}

func TestWriterRoundTrip(t *testing.T) {
	d := richDocument()
	var out bytes.Buffer
	if err := WriteDocument(&out, d); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "writer", "rich.xml"), out.Bytes())
	back, err := ReadDocument(bytes.NewReader(out.Bytes()), "rich.xml", Limits{})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	// The third entry had Extra but no rs:md: writing it gave it one.
	d.Entries[2].HasMD = true
	if got, want := dump(t, back, nil, false), dump(t, d, nil, false); !bytes.Equal(got, want) {
		t.Errorf("read back differs:\n--- got\n%s\n--- want\n%s", got, want)
	}
}

func TestWriterIndex(t *testing.T) {
	at := time.Date(2013, 1, 3, 9, 0, 0, 0, time.UTC)
	d := &Document{
		Header: Header{Root: RootSitemapIndex, MD: Metadata{Capability: CapResourceList, At: at}},
		Entries: []Entry{
			{Loc: "http://example.com/resourcelist1.xml", HasMD: true, MD: Metadata{At: at}},
			{Loc: "http://example.com/resourcelist2.xml", LastMod: at},
		},
	}
	var out bytes.Buffer
	if err := WriteDocument(&out, d); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "<sitemapindex ") || strings.Count(s, "<sitemap>") != 2 || strings.Contains(s, "<url>") {
		t.Errorf("index written as\n%s", s)
	}
	back, err := ReadDocument(&out, "index.xml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !back.IsIndex() || len(back.Entries) != 2 {
		t.Errorf("read back %+v", back)
	}
	if got, want := dump(t, back, nil, false), dump(t, d, nil, false); !bytes.Equal(got, want) {
		t.Errorf("read back differs:\n--- got\n%s\n--- want\n%s", got, want)
	}
}

func TestWriterStreams(t *testing.T) {
	var out bytes.Buffer
	w, err := NewWriter(&out, Header{Root: RootURLSet, MD: Metadata{Capability: CapResourceList}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if err := w.Entry(&Entry{Loc: "http://example.com/r" + string(rune('a'+i%26))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if err := w.Entry(&Entry{Loc: "x"}); err == nil {
		t.Error("Entry after Close succeeded")
	}
	d, err := ReadDocument(&out, "streamed.xml", Limits{})
	if err != nil || len(d.Entries) != 1000 {
		t.Fatalf("read back %v", err)
	}
}

func TestWriterRefuses(t *testing.T) {
	bad := []struct {
		name string
		e    Entry
		msg  string
	}{
		{"no loc", Entry{}, "no loc"},
		{"loc with space around", Entry{Loc: " http://example.com/"}, "white space around it"},
		{"invalid UTF-8", Entry{Loc: "http://example.com/\xff"}, "invalid UTF-8"},
		{"control character", Entry{Loc: "http://example.com/\x00"}, "character U+0000 cannot be written"},
		{"year 10000", Entry{Loc: "a", LastMod: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, "four-digit year"},
		{"negative length", Entry{Loc: "a", MD: Metadata{Length: -1, HasLength: true}}, "negative length"},
		{"upper-case hex", Entry{Loc: "a", MD: Metadata{Hash: Fixity{{AlgMD5, strings.ToUpper(md5Hex)}}}}, "would read back as"},
		{"short digest", Entry{Loc: "a", MD: Metadata{Hash: Fixity{{AlgMD5, "abc"}}}}, "bad hash"},
		{"space in a digest", Entry{Loc: "a", MD: Metadata{Hash: Fixity{{"x", "a b"}}}}, "bad hash"},
		{"upper-case algorithm", Entry{Loc: "a", MD: Metadata{Hash: Fixity{{"X", "ab"}}}}, "would read back as"},
		{"link without rel", Entry{Loc: "a", Links: []Link{{Href: "b"}}}, "no rel"},
		{"link without href", Entry{Loc: "a", Links: []Link{{Rel: "b"}}}, "no href"},
		{"pri", Entry{Loc: "a", Links: []Link{{Rel: "b", Href: "c", Pri: 1000000}}}, "pri 1000000 outside"},
		{"extra with a colon", Entry{Loc: "a", MD: Metadata{Extra: []Attr{{Space: "urn:x", Local: "p:q"}}}}, "not an XML name"},
		{"extra shadowing", Entry{Loc: "a", MD: Metadata{Extra: []Attr{{Local: "hash", Value: "x"}}}}, "attribute the standard defines"},
		{"extra shadowing on a link", Entry{Loc: "a", Links: []Link{{Rel: "r", Href: "h", Extra: []Attr{{Local: "pri", Value: "x"}}}}}, "attribute the standard defines"},
		{"extra xmlns", Entry{Loc: "a", MD: Metadata{Extra: []Attr{{Local: "xmlns", Value: "urn:x"}}}}, "not attributes"},
		{"extra in xmlns namespace", Entry{Loc: "a", MD: Metadata{Extra: []Attr{{Space: xmlnsNamespace, Local: "p", Value: "urn:x"}}}}, "not attributes"},
		{"extra twice", Entry{Loc: "a", MD: Metadata{Extra: []Attr{{Space: "urn:x", Local: "p"}, {Space: "urn:x", Local: "p"}}}}, "given twice"},
	}
	for _, tc := range bad {
		var out bytes.Buffer
		w, err := NewWriter(&out, Header{Root: RootURLSet, MD: Metadata{Capability: CapResourceList}})
		if err != nil {
			t.Fatal(err)
		}
		err = w.Entry(&tc.e)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Entry = %v, want an error with %q", tc.name, err, tc.msg)
			continue
		}
		if err2 := w.Close(); err2 != err {
			t.Errorf("%s: Close after an error = %v, want the same error", tc.name, err2)
		}
	}
	for _, h := range []Header{
		{MD: Metadata{Capability: CapResourceList}},
		{Root: RootURLSet},
		{Root: RootURLSet, MD: Metadata{Capability: "two words "}},
		{Root: RootURLSet, MD: Metadata{Capability: CapResourceList}, Links: []Link{{Rel: "up"}}},
	} {
		if _, err := NewWriter(&bytes.Buffer{}, h); err == nil {
			t.Errorf("NewWriter(%+v) succeeded", h)
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterWriteError(t *testing.T) {
	w, err := NewWriter(failWriter{}, Header{Root: RootURLSet, MD: Metadata{Capability: CapResourceList}})
	if err != nil {
		t.Fatal(err) // buffered: nothing reached the writer yet
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close = %v, want the write error", err)
	}
}
