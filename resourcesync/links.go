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
func Mirrors(links []Link) []Link {
	var out []Link
	for _, l := range linksByRel(links, RelDuplicate) {
		u, err := url.Parse(l.Href)
		if err != nil || u.Host == "" {
			continue
		}
		if s := strings.ToLower(u.Scheme); s == "http" || s == "https" {
			out = append(out, l)
		}
	}
	return out
}

// Patches returns the links of an entry that name a patch turning the
// resource's previous version into the one the entry describes (§14.4:
// rel="http://www.openarchives.org/rs/terms/patch"), best pri first.
func Patches(links []Link) []Link { return linksByRel(links, RelPatch) }

// ActedOn returns the links of an entry a Destination acts on when it
// brings the resource to the entry's version: its mirrors, then its
// patches.
func ActedOn(links []Link) []Link { return append(Mirrors(links), Patches(links)...) }
