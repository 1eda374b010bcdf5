package resourcesync

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// Writer serialises a document entry by entry, so that fixtures and tools
// can write documents of any size in constant memory. Errors are sticky: the
// first one is returned by every later call. Not safe for concurrent use.
type Writer struct {
	w      *bufio.Writer
	root   Root
	err    error
	closed bool
	// prefixes of namespaces used by Extra attributes, assigned on the fly
	// and declared on the root element.
	extraNS map[string]string
}

// NewWriter writes the XML declaration, the root element and the header's
// rs:ln and rs:md, and returns a Writer ready for entries.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if h.Root != RootURLSet && h.Root != RootSitemapIndex {
		return nil, errors.New("write document: header has no root")
	}
	wr := &Writer{w: bufio.NewWriterSize(w, 64<<10), root: h.Root, extraNS: map[string]string{}}
	wr.str(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<")
	wr.str(h.Root.String())
	wr.str(` xmlns="` + NamespaceSitemap + `" xmlns:rs="` + NamespaceRS + `"`)
	// Declare extension namespaces up front: entries may use them too, but
	// only those in the header are known here; entries declare their own.
	wr.declareExtra(h.MD.Extra, h.Links)
	wr.str(">\n")
	for _, l := range h.Links {
		wr.str("  ")
		wr.link(l)
		wr.str("\n")
	}
	wr.str("  ")
	wr.md(h.MD)
	wr.str("\n")
	return wr, wr.err
}

// Entry writes one <url> or <sitemap>.
func (wr *Writer) Entry(e *Entry) error {
	if wr.err != nil {
		return wr.err
	}
	if wr.closed {
		return errors.New("write document: entry after Close")
	}
	el := "url"
	if wr.root == RootSitemapIndex {
		el = "sitemap"
	}
	wr.str("  <" + el + ">\n    <loc>")
	wr.text(e.Loc)
	wr.str("</loc>\n")
	if !e.LastMod.IsZero() {
		wr.str("    <lastmod>" + FormatDatetime(e.LastMod) + "</lastmod>\n")
	}
	if e.ChangeFreq != "" {
		wr.str("    <changefreq>")
		wr.text(e.ChangeFreq)
		wr.str("</changefreq>\n")
	}
	if e.HasMD || !isZeroMD(&e.MD) {
		wr.str("    ")
		wr.md(e.MD)
		wr.str("\n")
	}
	for _, l := range e.Links {
		wr.str("    ")
		wr.link(l)
		wr.str("\n")
	}
	wr.str("  </" + el + ">\n")
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

// WriteDocument serialises a whole document.
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

func (wr *Writer) md(m Metadata) {
	wr.str("<rs:md")
	wr.attr("capability", string(m.Capability))
	wr.attr("change", string(m.Change))
	wr.timeAttr("at", m.At)
	wr.timeAttr("completed", m.Completed)
	wr.timeAttr("from", m.From)
	wr.timeAttr("until", m.Until)
	wr.timeAttr("datetime", m.Datetime)
	wr.attr("hash", m.Hash.String())
	if m.HasLength {
		wr.attr("length", strconv.FormatInt(m.Length, 10))
	}
	wr.attr("type", m.Type)
	wr.attr("encoding", m.Encoding)
	wr.attr("path", m.Path)
	wr.extra(m.Extra)
	wr.str("/>")
}

func (wr *Writer) link(l Link) {
	wr.str("<rs:ln")
	wr.attr("rel", l.Rel)
	wr.attr("href", l.Href)
	if l.Pri != 0 {
		wr.attr("pri", strconv.Itoa(l.Pri))
	}
	wr.timeAttr("modified", l.Modified)
	wr.attr("hash", l.Hash.String())
	if l.HasLength {
		wr.attr("length", strconv.FormatInt(l.Length, 10))
	}
	wr.attr("type", l.Type)
	wr.attr("path", l.Path)
	wr.attr("encoding", l.Encoding)
	wr.extra(l.Extra)
	wr.str("/>")
}

func (wr *Writer) declareExtra(mdExtra []Attr, links []Link) {
	all := append([]Attr(nil), mdExtra...)
	for _, l := range links {
		all = append(all, l.Extra...)
	}
	for _, a := range all {
		if a.Space != "" {
			wr.prefix(a.Space, true)
		}
	}
}

// prefix returns the prefix bound to ns, binding a new one if needed. When
// declare is true the binding is written as an attribute of the current
// element.
func (wr *Writer) prefix(ns string, declare bool) string {
	if p, ok := wr.extraNS[ns]; ok {
		return p
	}
	p := "x" + strconv.Itoa(len(wr.extraNS)+1)
	wr.extraNS[ns] = p
	if declare {
		wr.str(" xmlns:" + p + `="`)
		wr.attrText(ns)
		wr.str(`"`)
	}
	return p
}

func (wr *Writer) extra(attrs []Attr) {
	for _, a := range attrs {
		name := a.Local
		if a.Space != "" {
			p, declared := wr.extraNS[a.Space]
			if !declared {
				// Bind it on this element; the binding is scoped to it, so
				// forget it again for later elements.
				p = "x" + strconv.Itoa(len(wr.extraNS)+1)
				wr.str(" xmlns:" + p + `="`)
				wr.attrText(a.Space)
				wr.str(`"`)
				defer delete(wr.extraNS, a.Space)
				wr.extraNS[a.Space] = p
			}
			name = p + ":" + a.Local
		}
		wr.attr(name, a.Value)
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

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
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
