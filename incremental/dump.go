package incremental

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
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
// the history, the plan, the ledger and exact resume are those of Change
// Lists; only the bytes differ, read out of the package (the Member is the
// fetcher) instead of fetched from the Source.
//
// A package's changes come from its manifest copy (rel="contents") when
// the dump links one, so that a package is downloaded only when a resource
// needs its bytes; else from the package's own manifest, which means
// downloading it. Packages downloaded stay open until the run ends, in the
// run's temp directory, and are removed then (or at once, when every
// change they hold was already applied).

// dumpPackage is one Change Dump package of the history.
type dumpPackage struct {
	ref     *resourcesync.Entry // its entry in the Change Dump
	copyURL string              // its manifest copy; "" when the dump links none

	mu      sync.Mutex
	loaded  bool                    // a download was tried
	pkg     *dumpzip.Package        // open after a successful download
	members map[int]*dumpzip.Member // by manifest position
	err     error                   // why the package cannot be used
	warned  bool                    // the fallback to the Source was logged
}

// readDumpHistory reads the set's Change Dump (or Change Dump Index) after
// the cursor: packages in forward chronological order, each one's changes
// as readHistory reads a Change List's. Errors are those of readHistory;
// a package whose changes cannot be read (no usable manifest copy, and
// the package cannot be downloaded) is one, naming the package.
func (r *run) readDumpHistory(ctx context.Context) (*history, error) {
	h := &history{}
	refs, earliest, err := r.packageRefs(ctx)
	h.earliest = earliest
	if err != nil {
		return h, err
	}
	for _, ref := range refs {
		if err := ctx.Err(); err != nil {
			return h, err
		}
		until := ref.MD.Until
		if !until.IsZero() {
			// Every change of a closed package is at or before its until.
			if until.Before(r.set.Cursor) {
				continue
			}
			done, err := r.d.Store.ListDone(ctx, r.set.ID, ref.Loc)
			if err != nil {
				return h, fmt.Errorf("look up package %s in the state: %w: %w", ref.Loc, resourcesync.ErrLocal, err)
			}
			if done {
				h.skipped++
				continue
			}
		}
		dp := &dumpPackage{ref: ref}
		if l, ok := ref.Link(resourcesync.RelContents); ok {
			dp.copyURL = resourcesync.Resolve(ref.Loc, l.Href)
		}
		changes, skipped, err := r.packageChanges(ctx, dp)
		if err != nil {
			dp.close(r)
			return h, err
		}
		l := list{url: ref.Loc, from: ref.MD.From, until: until, skipped: skipped, pkg: dp}
		if err := r.addList(ctx, h, l, changes); err != nil {
			dp.close(r)
			return h, err
		}
		if dp.pkg != nil && allDone(h.changes[h.lists[len(h.lists)-1].start:]) {
			dp.close(r) // nothing of it will be applied
		}
	}
	r.warnUnknown(h)
	return h, nil
}

// packageRefs walks the Change Dump and returns its package entries in the
// order they are applied, with the earliest time the dump covers.
func (r *run) packageRefs(ctx context.Context) ([]*resourcesync.Entry, time.Time, error) {
	var refs []*resourcesync.Entry
	var earliest time.Time
	seen := map[string]bool{}
	hdr, err := resourcesync.Walk(ctx, r.openDoc, r.set.ChangeDump, resourcesync.CapChangeDump,
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
	// §13.1 asks for forward chronological order; a Source that breaks it
	// is sorted, as its Change Lists would be. Packages without a from
	// cannot be placed and keep the dump's order.
	if !slices.ContainsFunc(refs, func(e *resourcesync.Entry) bool { return e.MD.From.IsZero() }) {
		slices.SortStableFunc(refs, func(a, b *resourcesync.Entry) int { return a.MD.From.Compare(b.MD.From) })
	}
	return refs, earliest, nil
}

// packageChanges reads a package's changes at or after the cursor, sorted
// as a Change List's: from its manifest copy when there is a usable one,
// else from the package itself, which is downloaded for it.
func (r *run) packageChanges(ctx context.Context, dp *dumpPackage) ([]resourcesync.ChangeEntry, int, error) {
	if dp.copyURL != "" {
		var entries []*resourcesync.Entry
		var copyErr error
		for e, err := range dumpzip.Contents(ctx, r.openDoc, dp.copyURL, dp.ref.Loc, resourcesync.CapChangeDumpManifest, r.opts.Limits) {
			if err != nil {
				copyErr = err
				break
			}
			entries = append(entries, e)
		}
		if copyErr == nil {
			return r.sortChanges(dp.copyURL, entries)
		}
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		r.d.Log.Warn().Str("uri", dp.copyURL).Err(copyErr).Msg("manifest copy unusable; reading the package's own manifest")
	}
	if err := r.load(ctx, dp); err != nil {
		return nil, 0, err
	}
	if dp.err != nil {
		return nil, 0, fmt.Errorf("read the changes of package %s: %w", dp.ref.Loc, dp.err)
	}
	entries := make([]*resourcesync.Entry, 0, len(dp.members))
	for pos := 1; pos <= len(dp.members); pos++ {
		entries = append(entries, dp.members[pos].Entry)
	}
	return r.sortChanges(dp.ref.Loc+"#manifest.xml", entries)
}

// sortChanges turns a manifest's entries (in manifest order) into the
// changes at or after the cursor, forward chronological, equal times in
// manifest order. A change without a time is an error naming doc.
func (r *run) sortChanges(doc string, entries []*resourcesync.Entry) ([]resourcesync.ChangeEntry, int, error) {
	var out []resourcesync.ChangeEntry
	skipped := 0
	for i, e := range entries {
		t := e.Time()
		if t.IsZero() {
			return nil, 0, &resourcesync.ParseError{Doc: doc, Line: e.Line, Entry: i + 1,
				Err: fmt.Errorf("%w: a change needs lastmod (or datetime)", resourcesync.ErrAttribute)}
		}
		if t.Before(r.set.Cursor) {
			skipped++
			continue
		}
		out = append(out, resourcesync.ChangeEntry{Entry: e, List: doc, Position: i + 1, Time: t})
	}
	slices.SortStableFunc(out, func(a, b resourcesync.ChangeEntry) int { return a.Time.Compare(b.Time) })
	return out, skipped, nil
}

// load downloads and opens the package once, and reads its manifest. It
// returns an error only when the run must stop (local disk, cancellation,
// the Source down); a package that cannot be used has dp.err set instead.
// It is safe for concurrent use: the first caller downloads, the others
// wait for it.
func (r *run) load(ctx context.Context, dp *dumpPackage) error {
	dp.mu.Lock()
	defer dp.mu.Unlock()
	if dp.loaded {
		return nil
	}
	pkg, err := dumpzip.Download(ctx, r.d.Fetcher, dp.ref, resourcesync.CapChangeDumpManifest, r.opts.Dump.For(r.d.TempDir, r.opts.Limits))
	if err != nil {
		if err = transfer.Classify(ctx, err); transfer.Fatal(err) {
			return err
		}
		if berr := r.breaker.Note(dp.ref.Loc, err); berr != nil {
			return berr
		}
		dp.loaded, dp.err = true, err
		return nil
	}
	_ = r.breaker.Note(dp.ref.Loc, nil)
	r.packages.Add(1)
	members := map[int]*dumpzip.Member{}
	for {
		m, err := pkg.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			pkg.Close()
			dp.loaded, dp.err = true, fmt.Errorf("package %s: %w", dp.ref.Loc, err)
			return nil
		}
		members[m.Position] = m
	}
	dp.loaded, dp.pkg, dp.members = true, pkg, members
	r.d.Log.Debug().Str("uri", dp.ref.Loc).Int("entries", len(members)).Msg("package downloaded")
	return nil
}

// errNoPackage: the change's package cannot be used; its bytes must come
// from the Source.
var errNoPackage = errors.New("package unusable")

// member returns the bitstream of change c out of its package,
// downloading the package the first time. The error is fatal (as load's),
// errNoPackage when the package cannot be used, or about this change
// alone (a *dumpzip.MemberError, or a package whose manifest does not
// match the copy its changes were read from).
func (r *run) member(ctx context.Context, c *change) (*dumpzip.Member, error) {
	dp := r.hist.lists[c.list].pkg
	if err := r.load(ctx, dp); err != nil {
		return nil, err
	}
	dp.mu.Lock()
	defer dp.mu.Unlock()
	switch {
	case dp.err != nil:
		if !dp.warned {
			dp.warned = true
			r.d.Log.Warn().Str("uri", dp.ref.Loc).Err(dp.err).Msg("package unusable; the resources it holds are fetched from the Source")
		}
		return nil, fmt.Errorf("%w: %w", errNoPackage, dp.err)
	case dp.pkg == nil:
		return nil, fmt.Errorf("%w: package %s: closed", errNoPackage, dp.ref.Loc)
	}
	m, ok := dp.members[int(c.pos)]
	if !ok || m.Entry.Loc != c.uri || (m.Entry.MD.Change.Known() && m.Entry.MD.Change != c.kind) {
		return nil, fmt.Errorf("package %s: its manifest does not list %s %s at position %d as its manifest copy %s does",
			dp.ref.Loc, c.kind, c.uri, c.pos, dp.copyURL)
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// close removes the package's temp file, if it was downloaded.
func (dp *dumpPackage) close(r *run) {
	dp.mu.Lock()
	defer dp.mu.Unlock()
	if dp.pkg != nil {
		if err := dp.pkg.Close(); err != nil {
			r.d.Log.Warn().Str("uri", dp.ref.Loc).Err(err).Msg("cannot remove a package's temp file")
		}
		dp.pkg, dp.members = nil, nil
	}
}

// closePackages removes every package the run downloaded.
func (r *run) closePackages() {
	if r.hist == nil {
		return
	}
	for i := range r.hist.lists {
		if dp := r.hist.lists[i].pkg; dp != nil {
			dp.close(r)
		}
	}
}

// openDoc opens a document of the Source for the protocol readers.
func (r *run) openDoc(ctx context.Context, u string) (string, io.ReadCloser, error) {
	final, _, body, err := r.d.Fetcher.OpenDocument(ctx, u)
	return final, body, err
}

func allDone(cs []change) bool {
	for i := range cs {
		if !cs[i].done {
			return false
		}
	}
	return true
}
