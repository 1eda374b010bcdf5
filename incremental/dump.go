package incremental

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// A set may publish its changes as a Change Dump (§13): ZIP packages, each
// holding a Change Dump Manifest - a Change List with a path per change -
// and the bitstream of every created or updated resource as it was at that
// change. Each package plays the part of a Change List here: its URL keys
// the change records, its from and until bound its changes, and a closed
// package whose changes are all recorded is done and not read again. So
// the backlog, the units, the ledger and exact resume are those of Change
// Lists; only the bytes differ: a unit's origin is its final change's
// bitstream in its package, which the engine reads instead of fetching
// from the Source.
//
// A package's changes come from its manifest copy (rel="contents") when
// the dump links one, so that a package is downloaded only when a unit
// needs its bytes; else from the package's own manifest, which means
// downloading it. A package downloaded lives, in the run's temp directory,
// as long as the units that read it (transfer.Package): it is removed at
// once when every change it holds was already applied, else once the last
// of its units is done.

// readDumpHistory streams the set's Change Dump (or Change Dump Index)
// after the cursor into the backlog: packages in forward chronological
// order, each one's changes as a Change List's. Errors are those of
// readHistory; a package whose changes cannot be read (no usable manifest
// copy, and the package cannot be downloaded) is one, naming the package.
func (r *run) readDumpHistory(ctx context.Context) error {
	h := r.hist
	refs, earliest, err := r.packageRefs(ctx)
	h.earliest = earliest
	if err != nil {
		return err
	}
	for _, ref := range refs {
		if err := ctx.Err(); err != nil {
			return err
		}
		until := ref.MD.Until
		if !until.IsZero() {
			// Every change of a closed package is at or before its until.
			if until.Before(r.set.Cursor) {
				continue
			}
			done, err := r.d.Store.ListDone(ctx, r.set.ID, ref.Loc)
			if err != nil {
				return fmt.Errorf("look up package %s in the state: %w: %w", ref.Loc, resourcesync.ErrLocal, err)
			}
			if done {
				h.skipped++
				continue
			}
		}
		p := r.packages.New(ref)
		p.Acquire() // the planner's, until every unit is emitted
		h.lists = append(h.lists, list{url: ref.Loc, from: ref.MD.From, until: until, read: r.opts.Now(), pkg: p})
		if err := r.packageChanges(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// packageRefs walks the Change Dump and returns its package entries in the
// order they are applied, with the earliest time the dump covers.
func (r *run) packageRefs(ctx context.Context) ([]*resourcesync.Entry, time.Time, error) {
	// The packages of the archived Change Dumps that close a gap come
	// first (catchUp); they count as read from the archive.
	refs, err := r.archivedPackages(ctx)
	if err != nil {
		return nil, time.Time{}, err
	}
	r.sum.ArchiveLists = len(refs)
	var earliest time.Time
	seen := map[string]bool{}
	for _, e := range refs {
		seen[e.Loc] = true
	}
	hdr, err := resourcesync.Walk(ctx, r.d.Open, r.set.ChangeDump, resourcesync.CapChangeDump,
		resourcesync.WalkOptions{Limits: r.opts.Limits, StartPart: func(p *resourcesync.Part) error {
			if earliest.IsZero() {
				earliest = p.Header.MD.From
			}
			return nil
		}},
		func(_ *resourcesync.Part, e *resourcesync.Entry) error {
			if !seen[e.Loc] { // a package listed twice is one package
				seen[e.Loc] = true
				refs = append(refs, e)
			}
			return nil
		})
	if hdr != nil && !hdr.MD.From.IsZero() {
		earliest = hdr.MD.From
	}
	if err != nil {
		return nil, earliest, err
	}
	if earliest.IsZero() && len(refs) > 0 {
		earliest = refs[0].MD.From
	}
	if len(r.archived) > 0 {
		// The archive closed the gap up to the current dump's start.
		earliest = r.archived[0].from
	}
	// §13.1 asks for forward chronological order; a Source that breaks it
	// is sorted, as its Change Lists would be. Packages without a from
	// cannot be placed and keep the dump's order. A hole between two
	// packages after the cursor is a gap, as one between Change Lists.
	span := func(e *resourcesync.Entry) resourcesync.Span {
		return resourcesync.Span{URL: e.Loc, From: e.MD.From, Until: e.MD.Until}
	}
	resourcesync.SortSpans(refs, span)
	spans := make([]resourcesync.Span, len(refs))
	for i, e := range refs {
		spans[i] = span(e)
	}
	if hole := resourcesync.FindHole(r.set.ChangeDump, spans, r.set.Cursor); hole != nil {
		return nil, earliest, hole
	}
	return refs, earliest, nil
}

// packageChanges adds a package's changes at or after the cursor to the
// backlog: from its manifest copy when there is a usable one, else from
// the package itself, which is downloaded for it.
func (r *run) packageChanges(ctx context.Context, p *transfer.Package) error {
	if p.CopyURL != "" {
		var copyErr error
		pos := 0
		for e, err := range dumpzip.Contents(ctx, r.d.Open, p.CopyURL, p.Ref.Loc, resourcesync.CapChangeDumpManifest, r.opts.Limits) {
			if err != nil {
				copyErr = err
				break
			}
			pos++
			if err := r.addManifestEntry(ctx, p.CopyURL, e, pos); err != nil {
				return err
			}
		}
		if copyErr == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if pos > 0 {
			// Changes of a broken copy are in the backlog already: the
			// package cannot stand in for them.
			return fmt.Errorf("read the changes of package %s: manifest copy %s: %w", p.Ref.Loc, p.CopyURL, copyErr)
		}
		r.d.Log.Warn().Str("uri", p.CopyURL).Err(copyErr).Msg("manifest copy unusable; reading the package's own manifest")
	}
	members, err := p.Members(ctx)
	if err != nil {
		if errors.Is(err, transfer.ErrUnusable) {
			return fmt.Errorf("read the changes of package %s: %w", p.Ref.Loc, p.Err())
		}
		return err
	}
	for _, m := range members {
		if err := r.addManifestEntry(ctx, p.Ref.Loc+"#manifest.xml", m.Entry, m.Position); err != nil {
			return err
		}
	}
	return nil
}

// addManifestEntry adds one entry of a package's manifest (or its copy),
// at 1-based position pos. A change
// without a time is an error naming doc.
func (r *run) addManifestEntry(ctx context.Context, doc string, e *resourcesync.Entry, pos int) error {
	t := e.Time()
	if t.IsZero() {
		return &resourcesync.ParseError{Doc: doc, Line: e.Line, Entry: pos,
			Err: fmt.Errorf("%w: a change needs lastmod (or datetime)", resourcesync.ErrAttribute)}
	}
	// One dated before the cursor too: add tells a change listed out of
	// order from one applied.
	return r.add(ctx, resourcesync.ChangeEntry{Entry: e, List: doc, Position: pos, Time: t})
}

// dumpLinks are the links of a Change Dump manifest entry of a change of
// kind k that a Destination acts on (links, resourcesync.ActedOn) once
// this rule on patches (§14.4) is applied. In a Change Dump a patch is the
// member its link's path names, and it is used only when the entry has no
// bitstream of its own (no path): the whole version, in a package that is
// downloaded whole anyway, costs no more than the patch and cannot fail
// to apply. So only an updated change's entry without a path keeps its
// patch links: the unit then has no member origin, and the worker tries
// those that name a member (transfer.Unit.PatchPackage), else <loc>.
func dumpLinks(e *resourcesync.Entry, k resourcesync.Change, links []resourcesync.Link) []resourcesync.Link {
	if e.MD.Path == "" && k == resourcesync.ChangeUpdated {
		return links
	}
	return slices.DeleteFunc(links, func(l resourcesync.Link) bool { return l.Rel == resourcesync.RelPatch })
}

// changeOrigin is a unit's bytes as the bitstream of its final change in
// its Change Dump package, downloaded when first needed.
type changeOrigin struct {
	p    *transfer.Package
	pos  int
	uri  string
	kind resourcesync.Change
}

func newChangeOrigin(p *transfer.Package, c *resourcesync.Pending) changeOrigin {
	p.Acquire()
	return changeOrigin{p: p, pos: c.Position, uri: c.URI, kind: c.Change}
}

// Open returns the member holding the change's bitstream. The error wraps
// transfer.ErrUnusable when the package cannot be used (the bytes then
// come from the Source), is fatal, or concerns this change alone (a
// *dumpzip.MemberError, or a package whose manifest does not match the
// copy its changes were read from).
func (o changeOrigin) Open(ctx context.Context) (transfer.Fetcher, error) {
	m, err := o.p.Member(ctx, o.pos)
	if err != nil {
		return nil, err
	}
	if m == nil || m.Entry.Loc != o.uri || (m.Entry.MD.Change.Known() && m.Entry.MD.Change != o.kind) {
		return nil, fmt.Errorf("package %s: its manifest does not list %s %s at position %d as its manifest copy %s does",
			o.p.Ref.Loc, o.kind, o.uri, o.pos, o.p.CopyURL)
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

func (o changeOrigin) Release() { o.p.Release() }
