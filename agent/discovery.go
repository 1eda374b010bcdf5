package agent

import (
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Discovery is what discovery found: the Source Description and every set
// of resources (one per Capability List) with its capability documents.
type Discovery struct {
	Start             string `json:"start"`
	SourceDescription string `json:"source_description,omitempty"` // empty when the Source has none reachable
	DescribedBy       string `json:"described_by,omitempty"`
	FoundBy           string `json:"via"` // how the documents were found (JSON: via, for compatibility)
	// Selected is the Capability List of the one set the URL given stands
	// for (a Capability List, or a document within one set); empty when it
	// stands for the whole Source (its root, its Source Description).
	Selected string     `json:"selected,omitempty"`
	Sets     []*SetInfo `json:"sets"`
	Warnings []string   `json:"warnings,omitempty"`
	Tried    []string   `json:"tried,omitempty"` // every place looked at, with what was found
	// Whole says that a Source Description was read whole, so that the
	// sets are every set the Source names: a recorded set of that Source
	// Description missing from them is no longer named (see
	// reconcileSets). False when discovery started from a Capability List
	// whose Source Description could not be read.
	Whole bool `json:"-"`
}

// SetInfo is one set of resources: its Capability List and what it offers.
type SetInfo struct {
	CapabilityList string          `json:"capability_list"`
	DescribedBy    string          `json:"described_by,omitempty"`
	LastMod        time.Time       `json:"lastmod,omitzero"`
	Capabilities   []CapabilityDoc `json:"capabilities"`
	// Err is set when the Capability List could not be read or names a
	// document that is not of the capability it names it with; the other
	// sets are still usable.
	Err   error  `json:"-"`
	Error string `json:"error,omitempty"`
}

// CapabilityDoc is one capability a Capability List offers.
type CapabilityDoc struct {
	Capability resourcesync.Capability `json:"capability"`
	URL        string                  `json:"url"`
	// Hub is the WebSub hub of a notification channel (rel="hub").
	Hub     string    `json:"hub,omitempty"`
	LastMod time.Time `json:"lastmod,omitzero"`
}

// Doc returns the URL of the set's document of capability c.
func (s *SetInfo) Doc(c resourcesync.Capability) (string, bool) {
	for _, d := range s.Capabilities {
		if d.Capability == c {
			return d.URL, true
		}
	}
	return "", false
}

// Set returns the set with the given Capability List URL.
func (d *Discovery) Set(capabilityList string) (*SetInfo, bool) {
	for _, s := range d.Sets {
		if s.CapabilityList == capabilityList {
			return s, true
		}
	}
	return nil, false
}

// SourceURLs are the URLs of the documents that define the Source: its
// resources' hosts are the Source's own.
func (d *Discovery) SourceURLs() []string {
	var out []string
	if d.SourceDescription != "" {
		out = append(out, d.SourceDescription)
	}
	for _, s := range d.Sets {
		out = append(out, s.CapabilityList)
		for _, c := range s.Capabilities {
			out = append(out, c.URL)
		}
	}
	return out
}

// Scope is what the Source's jobs may fetch: resources (and redirects) on
// the hosts of the URL given and of the Source's documents, and on the
// hosts allowed (--allow-host).
func (d *Discovery) Scope(allowHosts []string) resourcesync.Scope {
	return resourcesync.NewScope(append(d.SourceURLs(), d.Start), allowHosts)
}
