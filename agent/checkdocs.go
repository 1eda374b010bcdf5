package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// checkedAtDiscovery reports whether discovery reads the header of the
// document a Capability List names as a c, to check that it is one.
// Dumps and archives list packages and lists, not resources, so they are
// small; a Resource List or Change List can hold 50,000 entries and is
// read whole by every sync anyway, which checks its capability then
// (resourcesync.Walk). Notification channels are WebSub topics, not
// documents.
func checkedAtDiscovery(c resourcesync.Capability) bool {
	switch c {
	case resourcesync.CapResourceDump, resourcesync.CapChangeDump,
		resourcesync.CapResourceListArchive, resourcesync.CapResourceDumpArchive,
		resourcesync.CapChangeListArchive, resourcesync.CapChangeDumpArchive:
		return true
	}
	return false
}

// checkDocs checks that each document the set's Capability List names
// (those checkedAtDiscovery) has the capability it is named with (§9). Only
// the document itself is read: for an index, not its parts, which the sync
// checks when it reads them. It returns the mismatched and malformed
// documents joined, each error naming the Capability List and the
// document; a document that cannot be fetched is only warned about, since
// the sync meets it again only if it needs it.
func (d *discoverer) checkDocs(ctx context.Context, s *SetInfo) error {
	var errs []error
	for _, doc := range s.Capabilities {
		if !checkedAtDiscovery(doc.Capability) {
			continue
		}
		p, err := d.open(ctx, doc.URL, checked)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			d.warn("Capability List %s names %s as its %s, which cannot be read to check it (%v)", s.CapabilityList, doc.URL, doc.Capability.Name(), err)
			continue
		}
		h, ok, err := d.header(p)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("Capability List %s names %s as its %s: %w", s.CapabilityList, doc.URL, doc.Capability.Name(), err))
		case !ok || h.Capability() != doc.Capability:
			got := resourcesync.Capability("")
			if ok {
				got = h.Capability()
			}
			errs = append(errs, fmt.Errorf("Capability List %s: %w", s.CapabilityList,
				&resourcesync.CapabilityMismatchError{URL: p.url, Got: got, Want: doc.Capability}))
		}
	}
	return errors.Join(errs...)
}
