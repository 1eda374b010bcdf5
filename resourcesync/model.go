package resourcesync

import (
	"sort"
	"time"
)

// Root is the root element of a document: <urlset> or <sitemapindex>.
type Root int

// The two roots of the Sitemap formats. An index (<sitemapindex>) points at
// documents of the same capability; a <urlset> is a document proper.
const (
	RootURLSet Root = iota + 1
	RootSitemapIndex
)

// String is the element name: "urlset" or "sitemapindex".
func (r Root) String() string {
	switch r {
	case RootURLSet:
		return "urlset"
	case RootSitemapIndex:
		return "sitemapindex"
	}
	return "unknown root"
}

// Attr is an attribute this package does not define, kept so that documents
// written back keep what communities added (in their own namespaces).
type Attr struct {
	Space string // namespace URI, empty for none
	Local string
	Value string
}

// Metadata is an rs:md element, at the top of a document (about the
// document) or in an entry (about the resource or document it points at).
// Zero times mean the attribute is absent.
type Metadata struct {
	Capability Capability
	Change     Change
	Hash       Fixity
	Length     int64 // valid only when HasLength
	HasLength  bool
	Type       string
	Encoding   string
	Path       string // in dump manifests: the bitstream's path in the package
	At         time.Time
	Completed  time.Time
	From       time.Time
	Until      time.Time
	Datetime   time.Time // ResourceSync 1.1: the time of the change
	Extra      []Attr
}

// Link is an rs:ln element.
type Link struct {
	Rel      string
	Href     string
	Pri      int // 1..999999; 0 when absent (which means 999999)
	Modified time.Time
	Hash     Fixity
	// BadHash is a hash attribute that does not parse (kept as given, so
	// that it is written back); the target cannot be verified against it.
	BadHash   string
	Length    int64 // valid only when HasLength
	HasLength bool
	Type      string
	Path      string
	Encoding  string
	Extra     []Attr
}

// Priority is the link's pri with the standard's default for an absent one.
func (l Link) Priority() int {
	if l.Pri == 0 {
		return 999999
	}
	return l.Pri
}

// Entry is a <url> (in a <urlset>) or <sitemap> (in a <sitemapindex>).
type Entry struct {
	Loc     string
	LastMod time.Time // zero when absent (or malformed)
	// BadLastMod is a <lastmod> that is not a W3C datetime, kept as given
	// (LastMod is zero then): one bad lastmod does not make its document
	// unreadable, the entry is used without it, and consumers warn.
	BadLastMod string
	ChangeFreq string
	HasMD      bool // whether the entry had an rs:md element
	MD         Metadata
	Links      []Link
	// Line is the line of the document where the entry starts, for
	// messages that point a person at it.
	Line int
}

// Time is the time of the change an entry describes: ResourceSync 1.1's
// datetime attribute when present, else lastmod. Zero when neither is.
func (e *Entry) Time() time.Time {
	if !e.MD.Datetime.IsZero() {
		return e.MD.Datetime
	}
	return e.LastMod
}

// Link returns the entry's link with the relation rel and the highest
// priority, if any.
func (e *Entry) Link(rel string) (Link, bool) { return bestLink(e.Links, rel) }

// Header is what a document says about itself: its root and its top-level
// rs:md and rs:ln elements.
type Header struct {
	Root  Root
	MD    Metadata
	Links []Link
}

// Capability is the document's own capability.
func (h *Header) Capability() Capability { return h.MD.Capability }

// IsIndex reports whether the document is an index (<sitemapindex>).
func (h *Header) IsIndex() bool { return h.Root == RootSitemapIndex }

// Link returns the document's link with the relation rel and the highest
// priority, if any.
func (h *Header) Link(rel string) (Link, bool) { return bestLink(h.Links, rel) }

// Closed reports whether a change document will not be updated any more (it
// carries until).
func (h *Header) Closed() bool { return !h.MD.Until.IsZero() }

// Document is a whole document in memory; use Reader for big ones.
type Document struct {
	Header
	Entries []Entry
}

func bestLink(links []Link, rel string) (Link, bool) {
	var best Link
	found := false
	for _, l := range links {
		if l.Rel != rel {
			continue
		}
		if !found || l.Priority() < best.Priority() {
			best, found = l, true
		}
	}
	return best, found
}

func linksByRel(links []Link, rel string) []Link {
	var out []Link
	for _, l := range links {
		if l.Rel == rel {
			out = append(out, l)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Priority() < out[j].Priority() })
	return out
}
