package websub

import (
	"bytes"
	"fmt"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Change is one <url> of a notification: a document (framework
// notification) or resource (change notification) that changed.
type Change struct {
	URL        string                  // <loc>, as given: check it before fetching
	Capability resourcesync.Capability // what the document is; may be empty in a change notification
	Change     resourcesync.Change     // created, updated or deleted
	Time       time.Time               // datetime (or lastmod); zero when absent
	Index      string                  // the rs:ln rel="index" target, "" when absent
}

// Payload is what a notification says.
type Payload struct {
	// Capability is resourcesync.CapFrameworkNotification or
	// resourcesync.CapChangeNotification: which kind of channel sent it.
	Capability resourcesync.Capability
	// Up is the top-level rs:ln rel="up" target (the Capability List or
	// Source Description), "" when absent.
	Up      string
	Changes []Change
}

// ParsePayload parses the body of a delivery; name (the topic) is used in
// errors. It accepts a <urlset> whose top-level rs:md has capability
// framework-notification or change-notification, with at least one <url>,
// each with an rs:md whose change is created, updated or deleted, and, in a
// framework notification, a capability. Unknown capabilities are kept:
// later specifications add values. It fails with a *resourcesync.ParseError
// for a document that does not parse and with an error wrapping
// ErrNotNotification for one that is not a notification.
func ParsePayload(data []byte, name string) (*Payload, error) {
	// The body is already capped in bytes; these bound the rest.
	lim := resourcesync.Limits{MaxEntries: 100_000, MaxDepth: 32}
	r := resourcesync.NewReader(bytes.NewReader(data), name, lim)
	h, err := r.Header()
	if err != nil {
		return nil, err
	}
	notOne := func(format string, args ...any) error {
		return fmt.Errorf("payload from %s: %s: %w", name, fmt.Sprintf(format, args...), ErrNotNotification)
	}
	if h.Root != resourcesync.RootURLSet {
		return nil, notOne("root is <%s>, want <urlset>", h.Root)
	}
	kind := h.Capability()
	if kind != resourcesync.CapFrameworkNotification && kind != resourcesync.CapChangeNotification {
		return nil, notOne("capability is %q, want %q or %q", kind,
			resourcesync.CapFrameworkNotification, resourcesync.CapChangeNotification)
	}
	p := &Payload{Capability: kind}
	if l, ok := h.Link(resourcesync.RelUp); ok {
		p.Up = l.Href
	}
	for e, err := range r.All() {
		if err != nil {
			return nil, err
		}
		n := len(p.Changes) + 1
		switch {
		case !e.HasMD:
			return nil, notOne("entry %d (%s) has no rs:md", n, e.Loc)
		case !e.MD.Change.Known():
			return nil, notOne("entry %d (%s) has change %q, want created, updated or deleted", n, e.Loc, e.MD.Change)
		case kind == resourcesync.CapFrameworkNotification && e.MD.Capability == "":
			return nil, notOne("entry %d (%s) has no capability", n, e.Loc)
		}
		c := Change{URL: e.Loc, Capability: e.MD.Capability, Change: e.MD.Change, Time: e.Time()}
		if l, ok := e.Link(resourcesync.RelIndex); ok {
			c.Index = l.Href
		}
		p.Changes = append(p.Changes, c)
	}
	if len(p.Changes) == 0 {
		return nil, notOne("no <url> entries")
	}
	return p, nil
}
