package resourcesync

import (
	"net/url"
	"strings"
)

// Mirrors returns the links of an entry that name a mirror of its
// resource (§14.2: rel="duplicate") reachable over http or https, in the
// order to try them: pri ascending, a missing pri last (999999), document
// order among equals. Other schemes (gsiftp:, ftp:) are left out: §14.1
// says a link a Destination cannot use is ignored.
func Mirrors(links []Link) []Link { return httpLinksByRel(links, RelDuplicate) }

// httpLinksByRel returns the links of relation rel reachable over http or
// https, best pri first: the links a Destination that speaks only HTTP
// can act on (§14.1: one it cannot use is ignored).
func httpLinksByRel(links []Link, rel string) []Link {
	var out []Link
	for _, l := range linksByRel(links, rel) {
		if httpLink(l) {
			out = append(out, l)
		}
	}
	return out
}

// httpLink reports whether a link's target is an http or https URL.
func httpLink(l Link) bool {
	u, err := url.Parse(l.Href)
	if err != nil || u.Host == "" {
		return false
	}
	s := strings.ToLower(u.Scheme)
	return s == "http" || s == "https"
}

// Companions returns the links of an entry naming resources to fetch
// along with it: its alternate representations (§14.3, rel="alternate")
// whose type is one of alternateTypes (media types, compared without
// parameters and case), and with withMetadata its metadata records
// (§14.5, rel="describedby"). Only http(s) targets, each once, best pri
// first per relation.
func Companions(links []Link, alternateTypes []string, withMetadata bool) []Link {
	var out []Link
	seen := map[string]bool{}
	add := func(l Link) {
		if httpLink(l) && !seen[l.Href] {
			seen[l.Href] = true
			out = append(out, l)
		}
	}
	if len(alternateTypes) > 0 {
		for _, l := range linksByRel(links, RelAlternate) {
			if mediaTypeIn(l.Type, alternateTypes) {
				add(l)
			}
		}
	}
	if withMetadata {
		for _, l := range linksByRel(links, RelDescribedBy) {
			add(l)
		}
	}
	return out
}

// mediaTypeIn reports whether media type t (parameters ignored) is one of
// types.
func mediaTypeIn(t string, types []string) bool {
	t, _, _ = strings.Cut(t, ";")
	t = strings.TrimSpace(t)
	for _, want := range types {
		want, _, _ = strings.Cut(want, ";")
		if t != "" && strings.EqualFold(t, strings.TrimSpace(want)) {
			return true
		}
	}
	return false
}

// Patches returns the links of an entry that name a patch turning the
// resource's previous version into the one the entry describes (§14.4:
// rel="http://www.openarchives.org/rs/terms/patch"), best pri first.
func Patches(links []Link) []Link { return linksByRel(links, RelPatch) }

// Mementos returns the links of an entry that name the time-specific URI
// of the version it describes (§14.6: rel="memento"), reachable over
// http or https, best pri first. TimeGates and TimeMaps (rel="timegate",
// "timemap") are not among them: a Destination that does not negotiate
// in time ignores them (§14.1).
func Mementos(links []Link) []Link { return httpLinksByRel(links, RelMemento) }

// ActedOn returns the links of an entry a Destination acts on when it
// brings the resource to the entry's version: its mirrors, its patches,
// its mementos, then the links it records with its copy (Recorded).
func ActedOn(links []Link) []Link {
	return append(append(append(Mirrors(links), Patches(links)...), Mementos(links)...), Recorded(links)...)
}
