package resourcesync

import (
	"net/url"
	"slices"
	"strings"
	"time"
)

// recordedRels are the relations of the links a Destination records with
// a resource, as facts about it rather than places to fetch from: its
// metadata (§14.5: describedby, describes, and the profile of a metadata
// record), its alternate representations and generic URI (§14.3:
// alternate, canonical), its collections (§14.7) and its provenance when
// republished (§14.8: via). The metadata records and alternates a run
// fetched along with the resource are deleted with it by their record
// when the deletion's entry does not name them.
var recordedRels = []string{RelDescribedBy, RelDescribes, RelAlternate, RelCollection, RelProfile, RelCanonical, RelVia}

// Recorded returns the links of an entry a Destination records with its
// copy of the resource, in document order, a link given twice once; nil
// when there are none (the common case, which then costs nothing).
func Recorded(links []Link) []Link {
	var out []Link
	for _, l := range links {
		if slices.Contains(recordedRels, l.Rel) && !slices.ContainsFunc(out, func(o Link) bool { return SameLinks([]Link{o}, []Link{l}) }) {
			out = append(out, l)
		}
	}
	return out
}

// SameLinks reports whether two lists of recorded links say the same: the
// same relations, targets and attributes, in the same order. A record
// whose links are the entry's need not be written again.
func SameLinks(a, b []Link) bool {
	return slices.EqualFunc(a, b, func(x, y Link) bool {
		return x.Rel == y.Rel && x.Href == y.Href && x.Type == y.Type && x.Pri == y.Pri &&
			x.Modified.Equal(y.Modified) && x.Hash.String() == y.Hash.String() &&
			x.HasLength == y.HasLength && x.Length == y.Length
	})
}

// LinkRecord is a recorded link as the state stores it and the command
// line shows it (JSON): the attributes of section 7 that say something of
// the target. Length is absent when the link gives none.
type LinkRecord struct {
	Rel      string    `json:"rel"`
	Href     string    `json:"href"`
	Type     string    `json:"type,omitempty"`
	Pri      int       `json:"pri,omitempty"`
	Modified time.Time `json:"modified,omitzero"`
	Hash     string    `json:"hash,omitempty"`
	Length   *int64    `json:"length,omitempty"`
}

// LinkRecords returns the records of links; nil for none.
func LinkRecords(links []Link) []LinkRecord {
	if len(links) == 0 {
		return nil
	}
	out := make([]LinkRecord, len(links))
	for i, l := range links {
		out[i] = LinkRecord{Rel: l.Rel, Href: l.Href, Type: l.Type, Pri: l.Pri, Hash: l.Hash.String()}
		if !l.Modified.IsZero() {
			out[i].Modified = l.Modified.UTC()
		}
		if l.HasLength {
			n := l.Length
			out[i].Length = &n
		}
	}
	return out
}

// LinksOf returns the links records describe; an error when a hash does
// not parse (a record this program did not write).
func LinksOf(recs []LinkRecord) ([]Link, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	out := make([]Link, len(recs))
	for i, r := range recs {
		out[i] = Link{Rel: r.Rel, Href: r.Href, Type: r.Type, Pri: r.Pri, Modified: r.Modified}
		if r.Hash != "" {
			h, err := ParseHash(r.Hash)
			if err != nil {
				return nil, err
			}
			out[i].Hash = h
		}
		if r.Length != nil {
			out[i].Length, out[i].HasLength = *r.Length, true
		}
	}
	return out, nil
}

// ProvenanceHosts returns the hosts (host[:port]) the via links of a
// record name (§14.8: where a republished resource came from), each once,
// in order.
func ProvenanceHosts(links []Link) []string {
	var out []string
	for _, l := range links {
		if l.Rel != RelVia {
			continue
		}
		host := l.Href
		if u, err := url.Parse(l.Href); err == nil && u.Host != "" {
			host = strings.ToLower(u.Host)
		}
		if !slices.Contains(out, host) {
			out = append(out, host)
		}
	}
	return out
}
