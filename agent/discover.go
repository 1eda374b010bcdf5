package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Fetcher gets documents from the Source.
type Fetcher interface {
	OpenDocument(ctx context.Context, url string) (finalURL string, header http.Header, body io.ReadCloser, err error)
}

// ErrNotResourceSync: nothing at or around the URL leads to ResourceSync
// documents. The error text lists every place tried.
var ErrNotResourceSync = errors.New("no ResourceSync Source found")

// DiscoverOptions bound discovery.
type DiscoverOptions struct {
	Limits resourcesync.Limits
	// The documents fetched are bounded per kind, so that a loop or a
	// hostile Source cannot make discovery run on, while a Source with
	// many sets is read whole: MaxProbes bounds the pages looked at to
	// find the Source (the URL given, the well-known URI, robots.txt and
	// its Sitemaps, rel="index" climbs); MaxDescriptions the Source
	// Descriptions and their index parts; MaxCapabilityLists the
	// Capability Lists (and their index parts) - one per set; MaxChecked
	// the dumps and archives whose header is checked (past it, the rest
	// are warned about, unchecked).
	MaxProbes          int
	MaxDescriptions    int
	MaxCapabilityLists int
	MaxChecked         int
	// MaxDocumentBytes bounds a document kept for discovery (Source
	// Descriptions and Capability Lists are small).
	MaxDocumentBytes int64
}

// DefaultDiscoverOptions are generous for real Sources: 50 probes, 100
// Source Description documents, 10,000 sets and as many checked
// documents.
func DefaultDiscoverOptions() DiscoverOptions {
	return DiscoverOptions{MaxProbes: 50, MaxDescriptions: 100, MaxCapabilityLists: 10_000, MaxChecked: 10_000, MaxDocumentBytes: 16 << 20}
}

// docKind is what a document is fetched as, for the per-kind bounds.
type docKind int

const (
	probe docKind = iota
	description
	capabilityList
	checked
	kinds
)

func (k docKind) String() string {
	return [kinds]string{"pages while looking for the Source", "Source Description documents", "Capability List documents", "dumps and archives to check"}[k]
}

// ErrTooManyDocuments: discovery reached its bound on documents of one
// kind (DiscoverOptions): a loop, or a Source far larger than the bound.
var ErrTooManyDocuments = errors.New("too many documents")

// wellKnownPath is the Source Description's well-known URI (§6.3.2).
const wellKnownPath = "/.well-known/resourcesync"

// maxUpLinks bounds a walk up rel="up" / rel="index" links.
const maxUpLinks = 8

// Discover finds the Source Description and every set of resources from
// any URL the command line accepts: a Source root, a Source Description (or
// its index), a Capability List, a capability document (or its index), or
// any page that links rel="resourcesync" in HTML or an HTTP Link header
// (§6.3). When the URL itself leads nowhere it tries the well-known URI and
// robots.txt of its host.
//
// A Capability List that cannot be read, or that names a Resource Dump,
// Change Dump or archive that is not one (an error naming both URLs and
// wrapping *resourcesync.CapabilityMismatchError), is reported in its
// SetInfo.Err; the other sets are still returned. Discover fails when no
// set can be found: with an error wrapping ErrNotResourceSync listing
// everything tried, or resourcesync.ErrUnavailable when the Source could not
// be reached, or the first malformed or mismatched document on the way up.
func Discover(ctx context.Context, f Fetcher, start string, opts DiscoverOptions) (*Discovery, error) {
	u, err := url.Parse(start)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discover %q: want an http or https URL", start)
	}
	def := DefaultDiscoverOptions()
	for _, f := range []struct{ v, d *int }{
		{&opts.MaxProbes, &def.MaxProbes}, {&opts.MaxDescriptions, &def.MaxDescriptions},
		{&opts.MaxCapabilityLists, &def.MaxCapabilityLists}, {&opts.MaxChecked, &def.MaxChecked},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	if opts.MaxDocumentBytes <= 0 {
		opts.MaxDocumentBytes = def.MaxDocumentBytes
	}
	d := &discoverer{f: f, opts: opts, res: &Discovery{Start: start}, cache: map[string]*page{}}
	err = d.run(ctx, u)
	if err != nil {
		return nil, err
	}
	d.res.Whole = d.res.SourceDescription != "" && !d.partial
	return d.res, nil
}

type discoverer struct {
	f       Fetcher
	opts    DiscoverOptions
	res     *Discovery
	cache   map[string]*page // by requested and final URL
	fetched [kinds]int
	// partial: a Source Description named by a Capability List could not
	// be read, so the sets found may not be all the Source names.
	partial bool
	notes   []string // sitemaps of robots.txt skipped, warned about once a Source is found
}

// page is a fetched document, kept whole (discovery documents are small).
type page struct {
	url    string // final URL
	header http.Header
	body   []byte
}

func (d *discoverer) run(ctx context.Context, u *url.URL) error {
	start := u.String()
	root := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}
	isRoot := (u.Path == "" || u.Path == "/") && u.RawQuery == ""
	wellKnownTried := false
	if isRoot {
		wellKnownTried = true
		if ok, err := d.tryWellKnown(ctx, root); ok || err != nil {
			return err
		}
	}
	ok, err := d.tryStart(ctx, start)
	if ok || err != nil {
		return err
	}
	if !wellKnownTried {
		if ok, err := d.tryWellKnown(ctx, root); ok || err != nil {
			return err
		}
	}
	if ok, err := d.tryRobots(ctx, root); ok || err != nil {
		return err
	}
	return fmt.Errorf("%w at %s; tried:\n  %s", ErrNotResourceSync, start, strings.Join(d.res.Tried, "\n  "))
}

func (d *discoverer) tried(format string, args ...any) {
	d.res.Tried = append(d.res.Tried, fmt.Sprintf(format, args...))
}

func (d *discoverer) warn(format string, args ...any) {
	d.res.Warnings = append(d.res.Warnings, fmt.Sprintf(format, args...))
}

// max is the bound on documents of kind k.
func (d *discoverer) max(k docKind) int {
	return [kinds]int{d.opts.MaxProbes, d.opts.MaxDescriptions, d.opts.MaxCapabilityLists, d.opts.MaxChecked}[k]
}

// open fetches a document of kind k (once per URL) and keeps it.
func (d *discoverer) open(ctx context.Context, u string, k docKind) (*page, error) {
	if p, ok := d.cache[u]; ok {
		return p, nil
	}
	if d.fetched[k] >= d.max(k) {
		return nil, fmt.Errorf("discovery read %d %s without finishing; giving up at %s: %w", d.fetched[k], k, u, ErrTooManyDocuments)
	}
	d.fetched[k]++
	final, header, body, err := d.f.OpenDocument(ctx, u)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, d.opts.MaxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", u, err)
	}
	if int64(len(b)) > d.opts.MaxDocumentBytes {
		// Only a capability document can be this big; its header is at the
		// top, which is all discovery reads of it.
		b = b[:d.opts.MaxDocumentBytes]
	}
	p := &page{url: final, header: header, body: b}
	d.cache[u], d.cache[final] = p, p
	return p, nil
}

// header parses a page as a ResourceSync document; ok is false when it is
// not one (not XML, another root).
func (d *discoverer) header(p *page) (*resourcesync.Header, bool, error) {
	h, err := resourcesync.NewReader(bytes.NewReader(p.body), p.url, d.opts.Limits).Header()
	if err != nil {
		if errors.Is(err, resourcesync.ErrSyntax) || errors.Is(err, resourcesync.ErrRoot) || errors.Is(err, resourcesync.ErrNoCapability) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return h, true, nil
}

// opener serves Walk documents of kind k from the cache.
func (d *discoverer) opener(k docKind) resourcesync.Opener {
	return func(ctx context.Context, u string) (string, io.ReadCloser, error) {
		p, err := d.open(ctx, u, k)
		if err != nil {
			return "", nil, err
		}
		return p.url, io.NopCloser(bytes.NewReader(p.body)), nil
	}
}

func (d *discoverer) tryWellKnown(ctx context.Context, root *url.URL) (bool, error) {
	wk := root.ResolveReference(&url.URL{Path: wellKnownPath}).String()
	p, err := d.open(ctx, wk, probe)
	if err != nil {
		if errors.Is(err, resourcesync.ErrUnavailable) {
			return false, err
		}
		d.tried("%s: %v", wk, err)
		return false, nil
	}
	h, ok, err := d.header(p)
	switch {
	case err != nil:
		return false, err
	case !ok:
		d.tried("%s: not a ResourceSync document", wk)
		return false, nil
	case h.Capability() != resourcesync.CapDescription:
		return false, &resourcesync.CapabilityMismatchError{URL: p.url, Got: h.Capability(), Want: resourcesync.CapDescription}
	}
	d.res.FoundBy = "well-known URI"
	return true, d.fromSourceDescription(ctx, p.url, "")
}

// tryStart looks at the URL the user gave.
func (d *discoverer) tryStart(ctx context.Context, start string) (bool, error) {
	p, err := d.open(ctx, start, probe)
	if err != nil {
		if errors.Is(err, resourcesync.ErrUnavailable) {
			return false, err
		}
		d.tried("%s: %v", start, err)
		return false, nil
	}
	h, ok, err := d.header(p)
	if err != nil {
		return false, err
	}
	if ok {
		d.res.FoundBy = "the URL given"
		set, err := d.fromDocument(ctx, p, h)
		if err == nil && h.Capability() != resourcesync.CapDescription {
			// One set's document stands for that set alone: an
			// aggregator asking for one collection gets that one.
			d.res.Selected = set
		}
		return true, err
	}
	// A page linking to its Capability List: HTTP Link header, then HTML.
	var caps []string
	for _, l := range ParseLinkHeader(p.header.Values("Link")) {
		if l.HasRel(resourcesync.RelResourceSync) {
			caps = append(caps, resourcesync.Resolve(p.url, l.Target))
			d.res.FoundBy = "HTTP Link header"
		}
	}
	if len(caps) == 0 {
		links, _ := HTMLLinks(bytes.NewReader(p.body), resourcesync.RelResourceSync)
		for _, l := range links {
			caps = append(caps, resourcesync.Resolve(p.url, l))
			d.res.FoundBy = "HTML link"
		}
	}
	if len(caps) == 0 {
		d.tried("%s: not a ResourceSync document, no rel=\"resourcesync\" Link header or HTML link", start)
		return false, nil
	}
	for _, c := range caps {
		if _, err := d.fromCapabilityListURL(ctx, c); err != nil {
			return false, err
		}
	}
	return true, nil
}

func (d *discoverer) tryRobots(ctx context.Context, root *url.URL) (bool, error) {
	robots := root.ResolveReference(&url.URL{Path: "/robots.txt"}).String()
	p, err := d.open(ctx, robots, probe)
	if err != nil {
		if errors.Is(err, resourcesync.ErrUnavailable) {
			return false, err
		}
		d.tried("%s: %v", robots, err)
		return false, nil
	}
	maps, err := RobotsSitemaps(bytes.NewReader(p.body))
	if err != nil {
		return false, fmt.Errorf("read %s: %w", robots, err)
	}
	found := false
	for _, m := range maps {
		m = resourcesync.Resolve(p.url, m)
		sp, err := d.open(ctx, m, probe)
		if err != nil {
			d.tried("%s (Sitemap in robots.txt): %v", m, err)
			continue
		}
		h, ok, err := d.header(sp)
		if err != nil {
			return false, err
		}
		if !ok || h.Capability() == "" {
			// An ordinary web sitemap often comes first; the
			// ResourceSync one may follow.
			d.tried("%s (Sitemap in robots.txt): not a ResourceSync document", m)
			d.notes = append(d.notes, fmt.Sprintf("%s (Sitemap in robots.txt) is not a ResourceSync document (skipped)", m))
			continue
		}
		if !h.Capability().Known() {
			d.tried("%s (Sitemap in robots.txt): capability %q, which resync-dest does not know", m, string(h.Capability()))
			d.notes = append(d.notes, fmt.Sprintf("%s (Sitemap in robots.txt) has capability %q, which resync-dest does not know (skipped)", m, string(h.Capability())))
			continue
		}
		d.res.FoundBy = "robots.txt"
		if _, err := d.fromDocument(ctx, sp, h); err != nil {
			return false, err
		}
		found = true
	}
	if found {
		d.res.Warnings = append(d.res.Warnings, d.notes...)
	}
	if !found && len(maps) == 0 {
		d.tried("%s: no Sitemap directives", robots)
	}
	return found, nil
}

// fromDocument continues from a ResourceSync document of any capability.
// It returns the Capability List of the set the document belongs to (""
// for a Source Description).
func (d *discoverer) fromDocument(ctx context.Context, p *page, h *resourcesync.Header) (string, error) {
	switch h.Capability() {
	case resourcesync.CapDescription:
		return "", d.fromSourceDescription(ctx, p.url, "")
	case resourcesync.CapCapabilityList:
		return d.fromCapabilityListURL(ctx, p.url)
	}
	if !h.Capability().Known() {
		return "", fmt.Errorf("%s is a ResourceSync document of capability %q, which resync-dest does not know; give the Source's root, its Source Description, a Capability List, a Resource List or a Change List",
			p.url, string(h.Capability()))
	}
	cl, err := d.climbToCapabilityList(ctx, p, h)
	var bare *bareError
	if errors.As(err, &bare) {
		return d.fromBare(ctx, bare)
	}
	if err != nil {
		return "", err
	}
	return d.fromCapabilityListURL(ctx, cl)
}

// climbToCapabilityList follows rel="up" (through rel="index" when a part
// has no up link) from a capability document to its Capability List.
func (d *discoverer) climbToCapabilityList(ctx context.Context, p *page, h *resourcesync.Header) (string, error) {
	seen := map[string]bool{p.url: true}
	for range maxUpLinks {
		if up, ok := h.Link(resourcesync.RelUp); ok {
			return resourcesync.Resolve(p.url, up.Href), nil
		}
		ix, ok := h.Link(resourcesync.RelIndex)
		if !ok {
			return "", &bareError{url: p.url, capability: h.Capability()}
		}
		next := resourcesync.Resolve(p.url, ix.Href)
		if seen[next] {
			return "", fmt.Errorf("%s: rel=\"index\" links loop back to %s", p.url, next)
		}
		seen[next] = true
		np, err := d.open(ctx, next, probe)
		if err != nil {
			return "", fmt.Errorf("follow rel=\"index\" of %s: %w", p.url, err)
		}
		nh, ok, err := d.header(np)
		if err != nil {
			return "", err
		}
		if !ok || nh.Capability() != h.Capability() {
			got := resourcesync.Capability("")
			if ok {
				got = nh.Capability()
			}
			return "", fmt.Errorf("%s says its index is %s, but that is a %s", p.url, np.url, got.Name())
		}
		p, h = np, nh
	}
	return "", fmt.Errorf("%s: more than %d rel=\"index\" links without reaching a Capability List", p.url, maxUpLinks)
}

// fromCapabilityListURL reads a Capability List and climbs to its Source
// Description, which names every set; without one, the set found is the
// Source's only known set. It returns the set's Capability List URL (the
// final one, after redirects).
func (d *discoverer) fromCapabilityListURL(ctx context.Context, clURL string) (string, error) {
	p, err := d.open(ctx, clURL, capabilityList)
	if err != nil {
		return "", fmt.Errorf("open Capability List %s: %w", clURL, err)
	}
	return p.url, d.fromCapabilityList(ctx, p)
}

func (d *discoverer) fromCapabilityList(ctx context.Context, p *page) error {
	h, ok, err := d.header(p)
	if err != nil {
		return err
	}
	if !ok || h.Capability() != resourcesync.CapCapabilityList {
		got := resourcesync.Capability("")
		if ok {
			got = h.Capability()
		}
		return fmt.Errorf("%s is pointed at as a Capability List, but it is a %s", p.url, got.Name())
	}
	up, ok := h.Link(resourcesync.RelUp)
	if !ok {
		d.warn("Capability List %s has no rel=\"up\" link to a Source Description; using it alone", p.url)
		return d.addSet(ctx, p.url, "")
	}
	sd := resourcesync.Resolve(p.url, up.Href)
	if d.res.SourceDescription != "" && d.res.SourceDescription == sd {
		if _, named := d.res.Set(p.url); named {
			return nil // already read: it names this set
		}
		d.warn("Source Description %s does not name the Capability List %s that points at it; adding it", sd, p.url)
		return d.addSet(ctx, p.url, "")
	}
	sp, err := d.open(ctx, sd, description)
	if err != nil {
		if errors.Is(err, resourcesync.ErrUnavailable) {
			return err
		}
		d.warn("Source Description %s (rel=\"up\" of %s) cannot be read (%v); using the Capability List alone", sd, p.url, err)
		d.partial = true
		return d.addSet(ctx, p.url, "")
	}
	sh, ok, err := d.header(sp)
	if err != nil {
		return err
	}
	if !ok || sh.Capability() != resourcesync.CapDescription {
		got := resourcesync.Capability("")
		if ok {
			got = sh.Capability()
		}
		return fmt.Errorf("%s names %s as its Source Description (rel=\"up\"), but that is a %s", p.url, sp.url, got.Name())
	}
	return d.fromSourceDescription(ctx, sp.url, p.url)
}

// fromSourceDescription reads a Source Description (or its index) and every
// Capability List it names. via is the Capability List discovery came from,
// which must be among them.
func (d *discoverer) fromSourceDescription(ctx context.Context, sdURL, via string) error {
	if d.res.SourceDescription != "" && d.res.SourceDescription != sdURL {
		d.warn("a second Source Description %s (besides %s); its sets are added", sdURL, d.res.SourceDescription)
	}
	if d.res.SourceDescription == "" {
		d.res.SourceDescription = sdURL
	}
	var cls []string
	h, err := resourcesync.Walk(ctx, d.opener(description), sdURL, resourcesync.CapDescription, resourcesync.WalkOptions{Limits: d.opts.Limits},
		func(_ *resourcesync.Part, e *resourcesync.Entry) error {
			if e.MD.Capability != "" && e.MD.Capability != resourcesync.CapCapabilityList {
				d.warn("Source Description %s lists %s as a %s; only Capability Lists belong there (skipped)", sdURL, e.Loc, e.MD.Capability.Name())
				return nil
			}
			cls = append(cls, e.Loc)
			return nil
		})
	if err != nil {
		return fmt.Errorf("read Source Description %s: %w", sdURL, err)
	}
	if l, ok := h.Link(resourcesync.RelDescribedBy); ok && d.res.DescribedBy == "" {
		d.res.DescribedBy = resourcesync.Resolve(sdURL, l.Href)
	}
	found := via == ""
	for _, cl := range cls {
		if cl == via {
			found = true
		}
		if err := d.addSet(ctx, cl, sdURL); err != nil {
			return err
		}
	}
	if !found {
		d.warn("Source Description %s does not name the Capability List %s that points at it; adding it", sdURL, via)
		return d.addSet(ctx, via, "")
	}
	if len(cls) == 0 {
		d.warn("Source Description %s names no Capability List", sdURL)
	}
	return nil
}

// addSet reads one Capability List into a set and checks the documents it
// names (checkDocs). A Capability List that cannot be read, or names a
// document that is not what it says, becomes a set with Err; only an
// unreachable Source stops discovery.
func (d *discoverer) addSet(ctx context.Context, clURL, sdURL string) error {
	if _, dup := d.res.Set(clURL); dup {
		return nil
	}
	s := &SetInfo{CapabilityList: clURL}
	d.res.Sets = append(d.res.Sets, s)
	seen := map[resourcesync.Capability]string{}
	h, err := resourcesync.Walk(ctx, d.opener(capabilityList), clURL, resourcesync.CapCapabilityList, resourcesync.WalkOptions{Limits: d.opts.Limits},
		func(_ *resourcesync.Part, e *resourcesync.Entry) error {
			c := e.MD.Capability
			if c == "" {
				d.warn("Capability List %s: entry %s has no capability (skipped)", clURL, e.Loc)
				return nil
			}
			if prev, dup := seen[c]; dup {
				d.warn("Capability List %s names a %s twice (%s and %s); the standard allows one, using the first", clURL, c.Name(), prev, e.Loc)
				return nil
			}
			seen[c] = e.Loc
			doc := CapabilityDoc{Capability: c, URL: e.Loc, LastMod: e.LastMod}
			if hub, ok := e.Link(resourcesync.RelHub); ok {
				doc.Hub = resourcesync.Resolve(clURL, hub.Href)
			}
			s.Capabilities = append(s.Capabilities, doc)
			return nil
		})
	if err != nil {
		if errors.Is(err, resourcesync.ErrUnavailable) || errors.Is(err, ErrTooManyDocuments) || ctx.Err() != nil {
			return err
		}
		s.Err = fmt.Errorf("read Capability List %s: %w", clURL, err)
		if sdURL != "" {
			s.Err = fmt.Errorf("read Capability List %s (listed by %s): %w", clURL, sdURL, err)
		}
		s.Error = s.Err.Error()
		return nil
	}
	if l, ok := h.Link(resourcesync.RelDescribedBy); ok {
		s.DescribedBy = resourcesync.Resolve(clURL, l.Href)
	}
	if up, ok := h.Link(resourcesync.RelUp); ok && sdURL != "" {
		if got := resourcesync.Resolve(clURL, up.Href); got != sdURL {
			d.warn("Capability List %s points up to %s, not to the Source Description %s that lists it", clURL, got, sdURL)
		}
	}
	if err := d.checkDocs(ctx, s); err != nil {
		if ctx.Err() != nil {
			return err
		}
		s.Err = err
		s.Error = err.Error()
	}
	return nil
}
