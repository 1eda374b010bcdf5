package audit

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// current builds the Source's current state of the set in the listing
// (§5.2: "an up-to-date list of resources ... compiled on the basis of a
// Resource List and Change Lists"): every entry of the Resource List, in
// order, then every change published at or after the list's at, in the
// order the Change Lists give (forward chronological). A change at exactly
// at may or may not be in the list; applying it again is harmless.
func (a *auditor) current(ctx context.Context) error {
	open := a.d.Open
	h, err := a.readList(ctx, open)
	if err != nil {
		return err
	}
	at := h.MD.At
	a.sr.At = at
	if a.set.ChangeList == "" {
		return nil
	}
	if at.IsZero() {
		a.warn("the Resource List has no at, so the changes since it cannot be told apart: its Change Lists were not applied")
		return nil
	}
	hist, err := resourcesync.ReadHistory(ctx, open, a.set.ChangeList,
		resourcesync.HistoryOptions{Limits: a.opts.Limits, Since: at},
		func(p *resourcesync.ChangeListPart) error {
			for _, ch := range p.Changes {
				if err := a.change(ch); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	if !hist.Earliest.IsZero() && hist.Earliest.After(at) {
		a.warn(fmt.Sprintf("the Change Lists begin at %s, after the Resource List's at %s: changes in between are unknown, so the Source's current state may be incomplete",
			resourcesync.FormatDatetime(hist.Earliest), resourcesync.FormatDatetime(at)))
	}
	return nil
}

// listBatch is how many entries the reader of the Resource List hands
// over at a time.
const listBatch = 256

// readList streams the Resource List (index parts in order) into the
// listing: one goroutine reads and parses, another maps and stores, in
// document order (a URI listed twice: the last entry wins).
func (a *auditor) readList(ctx context.Context, open resourcesync.Opener) (*resourcesync.Header, error) {
	g, gctx := errgroup.WithContext(ctx)
	batches := make(chan []listedEntry, 4)
	var h *resourcesync.Header
	g.Go(func() error {
		defer close(batches)
		batch := make([]listedEntry, 0, listBatch)
		send := func() error {
			select {
			case batches <- batch:
				batch = make([]listedEntry, 0, listBatch)
				return nil
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		var err error
		h, err = resourcesync.Walk(gctx, open, a.set.ResourceList, resourcesync.CapResourceList,
			resourcesync.WalkOptions{Limits: a.opts.Limits, Read: a.opts.Progress.ListRead},
			func(_ *resourcesync.Part, e *resourcesync.Entry) error {
				a.opts.Progress.Listed()
				// A companion is taken or left out with its resource.
				leftOut := a.opts.Filter.CheckEntry(e.Loc, e.Links)
				batch = append(batch, listedEntry{Listed: resourcesync.Listed{
					URI: e.Loc, Length: e.MD.Length, HasLength: e.MD.HasLength, Fixity: e.MD.Hash, LastMod: e.LastMod,
				}, leftOut: leftOut})
				batch = append(batch, a.companions(e.Links, leftOut)...)
				if len(batch) < listBatch {
					return nil
				}
				return send()
			})
		if err == nil && len(batch) > 0 {
			err = send()
		}
		return err
	})
	g.Go(func() error {
		for b := range batches {
			for _, l := range b {
				if err := a.list(l); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return h, g.Wait()
}

// listedEntry is a resource the Source lists, with what the filters say
// of it (nil: taken).
type listedEntry struct {
	resourcesync.Listed
	leftOut error
}

// list records what the Source says of one resource, replacing what an
// earlier entry or change said.
func (a *auditor) list(le listedEntry) error {
	l := le.Listed
	if le.leftOut != nil {
		a.unlisted[l.URI] = le.leftOut
		return nil
	}
	if err := a.opts.Scope.Check(l.URI); err != nil {
		a.unlisted[l.URI] = err
		return nil
	}
	p, err := a.d.Mirror.Path(l.URI)
	if err != nil {
		a.unlisted[l.URI] = err
		return nil
	}
	l.Path = p
	if err := a.listing.Add(l); err != nil {
		return fmt.Errorf("list %s: %w: %w", l.URI, resourcesync.ErrLocal, err)
	}
	a.tree.Add(p)
	return nil
}

// change brings the listing forward with one change.
func (a *auditor) change(ch resourcesync.ChangeEntry) error {
	switch ch.MD.Change {
	case resourcesync.ChangeCreated, resourcesync.ChangeUpdated:
		lastmod := ch.LastMod
		if lastmod.IsZero() {
			lastmod = ch.Time // a ResourceSync 1.1 entry with datetime only
		}
		// The change's metadata is the resource's latest: a change without
		// a hash leaves the resource without one (unverifiable).
		leftOut := a.opts.Filter.CheckEntry(ch.Loc, ch.Links)
		if err := a.list(listedEntry{Listed: resourcesync.Listed{
			URI: ch.Loc, Length: ch.MD.Length, HasLength: ch.MD.HasLength, Fixity: ch.MD.Hash, LastMod: lastmod,
		}, leftOut: leftOut}); err != nil {
			return err
		}
		for _, l := range a.companions(ch.Links, leftOut) {
			if err := a.list(l); err != nil {
				return err
			}
		}
	case resourcesync.ChangeDeleted:
		// A deletion the filters leave out keeps its companions, as a
		// sync does.
		if a.opts.Filter.CheckEntry(ch.Loc, ch.Links) == nil {
			for _, l := range a.companions(ch.Links, nil) {
				if err := a.unlist(l.URI); err != nil {
					return err
				}
			}
		}
		if _, ok := a.unlisted[ch.Loc]; ok {
			delete(a.unlisted, ch.Loc)
			break
		}
		p, err := a.d.Mirror.Path(ch.Loc)
		if err != nil {
			break // never listed: it maps nowhere
		}
		if err := a.listing.Remove(p); err != nil {
			return fmt.Errorf("unlist %s: %w: %w", ch.Loc, resourcesync.ErrLocal, err)
		}
		a.removed++
	default:
		a.warn(fmt.Sprintf("changes of unknown type %q were ignored", ch.MD.Change))
		return nil
	}
	a.sr.ChangesApplied++
	if ch.Time.After(a.sr.Through) {
		a.sr.Through = ch.Time
	}
	return nil
}

// countUnlisted counts the resources that are not in the listing: out of
// scope (skipped, as a baseline skips them) or mapping to no path (an
// error of the Source's, which a baseline records as a failure).
func (a *auditor) countUnlisted() {
	for uri, err := range a.unlisted {
		a.col.listed()
		if errors.Is(err, resourcesync.ErrOutOfScope) {
			a.col.skipped()
			continue
		}
		if errors.Is(err, resourcesync.ErrLeftOut) {
			a.col.leftOut()
			continue
		}
		a.col.problem(Problem{URI: uri, Message: err.Error()})
	}
}

// warn adds a warning to the set's report, once.
func (a *auditor) warn(msg string) {
	if !slices.Contains(a.sr.Warnings, msg) {
		a.sr.Warnings = append(a.sr.Warnings, msg)
	}
}

// companions are the resources a sync fetches along with an entry's own
// (Options.Alternates, WithMetadata), as their links describe them.
// leftOut is what the filters said of the entry's resource: its
// companions follow it.
func (a *auditor) companions(links []resourcesync.Link, leftOut error) []listedEntry {
	if len(a.opts.Alternates) == 0 && !a.opts.WithMetadata {
		return nil
	}
	var out []listedEntry
	for _, l := range resourcesync.Companions(links, a.opts.Alternates, a.opts.WithMetadata) {
		out = append(out, listedEntry{Listed: resourcesync.Listed{URI: l.Href, Length: l.Length, HasLength: l.HasLength, Fixity: l.Hash, LastMod: l.Modified}, leftOut: leftOut})
	}
	return out
}

// unlist forgets a companion its resource's deletion deletes.
func (a *auditor) unlist(uri string) error {
	if _, ok := a.unlisted[uri]; ok {
		delete(a.unlisted, uri)
		return nil
	}
	p, err := a.d.Mirror.Path(uri)
	if err != nil {
		return nil // never listed: it maps nowhere
	}
	if err := a.listing.Remove(p); err != nil {
		return fmt.Errorf("unlist %s: %w: %w", uri, resourcesync.ErrLocal, err)
	}
	return nil
}
