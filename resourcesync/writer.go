package resourcesync

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Writer serialises a document entry by entry, so that fixtures and tools
// can write documents of any size in constant memory. It refuses (with an
// error) values that the Reader would not read back as given: an entry
// without a loc, a link without rel or href, characters XML cannot carry, a
// time outside the years 0000-9999, a negative length, a pri outside
// 1-999999, malformed Extra attribute names. Errors are sticky: the first
// one is returned by every later call. Not safe for concurrent use.
type Writer struct {
	w      *bufio.Writer
	root   Root
	entry  string // "url" or "sitemap"
	err    error
	closed bool
	// Prefixes of the namespaces of Extra attributes. Those of the header
	// are declared on the root element; others are declared on the element
	// that uses them, for that element only.
	extraNS map[string]string
	nextNS  int
}

// NewWriter writes the XML declaration, the root element and the header's
// rs:ln and rs:md, and returns a Writer ready for entries. The header must
// have a root and a capability.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if h.Root != RootURLSet && h.Root != RootSitemapIndex {
		return nil, errors.New("write document: header has no root")
	}
	if h.MD.Capability == "" {
		return nil, errors.New("write document: header has no capability")
	}
	if err := checkMD(&h.MD); err != nil {
		return nil, fmt.Errorf("write document: top-level rs:md: %w", err)
	}
	for i := range h.Links {
		if err := checkLink(&h.Links[i]); err != nil {
			return nil, fmt.Errorf("write document: top-level rs:ln: %w", err)
		}
	}
	wr := &Writer{
		w:       bufio.NewWriterSize(w, 64<<10),
		root:    h.Root,
		entry:   "url",
		extraNS: map[string]string{NamespaceRS: "rs", xmlNamespace: "xml"},
	}
	if h.Root == RootSitemapIndex {
		wr.entry = "sitemap"
	}
	wr.str(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<")
	wr.str(h.Root.String())
	wr.str(` xmlns="` + NamespaceSitemap + `" xmlns:rs="` + NamespaceRS + `"`)
	// Declare the header's extension namespaces on the root: entries may
	// use them too and then need not declare them again.
	for _, as := range append([][]Attr{h.MD.Extra}, linkExtras(h.Links)...) {
		for _, a := range as {
			if _, ok := wr.extraNS[a.Space]; !ok && a.Space != "" {
				wr.declare(a.Space)
			}
		}
	}
	wr.str(">\n")
	for _, l := range h.Links {
		wr.str("  ")
		wr.link(&l)
		wr.str("\n")
	}
	wr.str("  ")
	wr.md(&h.MD)
	wr.str("\n")
	return wr, wr.err
}

func linkExtras(ls []Link) [][]Attr {
	out := make([][]Attr, len(ls))
	for i := range ls {
		out[i] = ls[i].Extra
	}
	return out
}

// Entry writes one <url> or <sitemap>.
func (wr *Writer) Entry(e *Entry) error {
	if wr.err != nil {
		return wr.err
	}
	if wr.closed {
		return errors.New("write document: entry after Close")
	}
	if err := checkEntry(e); err != nil {
		wr.err = fmt.Errorf("write document: entry %q: %w", e.Loc, err)
		return wr.err
	}
	wr.str("  <")
	wr.str(wr.entry)
	wr.str(">\n    <loc>")
	wr.text(e.Loc)
	wr.str("</loc>\n")
	if !e.LastMod.IsZero() {
		wr.str("    <lastmod>")
		wr.str(FormatDatetime(e.LastMod))
		wr.str("</lastmod>\n")
	} else if e.BadLastMod != "" { // kept as given, as it was read
		wr.str("    <lastmod>")
		wr.text(e.BadLastMod)
		wr.str("</lastmod>\n")
	}
	if e.ChangeFreq != "" {
		wr.str("    <changefreq>")
		wr.text(e.ChangeFreq)
		wr.str("</changefreq>\n")
	}
	if e.HasMD || !isZeroMD(&e.MD) {
		wr.str("    ")
		wr.md(&e.MD)
		wr.str("\n")
	}
	for i := range e.Links {
		wr.str("    ")
		wr.link(&e.Links[i])
		wr.str("\n")
	}
	wr.str("  </")
	wr.str(wr.entry)
	wr.str(">\n")
	return wr.err
}

// Close ends the root element and flushes. It does not close the underlying
// io.Writer.
func (wr *Writer) Close() error {
	if wr.closed {
		return wr.err
	}
	wr.closed = true
	wr.str("</" + wr.root.String() + ">\n")
	if wr.err == nil {
		wr.err = wr.w.Flush()
	}
	return wr.err
}

// WriteDocument serialises a whole document. Errors are those of NewWriter
// and Writer.Entry.
func WriteDocument(w io.Writer, d *Document) error {
	wr, err := NewWriter(w, d.Header)
	if err != nil {
		return err
	}
	for i := range d.Entries {
		if err := wr.Entry(&d.Entries[i]); err != nil {
			return err
		}
	}
	return wr.Close()
}

func isZeroMD(m *Metadata) bool {
	return m.Capability == "" && m.Change == "" && len(m.Hash) == 0 && !m.HasLength &&
		m.Type == "" && m.Encoding == "" && m.Path == "" && m.At.IsZero() &&
		m.Completed.IsZero() && m.From.IsZero() && m.Until.IsZero() &&
		m.Datetime.IsZero() && len(m.Extra) == 0
}

func (wr *Writer) md(m *Metadata) {
	wr.str("<rs:md")
	wr.attr("capability", string(m.Capability))
	wr.attr("change", string(m.Change))
	wr.timeAttr("at", m.At)
	wr.timeAttr("completed", m.Completed)
	wr.timeAttr("from", m.From)
	wr.timeAttr("until", m.Until)
	wr.timeAttr("datetime", m.Datetime)
	if m.Hash.Err() != nil {
		wr.attr("hash", m.Hash[0].Hex) // a MalformedFixity: kept as given
	} else if len(m.Hash) > 0 {
		wr.attr("hash", m.Hash.String())
	}
	if m.HasLength {
		wr.attr("length", strconv.FormatInt(m.Length, 10))
	}
	wr.attr("type", m.Type)
	wr.attr("encoding", m.Encoding)
	wr.attr("path", m.Path)
	wr.extra(m.Extra)
	wr.str("/>")
}

func (wr *Writer) link(l *Link) {
	wr.str("<rs:ln")
	wr.attr("rel", l.Rel)
	wr.attr("href", l.Href)
	if l.Pri != 0 {
		wr.attr("pri", strconv.Itoa(l.Pri))
	}
	wr.timeAttr("modified", l.Modified)
	if len(l.Hash) > 0 {
		wr.attr("hash", l.Hash.String())
	} else if l.BadHash != "" {
		wr.attr("hash", l.BadHash)
	}
	if l.HasLength {
		wr.attr("length", strconv.FormatInt(l.Length, 10))
	}
	wr.attr("type", l.Type)
	wr.attr("path", l.Path)
	wr.attr("encoding", l.Encoding)
	wr.extra(l.Extra)
	wr.str("/>")
}

// declare binds a new prefix to ns on the element being written.
func (wr *Writer) declare(ns string) string {
	wr.nextNS++
	p := "x" + strconv.Itoa(wr.nextNS)
	wr.extraNS[ns] = p
	wr.str(" xmlns:" + p + `="`)
	wr.attrText(ns)
	wr.str(`"`)
	return p
}

func (wr *Writer) extra(attrs []Attr) {
	var scoped []string
	for _, a := range attrs {
		name := a.Local
		if a.Space != "" {
			p, ok := wr.extraNS[a.Space]
			if !ok {
				p = wr.declare(a.Space)
				scoped = append(scoped, a.Space)
			}
			name = p + ":" + a.Local
		}
		// Unlike the standard's attributes, an empty Extra value is kept:
		// the Reader gives it back.
		wr.str(" " + name + `="`)
		wr.attrText(a.Value)
		wr.str(`"`)
	}
	for _, ns := range scoped { // the binding ends with this element
		delete(wr.extraNS, ns)
		wr.nextNS--
	}
}

func (wr *Writer) timeAttr(name string, t time.Time) {
	if !t.IsZero() {
		wr.attr(name, FormatDatetime(t))
	}
}

func (wr *Writer) attr(name, value string) {
	if value == "" {
		return
	}
	wr.str(" " + name + `="`)
	wr.attrText(value)
	wr.str(`"`)
}

func (wr *Writer) str(s string) {
	if wr.err == nil {
		_, wr.err = wr.w.WriteString(s)
	}
}

// Escaping: "\r" must be a reference even in text, or a reader turns it
// into "\n"; in attributes tab and line feed must be too, or a reader turns
// them into spaces.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
	"\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")

func (wr *Writer) text(s string) {
	if wr.err == nil {
		_, wr.err = textEscaper.WriteString(wr.w, s)
	}
}

func (wr *Writer) attrText(s string) {
	if wr.err == nil {
		_, wr.err = attrEscaper.WriteString(wr.w, s)
	}
}
