package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// resourceReport is what status --resource shows of one resource: the
// record of every set holding it, and the failures recorded of it. Its
// JSON form is the --json document's result.
type resourceReport struct {
	State    string           `json:"state"`
	URI      string           `json:"uri"`
	Records  []resourceRecord `json:"records"` // one per set holding it
	Failures []resourceFail   `json:"failures"`
}

// resourceRecord is a set's record of the resource.
type resourceRecord struct {
	CapabilityList string    `json:"capability_list"`
	Path           string    `json:"path"`
	Length         int64     `json:"length"`
	Hash           string    `json:"hash"` // the digests of the bytes held
	LastMod        time.Time `json:"lastmod,omitzero"`
	ETag           string    `json:"etag,omitempty"`
	LastModified   string    `json:"last_modified,omitempty"`
	Fetched        time.Time `json:"fetched,omitzero"`
	// Links are the links of section 14 its entry gave (describedby,
	// describes, collection, profile, canonical, via).
	Links []resourcesync.LinkRecord `json:"links"`
	// Provenance is where a republished resource came from: the targets
	// of its via links (§14.8).
	Provenance []string `json:"provenance"`
}

type resourceFail struct {
	CapabilityList string    `json:"capability_list"`
	Cause          string    `json:"cause"`
	At             time.Time `json:"at,omitzero"`
	Attempts       int64     `json:"attempts"`
}

// readResource looks uri up in every set of the state.
func readResource(ctx context.Context, db readStore, uri string) (*resourceReport, error) {
	rep := &resourceReport{State: db.Path(), URI: uri, Records: []resourceRecord{}, Failures: []resourceFail{}}
	sets, err := db.Sets(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		h, ok, err := db.Held(ctx, s.ID, uri)
		if err != nil {
			return nil, err
		}
		if ok {
			rep.Records = append(rep.Records, recordOf(s.CapabilityList, h))
		}
		fails, err := db.FailureRecords(ctx, s.ID)
		if err != nil {
			return nil, err
		}
		for _, f := range fails {
			if f.URI == uri {
				rep.Failures = append(rep.Failures, resourceFail{CapabilityList: s.CapabilityList, Cause: f.Cause, At: f.At, Attempts: f.Attempts})
			}
		}
	}
	return rep, nil
}

func recordOf(capabilityList string, h resourcesync.Held) resourceRecord {
	r := resourceRecord{CapabilityList: capabilityList, Path: h.Path, Length: h.Length, Hash: h.Fixity.String(),
		LastMod: h.LastMod, ETag: h.ETag, LastModified: h.LastModified, Fetched: h.Fetched,
		Links: resourcesync.LinkRecords(h.Links), Provenance: []string{}}
	if r.Links == nil {
		r.Links = []resourcesync.LinkRecord{}
	}
	for _, l := range h.Links {
		if l.Rel == resourcesync.RelVia {
			r.Provenance = append(r.Provenance, l.Href)
		}
	}
	return r
}

// printResource is status --resource's text.
func printResource(w io.Writer, rep *resourceReport) {
	fmt.Fprintf(w, "state     %s\nresource  %s\n", rep.State, rep.URI)
	if len(rep.Records) == 0 && len(rep.Failures) == 0 {
		fmt.Fprintf(w, "\nheld by no set, and no failure recorded (never synced, or not listed by the Source)\n")
		return
	}
	for _, r := range rep.Records {
		fmt.Fprintf(w, "\nset %s\n", r.CapabilityList)
		fmt.Fprintf(w, "  path      %s\n", r.Path)
		fmt.Fprintf(w, "  length    %s\n", plural(r.Length, "byte", "bytes"))
		fmt.Fprintf(w, "  hash      %s\n", orNone(r.Hash))
		fmt.Fprintf(w, "  lastmod   %s\n", datetime(r.LastMod))
		fmt.Fprintf(w, "  fetched   %s\n", clock(r.Fetched))
		if r.ETag != "" || r.LastModified != "" {
			fmt.Fprintf(w, "  etag      %s\n", orNone(r.ETag))
			fmt.Fprintf(w, "  modified  %s (Last-Modified)\n", orNone(r.LastModified))
		}
		if len(r.Links) == 0 {
			fmt.Fprintf(w, "  links     none\n")
		}
		for i, l := range r.Links {
			label := "links"
			if i > 0 {
				label = ""
			}
			fmt.Fprintf(w, "  %-9s %-11s %s%s\n", label, l.Rel, l.Href, linkDetails(l))
		}
		for _, p := range r.Provenance {
			fmt.Fprintf(w, "  republished from %s\n", p)
		}
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "\nfailure in set %s\n  ! %s (%s, last %s)\n", f.CapabilityList, oneLine(f.Cause),
			plural(f.Attempts, "attempt", "attempts"), clock(f.At))
	}
}

// linkDetails are a link's attributes besides rel and href, in brackets.
func linkDetails(l resourcesync.LinkRecord) string {
	var parts []string
	if l.Type != "" {
		parts = append(parts, "type "+l.Type)
	}
	if l.Pri != 0 {
		parts = append(parts, fmt.Sprintf("pri %d", l.Pri))
	}
	if !l.Modified.IsZero() {
		parts = append(parts, "modified "+datetime(l.Modified))
	}
	if l.Hash != "" {
		parts = append(parts, l.Hash)
	}
	if l.Length != nil {
		parts = append(parts, plural(*l.Length, "byte", "bytes"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// printRepublished is the line of a set whose resources were republished
// from other Sources (§14.8: via links), by origin host.
func printRepublished(w io.Writer, origins []state.Origin) {
	if len(origins) == 0 {
		return
	}
	var parts []string
	for i, o := range origins {
		if i == maxHostsShown {
			parts = append(parts, fmt.Sprintf("and %d more hosts (--json lists them all)", len(origins)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", orNone(o.Host), plural(o.Resources, "resource", "resources")))
	}
	fmt.Fprintf(w, "  republished from %s\n", strings.Join(parts, ", "))
}
