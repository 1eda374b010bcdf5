package baseline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// treeRoots is the set's mapped tree (resourcesync.Tree, which audit
// shares so that both agree on which files belong to a set). Deletion
// never looks outside it (except at files the state says this set holds).
type treeRoots struct{ t resourcesync.Tree }

func (r *treeRoots) add(path string)           { r.t.Add(path) }
func (r *treeRoots) contains(path string) bool { return r.t.Contains(path) }
func (r *treeRoots) sorted() []string          { return r.t.Roots() }

// candidate is a local file the list no longer names.
type candidate struct {
	path string
	uri  string // when this set holds it
}

// deletePass runs once every part of the list was read: it finds the local
// files of the set that the list does not name - files resync-dest wrote
// and files it never wrote, as rsync --delete does - and deletes them when
// asked, behind the --max-delete guard. Files another set holds and
// DEST/.resync-dest/ are never touched.
func (r *run) deletePass(ctx context.Context) error {
	cands, stale, err := r.deletionCandidates(ctx)
	if err != nil {
		return err
	}
	n := int64(len(cands))
	if n > 0 && !r.opts.Delete {
		r.sum.WouldDelete = n
		for _, c := range cands {
			// The command logs the count at info (hundreds of lines would
			// bury the rest).
			r.d.Log.Debug().Str("path", c.path).Str("uri", c.uri).Msg("not listed by the Source; would delete with --delete")
		}
	}
	if r.opts.Delete && n > 0 {
		total, err := r.d.Store.HeldCount(ctx, r.set.ID)
		if err != nil {
			return fmt.Errorf("count the set's resources: %w: %w", resourcesync.ErrLocal, err)
		}
		if !r.opts.MaxDelete.Allows(n, total) {
			return fmt.Errorf("%w: deleting %d local files of a set of %d exceeds --max-delete %s; nothing was deleted (raise --max-delete if this is intended)",
				resourcesync.ErrSafetyStop, n, total, r.opts.MaxDelete)
		}
	}
	if r.opts.DryRun {
		// Each file the list no longer names is an entry of the plan:
		// deleted with --delete, else kept.
		r.sum.Plan.Considered += n
		if !r.opts.Delete {
			r.sum.Plan.Keep += n
			return nil
		}
		r.sum.Plan.Delete += n
		r.opts.Progress.Expect(n)
		for _, c := range cands {
			if r.opts.Plan != nil {
				fmt.Fprintf(r.opts.Plan, "delete %s\n", c.path)
			}
			r.opts.Progress.Deleted()
		}
		r.sum.WouldDelete = n
		return nil
	}
	if r.opts.Delete {
		r.opts.Progress.Expect(n) // not listed, yet work the run does
	}
	var b resourcesync.Batch
	b.Removed = append(b.Removed, stale...)
	if r.opts.Delete {
		for _, c := range cands {
			if err := r.d.Mirror.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("delete %s: %w: %w", c.path, resourcesync.ErrLocal, err)
			}
			r.sum.Deleted++
			r.opts.Progress.Deleted()
			r.d.Log.Debug().Str("path", c.path).Str("uri", c.uri).Msg("deleted") // the command logs the count at info
			if c.uri != "" {
				b.Removed = append(b.Removed, c.uri)
			}
		}
	}
	if b.Empty() {
		return nil
	}
	if err := r.d.Mirror.Sync(); err != nil {
		return fmt.Errorf("make deletions durable: %w: %w", resourcesync.ErrLocal, err)
	}
	if err := r.d.Store.Commit(ctx, r.set.ID, &b); err != nil {
		return fmt.Errorf("record deletions: %w: %w", resourcesync.ErrLocal, err)
	}
	return nil
}

// deletionCandidates walks the set's tree and its held records. stale are
// URIs the state holds whose files are gone and which the list no longer
// names: their records are dropped whatever the options.
func (r *run) deletionCandidates(ctx context.Context) (cands []candidate, stale []string, err error) {
	roots := r.roots
	for _, root := range roots.sorted() {
		err := r.d.Mirror.Walk(root, func(rel string, info fs.FileInfo) error {
			listed, err := r.listing.Has(rel)
			if err != nil || listed {
				return err
			}
			holders, err := r.d.Store.PathHolders(ctx, rel)
			if err != nil {
				return err
			}
			c := candidate{path: rel}
			if !transfer.MayRemove(r.set.ID, holders, len(holders) > 0, roots.t, rel) {
				return nil // another set's file
			}
			var held *resourcesync.Held
			if len(holders) > 0 {
				h, ok, err := r.d.Store.HeldAt(ctx, r.set.ID, rel)
				if err != nil {
					return err
				}
				if ok {
					c.uri, held = h.URI, &h
				}
			}
			if r.leftOut(rel, held) {
				return nil
			}
			cands = append(cands, c)
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("walk %s for files the Source no longer lists: %w: %w", root, resourcesync.ErrLocal, err)
		}
	}
	// A record inside the tree whose file exists was seen by the walk; one
	// whose file is gone is stale wherever it points. The Stat comes
	// first: it is cheaper than asking the listing.
	err = r.d.Store.EachHeld(ctx, r.set.ID, func(h resourcesync.Held) error {
		info, serr := r.d.Mirror.Stat(h.Path)
		gone := serr != nil && errors.Is(serr, fs.ErrNotExist)
		if roots.contains(h.Path) && !gone {
			return nil
		}
		listed, err := r.listing.Has(h.Path)
		if err != nil || listed {
			return err
		}
		switch {
		case gone:
			stale = append(stale, h.URI)
		case serr == nil && info.Mode().IsRegular():
			holders, err := r.d.Store.PathHolders(ctx, h.Path)
			if err != nil {
				return err
			}
			if transfer.MayRemove(r.set.ID, holders, true, roots.t, h.Path) && !r.leftOut(h.Path, &h) {
				cands = append(cands, candidate{path: h.Path, uri: h.URI})
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("find held files the Source no longer lists: %w: %w", resourcesync.ErrLocal, err)
	}
	return cands, stale, nil
}

// sweepPartials removes the partial downloads an earlier run kept for
// paths of the set's tree that the list no longer names: they will never
// be resumed. Whatever --delete says: they were never part of the mirror.
func (r *run) sweepPartials() error {
	if r.listing == nil {
		return r.sweepPackages() // a fresh start: every partial is of a listed path
	}
	n, err := r.d.Mirror.SweepPartials(func(rel string) (bool, error) {
		if !r.roots.contains(rel) {
			return true, nil // another set's
		}
		return r.listing.Has(rel)
	})
	if err != nil {
		return fmt.Errorf("sweep partial downloads: %w: %w", resourcesync.ErrLocal, err)
	}
	if n > 0 {
		r.d.Log.Info().Int("partials", n).Msg("removed the partial downloads of resources no longer listed")
	}
	return r.sweepPackages()
}

// sweepPackages removes the partial downloads of packages the Resource
// Dump no longer names.
func (r *run) sweepPackages() error {
	if r.packages == nil {
		return nil
	}
	n, err := r.packages.SweepPartials()
	if err != nil {
		return fmt.Errorf("sweep partial packages: %w: %w", resourcesync.ErrLocal, err)
	}
	if n > 0 {
		r.d.Log.Info().Int("partials", n).Msg("removed the partial downloads of packages the dump no longer names")
	}
	return nil
}

// unmapper is what the Mirror may also offer: the URI whose resource the
// mapping stores at a path (mirror.Mapper.URI).
type unmapper interface {
	URI(rel, scheme string) (string, error)
}

// leftOut reports whether the file at rel is of a resource the filters
// leave out - by the set's record of it (h: its URI, and its collection
// links for --collection), else by the URI the mapping would store there,
// whose membership is unknown - and so is kept, as rclone keeps excluded
// files.
func (r *run) leftOut(rel string, h *resourcesync.Held) bool {
	if r.opts.Filter.Empty() {
		return false
	}
	if h != nil {
		return r.opts.Filter.CheckHeld(h.URI, h) != nil
	}
	um, ok := r.d.Mirror.(unmapper)
	if !ok {
		return false
	}
	scheme := "http"
	if u, err := url.Parse(r.set.CapabilityList); err == nil && u.Scheme == "https" {
		scheme = "https"
	}
	uri, err := um.URI(rel, scheme)
	if err != nil {
		return false
	}
	return r.opts.Filter.Check(uri) != nil
}
