package resourcesync

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

func TestLimits(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, tc := range []struct {
		name  string
		lim   Limits
		doc   string
		line  int
		entry int
		msg   string
		ok    int
	}{
		{name: "bytes", lim: Limits{MaxBytes: int64(len(testHead + testOK + testOK + "<url><loc>http:"))},
			doc:  testHead + testOK + testOK + testOK + "</urlset>",
			line: 5, entry: 3, msg: "(MaxBytes; the standard allows 50 MB per document)", ok: 2},
		{name: "entries", lim: Limits{MaxEntries: 2}, doc: testHead + testOK + testOK + testOK + "</urlset>",
			line: 5, entry: 3, msg: "more than 2 entries (MaxEntries; the standard allows 50,000 per document)", ok: 2},
		{name: "text", lim: Limits{MaxTokenBytes: 64}, doc: testHead + "<url><loc>http://example.com/" + long + "</loc></url></urlset>",
			line: 3, entry: 1, msg: "text longer than MaxTokenBytes (64 bytes)"},
		{name: "text split by comments", lim: Limits{MaxTokenBytes: 64},
			doc:  testHead + "<url><loc>" + long[:40] + "<!-- -->" + long[:40] + "</loc></url></urlset>",
			line: 3, entry: 1, msg: "text longer than MaxTokenBytes"},
		{name: "text split by elements", lim: Limits{MaxTokenBytes: 64},
			doc:  testHead + "<url><loc>" + long[:40] + "<b/>" + long[:40] + "</loc></url></urlset>",
			line: 3, entry: 1, msg: "text of <loc> longer than MaxTokenBytes"},
		{name: "cdata", lim: Limits{MaxTokenBytes: 64}, doc: testHead + "<url><loc><![CDATA[" + long + "]]></loc></url></urlset>",
			line: 3, entry: 1, msg: "CDATA section longer than MaxTokenBytes"},
		{name: "attribute value", lim: Limits{MaxTokenBytes: 64}, doc: testHead + `<url><loc>a</loc><rs:md type="` + long + `"/></url></urlset>`,
			line: 3, entry: 1, msg: "attribute value longer than MaxTokenBytes"},
		{name: "element name", lim: Limits{MaxTokenBytes: 64}, doc: testHead + "<" + long + "/></urlset>",
			line: 3, msg: "name longer than MaxTokenBytes"},
		{name: "attribute name", lim: Limits{MaxTokenBytes: 64}, doc: testHead + "<a " + long + `="1"/></urlset>`,
			line: 3, msg: "name longer than MaxTokenBytes"},
		{name: "comment", lim: Limits{MaxTokenBytes: 64}, doc: testHead + "<!--" + long + "--></urlset>",
			line: 3, msg: "comment longer than MaxTokenBytes"},
		{name: "processing instruction", lim: Limits{MaxTokenBytes: 64}, doc: testHead + "<?pi " + long + "?></urlset>",
			line: 3, msg: "processing instruction longer than MaxTokenBytes"},
		{name: "space in a tag", lim: Limits{MaxTokenBytes: 64}, doc: testHead + "<url" + strings.Repeat(" ", 100) + "/></urlset>",
			line: 3, msg: "white space longer than MaxTokenBytes"},
		// Runs of space are checked once the buffered part is skipped.
		{name: "space before the root", lim: Limits{MaxTokenBytes: 64}, doc: strings.Repeat("\n", 100) + testHead,
			line: 101, msg: "white space longer than MaxTokenBytes"},
		{name: "depth", lim: Limits{MaxDepth: 5}, doc: testHead + "<url><loc>a</loc><a><b><c>\n<d/></c></b></a></url></urlset>",
			line: 4, entry: 1, msg: "elements nested deeper than MaxDepth (5)"},
		{name: "links in an entry", lim: Limits{MaxLinks: 2},
			doc:  testHead + "<url><loc>a</loc>\n" + strings.Repeat(`<rs:ln rel="duplicate" href="b"/>`+"\n", 3) + "</url></urlset>",
			line: 6, entry: 1, msg: "more than MaxLinks (2) rs:ln in an entry"},
		{name: "links at the top", lim: Limits{MaxLinks: 2},
			doc:  testRoot + "\n" + strings.Repeat(`<rs:ln rel="up" href="b"/>`+"\n", 3) + "</urlset>",
			line: 4, msg: "more than MaxLinks (2) top-level rs:ln"},
		{name: "attributes", lim: Limits{MaxAttrs: 3}, doc: testRoot + "\n" + `<rs:md capability="a" at="2013" b="1" c="2"/></urlset>`,
			line: 2, msg: "more than MaxAttrs (3) attributes on <rs:md>"},
		{name: "declarations are attributes", lim: Limits{MaxAttrs: 1}, doc: testRoot + "</urlset>",
			line: 1, msg: "more than MaxAttrs (1) attributes on <urlset>"},
		{name: "declarations in scope", lim: Limits{MaxAttrs: 3}, doc: testHead + `<a xmlns:a="1">` + "\n" + `<b xmlns:c="3"/></a></urlset>`,
			line: 4, msg: "more than MaxAttrs (3) namespace declarations in scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.doc), "test.xml", tc.lim)
			n := 0
			var err error
			for _, e2 := range r.All() {
				if err = e2; err != nil {
					break
				}
				n++
			}
			checkParseError(t, err, ErrLimit, tc.line, tc.entry, tc.msg)
			if n != tc.ok {
				t.Errorf("read %d entries before the error, want %d", n, tc.ok)
			}
		})
	}
}

func TestLimitsExactlyReached(t *testing.T) {
	loc := "http://example.com/" + strings.Repeat("x", 50) // the longest token
	entry := "<url><loc>" + loc + `</loc><rs:ln rel="a" href="b"/></url>`
	doc := testHead + entry + entry + "</urlset>"
	lim := Limits{MaxBytes: int64(len(doc)), MaxEntries: 2, MaxDepth: 3, MaxLinks: 1, MaxAttrs: 2,
		MaxTokenBytes: len(loc)}
	d, err := ReadDocument(strings.NewReader(doc), "test.xml", lim)
	if err != nil || len(d.Entries) != 2 {
		t.Fatalf("a document at every limit: %v", err)
	}
}

// hostile generates prefix, then filler repeated up to n bytes, then
// suffix, as it is read; it counts what was read from it.
type hostile struct {
	prefix, filler, suffix string
	n, read                int64
	chunk                  []byte
}

func (h *hostile) Read(p []byte) (int, error) {
	var src string
	switch {
	case h.read < int64(len(h.prefix)):
		src = h.prefix[h.read:]
	case h.read < int64(len(h.prefix))+h.n:
		if h.chunk == nil {
			h.chunk = bytes.Repeat([]byte(h.filler), 32<<10/len(h.filler))
		}
		off := (h.read - int64(len(h.prefix))) % int64(len(h.filler))
		left := int64(len(h.prefix)) + h.n - h.read
		c := h.chunk[off:]
		if int64(len(c)) > left {
			c = c[:left]
		}
		n := copy(p, c)
		h.read += int64(n)
		return n, nil
	case h.read < int64(len(h.prefix))+h.n+int64(len(h.suffix)):
		src = h.suffix[h.read-int64(len(h.prefix))-h.n:]
	default:
		return 0, io.EOF
	}
	n := copy(p, src)
	h.read += int64(n)
	return n, nil
}

// TestHostileInputs feeds huge documents generated on the fly: each must
// fail at its limit after reading little of itself, with little memory.
func TestHostileInputs(t *testing.T) {
	const big = 200 << 20
	for _, tc := range []struct {
		name string
		h    hostile
		msg  string
	}{
		{"million-deep nesting", hostile{prefix: testHead, filler: "<a>", n: 3_000_000}, "nested deeper than MaxDepth (64)"},
		{"200 MB text node", hostile{prefix: testHead + "<url><loc>", filler: "abcdefghij", n: big}, "text longer than MaxTokenBytes"},
		{"200 MB attribute", hostile{prefix: testHead + `<url><loc>a</loc><rs:md type="`, filler: "x", n: big}, "attribute value longer than MaxTokenBytes"},
		{"200 MB comment", hostile{prefix: testHead + "<!--", filler: "-x", n: big}, "comment longer than MaxTokenBytes"},
		{"200 MB name", hostile{prefix: testHead + "<a", filler: "b", n: big}, "name longer than MaxTokenBytes"},
		{"200 MB of space in a tag", hostile{prefix: testHead + "<a", filler: " \n", n: big}, "white space longer than MaxTokenBytes"},
		{"200 MB between elements", hostile{prefix: testHead, filler: "\n", n: big}, "text longer than MaxTokenBytes"},
		{"200 MB of entities", hostile{prefix: testHead + "<url><loc>", filler: "&amp;", n: big}, "text longer than MaxTokenBytes"},
		{"million attributes", hostile{prefix: testHead + "<a", filler: " a=''", n: 5_000_000}, "more than MaxAttrs (256)"},
		{"million entries", hostile{prefix: testHead, filler: "<url><loc>x</loc></url>", n: 23 * 1_000_000}, "more than 100000 entries (MaxEntries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.h
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := NewReader(&h, "hostile.xml", Limits{MaxEntries: 100_000})
			var err error
			for _, e2 := range r.All() {
				if err = e2; err != nil {
					break
				}
			}
			runtime.ReadMemStats(&after)
			if !strings.Contains(errString(err), tc.msg) || sentinelName(err) != "ErrLimit" {
				t.Fatalf("error %v, want ErrLimit with %q", err, tc.msg)
			}
			// The limits, not the document, decide how much is read and
			// held: a token limit stops within MaxTokenBytes and a read
			// buffer of the start of the token.
			if tc.name != "million entries" && h.read > 1<<20 {
				t.Errorf("read %d bytes of a %d-byte document before failing", h.read, int64(len(h.prefix))+h.n)
			}
			// TotalAlloc only grows: it bounds how much the heap can have
			// grown while the document was read.
			if alloc := after.TotalAlloc - before.TotalAlloc; tc.name != "million entries" && alloc > 4<<20 {
				t.Errorf("allocated %d bytes, want under 4 MB", alloc)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
