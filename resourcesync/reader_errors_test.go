package resourcesync

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// Lines 1 and 2 of the documents below: the root and its rs:md.
const (
	testRoot = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">`
	testHead = testRoot + "\n" + `<rs:md capability="resourcelist" at="2013-01-03T09:00:00Z"/>` + "\n"
	testOK   = "<url><loc>http://example.com/ok</loc></url>\n"
)

// lines joins its arguments as lines.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// readerErrorCases are documents the Reader rejects: the sentinel, the line
// and entry of the error, and part of its message. ok is how many entries
// are read before the error.
var readerErrorCases = []struct {
	name  string
	doc   string
	kind  error
	line  int
	entry int
	msg   string
	ok    int
}{
	// Not XML, or not XML this package reads.
	{name: "empty", doc: "", kind: ErrSyntax, line: 1, msg: "not XML: the document is empty"},
	{name: "json", doc: `{"urlset": []}`, kind: ErrSyntax, line: 1, msg: `not XML: the document starts with "{\"urlset\": []}"`},
	{name: "encoding", doc: `<?xml version="1.0" encoding="ISO-8859-1"?>` + "\n" + testHead, kind: ErrSyntax, line: 1, msg: `unsupported encoding "ISO-8859-1"`},
	{name: "utf16", doc: "\xff\xfe<\x00", kind: ErrSyntax, line: 1, msg: "unsupported encoding UTF-16"},
	{name: "version", doc: `<?xml version="2.0"?><urlset/>`, kind: ErrSyntax, line: 1, msg: `unsupported XML version "2.0"`},
	{name: "decl late", doc: "\n<?xml version=\"1.0\"?>" + testHead, kind: ErrSyntax, line: 2, msg: "XML declaration not at the start"},
	{name: "no root", doc: `<?xml version="1.0"?>` + "\n<!-- nothing -->\n", kind: ErrSyntax, line: 3, msg: "no root element"},
	{name: "text before root", doc: `<?xml version="1.0"?>` + "\nhello" + testHead, kind: ErrSyntax, line: 2, msg: "text before the root element"},
	{name: "doctype", doc: "<!DOCTYPE html>\n<html/>", kind: ErrSyntax, line: 1, msg: "DOCTYPE html: DTDs are not accepted"},
	{name: "doctype in content", doc: testHead + "<!DOCTYPE urlset>\n", kind: ErrSyntax, line: 3, msg: "DTDs are not accepted"},
	{name: "billion laughs", doc: lines(`<?xml version="1.0"?>`, `<!DOCTYPE lolz [`, ` <!ENTITY lol "lol">`,
		` <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">`, `]>`, testHead+`<url><loc>&lol2;</loc></url></urlset>`),
		kind: ErrSyntax, line: 2, msg: "DOCTYPE lolz: DTDs are not accepted"},
	{name: "external entity", doc: `<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` + testHead + "<url><loc>&xxe;</loc></url></urlset>",
		kind: ErrSyntax, line: 1, msg: "DTDs are not accepted"},
	{name: "undefined entity", doc: testHead + "<url><loc>http://example.com/&nbsp;</loc></url></urlset>", kind: ErrSyntax, line: 3, entry: 1, msg: "undefined entity &nbsp;"},
	{name: "bare ampersand", doc: testHead + "<url><loc>http://example.com/?a=1&b=2</loc></url></urlset>", kind: ErrSyntax, line: 3, entry: 1, msg: "'&' not followed by a reference"},
	{name: "nul reference", doc: testHead + "<url><loc>http://example.com/&#0;</loc></url></urlset>", kind: ErrSyntax, line: 3, entry: 1, msg: "bad character reference &#0;"},
	{name: "surrogate reference", doc: testHead + "<url><loc>&#xD800;</loc></url></urlset>", kind: ErrSyntax, line: 3, entry: 1, msg: "bad character reference"},
	{name: "huge reference", doc: testHead + "<url><loc>&#x110000;</loc></url></urlset>", kind: ErrSyntax, line: 3, entry: 1, msg: "bad character reference"},
	{name: "control character", doc: testHead + "<url><loc>http://example.com/\x01</loc></url></urlset>", kind: ErrSyntax, line: 3, entry: 1, msg: "character U+0001 is not allowed"},
	{name: "invalid utf8", doc: testHead + testOK + "<url><loc>http://example.com/\xff</loc></url></urlset>", kind: ErrSyntax, line: 4, entry: 2, msg: "invalid UTF-8", ok: 1},
	{name: "invalid utf8 in name", doc: testHead + "<url\xff/></urlset>", kind: ErrSyntax, line: 3, msg: "invalid UTF-8"},
	{name: "cdata end in text", doc: testHead + "<url><loc>a]]>b</loc></url></urlset>", kind: ErrSyntax, line: 3, entry: 1, msg: "']]>' in text"},
	// Malformed markup.
	{name: "mismatched tag", doc: testHead + "<url>\n<loc>http://example.com/</lo>\n</url></urlset>", kind: ErrSyntax, line: 4, entry: 1, msg: "end tag </lo> does not match <loc>"},
	{name: "unclosed", doc: testHead + testOK + "<url><loc>http://example.com/x</loc>\n", kind: ErrSyntax, line: 5, entry: 2, msg: "<url> is not closed", ok: 1},
	{name: "unclosed root", doc: testHead + testOK, kind: ErrSyntax, line: 4, msg: "<urlset> is not closed", ok: 1},
	{name: "unquoted attribute", doc: testRoot + "\n<rs:md capability=resourcelist/>" + testOK + "</urlset>", kind: ErrSyntax, line: 2, msg: "value of attribute capability of <rs:md> is not in quotes"},
	{name: "attribute without value", doc: testRoot + "\n<rs:md capability/>", kind: ErrSyntax, line: 2, msg: "attribute capability of <rs:md> has no value"},
	{name: "no space between attributes", doc: testRoot + "\n<rs:md capability=\"a\"at=\"b\"/>", kind: ErrSyntax, line: 2, msg: "unexpected 'a' in the tag <rs:md>"},
	{name: "duplicate attribute", doc: testRoot + "\n<rs:md capability=\"a\" capability=\"b\"/>", kind: ErrSyntax, line: 2, msg: "attribute capability given twice on <rs:md>"},
	{name: "duplicate expanded name", doc: testRoot + "\n<rs:md xmlns:a=\"urn:x\" xmlns:b=\"urn:x\" a:n=\"1\" b:n=\"2\" capability=\"a\"/>", kind: ErrSyntax, line: 2, msg: "attribute b:n given twice"},
	{name: "lt in attribute", doc: testRoot + "\n<rs:md capability=\"a<b\"/>", kind: ErrSyntax, line: 2, msg: "'<' in an attribute value"},
	{name: "unbound prefix", doc: testHead + "<foo:bar/></urlset>", kind: ErrSyntax, line: 3, msg: "namespace prefix foo of <foo:bar> is not declared"},
	{name: "unbound attribute prefix", doc: testRoot + "\n<rs:md foo:x=\"1\" capability=\"a\"/>", kind: ErrSyntax, line: 2, msg: "namespace prefix foo of attribute foo:x is not declared"},
	{name: "xmlns prefix declared", doc: `<urlset xmlns:xmlns="urn:x"/>`, kind: ErrSyntax, line: 1, msg: "the prefix xmlns cannot be declared"},
	{name: "xml namespace rebound", doc: `<urlset xmlns:x="http://www.w3.org/XML/1998/namespace"/>`, kind: ErrSyntax, line: 1, msg: "cannot be declared"},
	{name: "prefix undeclared", doc: testHead + `<url xmlns:rs=""/>`, kind: ErrSyntax, line: 3, msg: "the prefix rs cannot be undeclared"},
	{name: "bad name", doc: testHead + "<1url/></urlset>", kind: ErrSyntax, line: 3, msg: `"1url" is not a name: it cannot start with '1'`},
	{name: "two colons", doc: testHead + "<a:b:c/></urlset>", kind: ErrSyntax, line: 3, msg: `"a:b:c" is not a name of the form prefix:local`},
	{name: "content after root", doc: testHead + "</urlset>\n<urlset/>", kind: ErrSyntax, line: 4, msg: "content after the root element"},
	{name: "text after root", doc: testHead + "</urlset>\njunk", kind: ErrSyntax, line: 4, msg: "text after the root element"},
	{name: "unknown markup", doc: testHead + "<!ELEMENT x ANY></urlset>", kind: ErrSyntax, line: 3, msg: "unknown markup after '<!'"},
	{name: "unclosed comment", doc: testHead + "<!-- forever", kind: ErrSyntax, line: 3, msg: "unexpected end of document in a comment"},
	// The root.
	{name: "html", doc: "<html>\n<body/></html>", kind: ErrRoot, line: 1, msg: "wrong root <html> (in no namespace"},
	{name: "urlset without namespace", doc: "<urlset><url><loc>x</loc></url></urlset>", kind: ErrRoot, line: 1, msg: "wrong root <urlset> (in no namespace"},
	{name: "root in other namespace", doc: `<feed xmlns="http://www.w3.org/2005/Atom"/>`, kind: ErrRoot, line: 1, msg: `wrong root <feed> in namespace "http://www.w3.org/2005/Atom"`},
	{name: "sitemap in urlset", doc: testHead + testOK + "<sitemap><loc>x</loc></sitemap></urlset>", kind: ErrRoot, line: 4, entry: 2, msg: "<sitemap> entry in a <urlset> document", ok: 1},
	{name: "url in sitemapindex", doc: strings.Replace(testHead, "urlset", "sitemapindex", 1) + testOK + "</sitemapindex>", kind: ErrRoot, line: 3, entry: 1, msg: "<url> entry in a <sitemapindex> document"},
	// The capability.
	{name: "no md", doc: testRoot + "\n<rs:ln rel=\"up\" href=\"http://example.com/\"/>\n" + testOK + "</urlset>", kind: ErrNoCapability, line: 3, msg: "no top-level rs:md"},
	{name: "no md no entries", doc: testRoot + "\n</urlset>", kind: ErrNoCapability, line: 2, msg: "no top-level rs:md"},
	{name: "md without capability", doc: testRoot + "\n<rs:md at=\"2013-01-03T09:00:00Z\"/>\n" + testOK + "</urlset>", kind: ErrNoCapability, line: 3, msg: "the top-level rs:md has no capability attribute"},
	// Entries.
	{name: "no loc", doc: testHead + testOK + "<url>\n<lastmod>2013-01-01</lastmod>\n</url></urlset>", kind: ErrNoLoc, line: 4, entry: 2, msg: "entry without <loc>", ok: 1},
	{name: "empty loc", doc: testHead + "<url><loc> \n </loc></url></urlset>", kind: ErrNoLoc, line: 3, entry: 1, msg: "entry with an empty <loc>"},
	{name: "two locs", doc: testHead + "<url><loc>a</loc>\n<loc>b</loc></url></urlset>", kind: ErrNoLoc, line: 4, entry: 1, msg: "more than one <loc>"},
	{name: "two lastmods", doc: testHead + "<url><loc>a</loc><lastmod>2013</lastmod><lastmod>2014</lastmod></url></urlset>", kind: ErrDatetime, line: 3, entry: 1, msg: "more than one <lastmod>"},
	{name: "bad at", doc: testRoot + "\n<rs:md capability=\"resourcelist\" at=\"yesterday\"/>", kind: ErrDatetime, line: 2, msg: `at attribute: bad datetime "yesterday"`},
	{name: "bad from", doc: testHead + "<url><loc>a</loc><rs:md from=\"2013-01-01T00:00\"/></url></urlset>", kind: ErrDatetime, line: 3, entry: 1, msg: "from attribute: bad datetime"},
	{name: "bad modified", doc: testHead + "<url><loc>a</loc>\n<rs:ln rel=\"x\" href=\"y\" modified=\"2013-02-30\"/></url></urlset>", kind: ErrDatetime, line: 4, entry: 1, msg: "modified attribute: bad datetime \"2013-02-30\": day out of range"},
	{name: "bad datetime attribute", doc: testHead + "<url><loc>a</loc><rs:md datetime=\"2013-01-01T25:00:00Z\"/></url></urlset>", kind: ErrDatetime, line: 3, entry: 1, msg: "hour out of range"},
	{name: "negative length", doc: testHead + "<url><loc>a</loc>\n<rs:md length=\"-1\"/></url></urlset>", kind: ErrLength, line: 4, entry: 1, msg: `bad length "-1": not a non-negative decimal integer`},
	{name: "fractional length", doc: testHead + "<url><loc>a</loc><rs:md length=\"1.5\"/></url></urlset>", kind: ErrLength, line: 3, entry: 1, msg: `bad length "1.5"`},
	{name: "overflowing length", doc: testHead + "<url><loc>a</loc><rs:md length=\"9223372036854775808\"/></url></urlset>", kind: ErrLength, line: 3, entry: 1, msg: "bad length"},
	{name: "empty length", doc: testHead + "<url><loc>a</loc><rs:md length=\"\"/></url></urlset>", kind: ErrLength, line: 3, entry: 1, msg: `bad length ""`},
	{name: "link length", doc: testHead + "<url><loc>a</loc><rs:ln rel=\"x\" href=\"y\" length=\"ten\"/></url></urlset>", kind: ErrLength, line: 3, entry: 1, msg: `bad length "ten"`},
	{name: "two md in entry", doc: testHead + "<url><loc>a</loc><rs:md change=\"created\"/>\n<rs:md change=\"deleted\"/></url></urlset>", kind: ErrAttribute, line: 4, entry: 1, msg: "more than one rs:md in an entry"},
	{name: "two top-level md", doc: testHead + "<rs:md capability=\"changelist\"/></urlset>", kind: ErrAttribute, line: 3, msg: "more than one top-level rs:md"},
	{name: "md after entry", doc: testHead + testOK + "<rs:md capability=\"changelist\"/></urlset>", kind: ErrAttribute, line: 4, msg: "top-level rs:md after the first entry", ok: 1},
	{name: "ln after entry", doc: testHead + testOK + testOK + "<rs:ln rel=\"up\" href=\"x\"/></urlset>", kind: ErrAttribute, line: 5, msg: "top-level rs:ln after the first entry", ok: 2},
	{name: "pri zero", doc: testHead + "<url><loc>a</loc><rs:ln rel=\"duplicate\" href=\"b\" pri=\"0\"/></url></urlset>", kind: ErrAttribute, line: 3, entry: 1, msg: `bad pri "0": not an integer from 1 to 999999`},
	{name: "pri too big", doc: testHead + "<url><loc>a</loc><rs:ln rel=\"duplicate\" href=\"b\" pri=\"1000000\"/></url></urlset>", kind: ErrAttribute, line: 3, entry: 1, msg: `bad pri "1000000"`},
	{name: "pri not a number", doc: testHead + "<url><loc>a</loc><rs:ln rel=\"duplicate\" href=\"b\" pri=\"high\"/></url></urlset>", kind: ErrAttribute, line: 3, entry: 1, msg: `bad pri "high"`},
	{name: "empty change", doc: testHead + "<url><loc>a</loc><rs:md change=\" \"/></url></urlset>", kind: ErrAttribute, line: 3, entry: 1, msg: "empty change attribute"},
	{name: "empty capability", doc: testRoot + "\n<rs:md capability=\"\"/></urlset>", kind: ErrAttribute, line: 2, msg: "empty capability attribute"},
	{name: "link without href", doc: testHead + "<url><loc>a</loc><rs:ln rel=\"duplicate\"/></url></urlset>", kind: ErrAttribute, line: 3, entry: 1, msg: "rs:ln without href"},
	{name: "link without rel", doc: testRoot + "\n<rs:ln href=\"x\"/>", kind: ErrAttribute, line: 2, msg: "rs:ln without rel"},
	{name: "two changefreq", doc: testHead + "<url><loc>a</loc><changefreq>daily</changefreq><changefreq>hourly</changefreq></url></urlset>", kind: ErrAttribute, line: 3, entry: 1, msg: "more than one <changefreq>"},
}

func TestReaderErrors(t *testing.T) {
	for _, tc := range readerErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.doc), "http://example.com/list.xml", Limits{})
			var err error
			n := 0
			for e, e2 := range r.All() {
				if e2 != nil {
					err = e2
					break
				}
				if e == nil {
					t.Fatal("nil entry without an error")
				}
				n++
			}
			checkParseError(t, err, tc.kind, tc.line, tc.entry, tc.msg)
			if n != tc.ok || r.Count() != int64(tc.ok) {
				t.Errorf("read %d entries (Count %d) before the error, want %d", n, r.Count(), tc.ok)
			}
			// Errors are sticky.
			if _, again := r.Next(); again != err {
				t.Errorf("Next after the error = %v, want the same error", again)
			}
		})
	}
}

func checkParseError(t *testing.T, err error, kind error, line, entry int, msg string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T), want a *ParseError", err, err)
	}
	if !errors.Is(err, kind) {
		t.Errorf("error %q is %s, want %s", err, sentinelName(err), sentinelName(kind))
	}
	if pe.Line != line || pe.Entry != entry {
		t.Errorf("error %q at line %d entry %d, want line %d entry %d", err, pe.Line, pe.Entry, line, entry)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Errorf("error %q does not say %q", err, msg)
	}
	if pe.Doc != "http://example.com/list.xml" && pe.Doc != "test.xml" {
		t.Errorf("error names document %q", pe.Doc)
	}
}

// errReader fails with err after giving data.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := NewReader(&errReader{data: []byte(testHead + testOK + "<url><loc>x"), err: boom}, "http://example.com/list.xml", Limits{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Next()
	var pe *ParseError
	if !errors.Is(err, boom) || !errors.As(err, &pe) || pe.Line != 4 || pe.Entry != 2 {
		t.Fatalf("Next = %v, want a *ParseError at line 4, entry 2 wrapping the read error", err)
	}
	if errors.Is(err, ErrSyntax) {
		t.Errorf("a read error is not a syntax error: %v", err)
	}
}

func TestReaderAllYieldsErrorOnce(t *testing.T) {
	r := NewReader(strings.NewReader(testHead+testOK+"<url></url>"+testOK+"</urlset>"), "test.xml", Limits{})
	var entries, errs int
	for e, err := range r.All() {
		if err != nil {
			errs++
			checkParseError(t, err, ErrNoLoc, 4, 2, "entry without <loc>")
			continue
		}
		if e != nil {
			entries++
		}
	}
	if entries != 1 || errs != 1 {
		t.Errorf("All yielded %d entries and %d errors, want 1 and 1", entries, errs)
	}
	// A broken loop stops the iteration.
	r = NewReader(strings.NewReader(testHead+testOK+testOK+"</urlset>"), "test.xml", Limits{})
	for range r.All() {
		break
	}
	if r.Count() != 1 {
		t.Errorf("Count after break = %d, want 1", r.Count())
	}
}

func TestReaderHeaderErrorIsSticky(t *testing.T) {
	r := NewReader(strings.NewReader("<html/>"), "test.xml", Limits{})
	_, err1 := r.Header()
	_, err2 := r.Next()
	_, err3 := r.Header()
	if err1 == nil || err1 != err2 || err2 != err3 {
		t.Fatalf("Header, Next, Header = %v, %v, %v; want one error", err1, err2, err3)
	}
	if _, err := ReadDocument(bytes.NewReader(nil), "test.xml", Limits{}); !errors.Is(err, ErrSyntax) {
		t.Errorf("ReadDocument(empty) = %v", err)
	}
	if _, err := ReadDocument(strings.NewReader(testHead+"<url/></urlset>"), "test.xml", Limits{}); !errors.Is(err, ErrNoLoc) {
		t.Errorf("ReadDocument(no loc) = %v", err)
	}
	r = NewReader(strings.NewReader(testHead+"</urlset>"), "test.xml", Limits{})
	for range 2 {
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("Next = %v, want io.EOF", err)
		}
	}
}

// TestEntryProblemsStayInTheirEntry is issue 22, items 7 and 11 in the
// parser: a lastmod that is not a W3C datetime, a hash attribute with no
// digest or an algorithm given twice with two digests, are problems of
// their entry - kept on it (BadLastMod, a MalformedFixity) - while the
// entries around them, and the rest of the document, read as usual. A top
// level at or a bad length still fail the document (TestReaderErrors).
func TestEntryProblemsStayInTheirEntry(t *testing.T) {
	doc := testHead + testOK +
		"<url><loc>http://example.com/lm</loc><lastmod>yesterday</lastmod><rs:md length=\"3\"/></url>\n" +
		"<url><loc>http://example.com/h1</loc><lastmod>2013-01-01</lastmod><rs:md hash=\"md5:\" length=\"3\"/></url>\n" +
		"<url><loc>http://example.com/h2</loc><rs:md hash=\"md5:" + md5Hex + " md5:" + strings.Repeat("0", 32) + "\"/></url>\n" +
		"<url><loc>http://example.com/leap</loc><lastmod>2016-12-31t23:59:60z</lastmod></url>\n" +
		testOK + "</urlset>"
	es, err := ReadDocument(strings.NewReader(doc), "http://example.com/list.xml", Limits{})
	if err != nil {
		t.Fatalf("one entry's problem failed the document: %v", err)
	}
	if len(es.Entries) != 6 {
		t.Fatalf("%d entries, want 6", len(es.Entries))
	}
	lm, h1, h2, leap := es.Entries[1], es.Entries[2], es.Entries[3], es.Entries[4]
	if lm.BadLastMod != "yesterday" || !lm.LastMod.IsZero() || !lm.MD.HasLength || lm.MD.Length != 3 {
		t.Errorf("bad lastmod entry: %+v", lm)
	}
	if h1.MD.Hash.Err() == nil || h1.LastMod.IsZero() || h1.MD.Length != 3 || h1.BadLastMod != "" {
		t.Errorf("md5: entry: %+v", h1)
	}
	if err := h2.MD.Hash.Err(); err == nil || !strings.Contains(err.Error(), "given twice, with different digests") {
		t.Errorf("twice entry: %v", err)
	}
	if leap.LastMod.Format(time.RFC3339Nano) != "2016-12-31T23:59:59.999999999Z" {
		t.Errorf("leap second lastmod = %v", leap.LastMod)
	}
	if es.Entries[0].BadLastMod != "" || es.Entries[5].MD.Hash.Err() != nil {
		t.Errorf("good entries carry problems: %+v %+v", es.Entries[0], es.Entries[5])
	}
}
