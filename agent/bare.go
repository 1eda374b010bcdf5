package agent

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// bareError: a capability document with no rel="up" link (and no
// rel="index" leading to one), as in the standard's own Examples 1, 2 and 8.
type bareError struct {
	url        string
	capability resourcesync.Capability
}

func (e *bareError) Error() string {
	return fmt.Sprintf("%s (a %s) has no rel=\"up\" link to its Capability List", e.url, e.capability.Name())
}

// fromBare continues from a Resource List or Change List without a
// rel="up" link. The host's well-known URI is tried first for the set that
// names it; failing that, the document alone is a one-set Source, the set
// known by the document's URL. Any other bare capability document is an
// error: it cannot stand for a set.
func (d *discoverer) fromBare(ctx context.Context, b *bareError) (string, error) {
	if b.capability != resourcesync.CapResourceList && b.capability != resourcesync.CapChangeList {
		return "", b
	}
	if set, ok, err := d.setNaming(ctx, b); ok || err != nil {
		return set, err
	}
	if s, dup := d.res.Set(b.url); dup {
		return s.CapabilityList, nil
	}
	d.warn("%s (a %s) has no rel=\"up\" link, and no Source Description at the host's well-known URI names it; using it alone, as a one-set Source known by its URL", b.url, b.capability.Name())
	d.res.Sets = append(d.res.Sets, &SetInfo{CapabilityList: b.url, Capabilities: []CapabilityDoc{{Capability: b.capability, URL: b.url}}})
	return b.url, nil
}

// setNaming reads the Source Description at the well-known URI of b's
// host and returns the set whose Capability List names b. A well-known URI
// that is missing or not a Source Description is only noted.
func (d *discoverer) setNaming(ctx context.Context, b *bareError) (string, bool, error) {
	u, err := url.Parse(b.url)
	if err != nil {
		return "", false, nil
	}
	wk := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: wellKnownPath}).String()
	p, err := d.open(ctx, wk, probe)
	if err != nil {
		if errors.Is(err, resourcesync.ErrUnavailable) || errors.Is(err, ErrTooManyDocuments) {
			return "", false, err
		}
		d.tried("%s: %v", wk, err)
		return "", false, nil
	}
	h, ok, err := d.header(p)
	if err != nil || !ok || h.Capability() != resourcesync.CapDescription {
		d.tried("%s: not a Source Description", wk)
		return "", false, nil
	}
	if d.res.SourceDescription != p.url {
		if err := d.fromSourceDescription(ctx, p.url, ""); err != nil {
			return "", false, err
		}
	}
	for _, s := range d.res.Sets {
		if doc, ok := s.Doc(b.capability); ok && doc == b.url {
			d.warn("%s (a %s) has no rel=\"up\" link; the Source Description %s names it in the set of %s", b.url, b.capability.Name(), p.url, s.CapabilityList)
			return s.CapabilityList, true, nil
		}
	}
	return "", false, nil
}
