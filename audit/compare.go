package audit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"net/url"
	"syscall"

	"golang.org/x/sync/errgroup"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// job is a listed resource with a local file at its path, to check, and
// what the state recorded of it (nil when the set does not hold it there).
type job struct {
	l    resourcesync.Listed
	info fs.FileInfo
	held *resourcesync.Held
}

// compare merges the listing with the mirror: one goroutine walks the
// listing, the set's tree and the state's records of the set together,
// all in path byte order, and reports what is missing or extra; N workers
// check the files that are both listed and present.
func (a *auditor) compare(ctx context.Context) error {
	if a.removed > 0 {
		// Deleted resources may have narrowed the tree: make it again from
		// what is listed now, as a baseline of the current list would.
		a.tree = resourcesync.Tree{}
		if err := a.listing.Each(func(l resourcesync.Listed) error {
			a.tree.Add(l.Path)
			return nil
		}); err != nil {
			return fmt.Errorf("read the listing: %w: %w", resourcesync.ErrLocal, err)
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	jobs := make(chan []job, a.opts.Workers*2)
	g.Go(func() error {
		defer close(jobs)
		return a.merge(gctx, jobs)
	})
	for range a.opts.Workers {
		g.Go(func() error {
			for batch := range jobs {
				for _, j := range batch {
					if err := gctx.Err(); err != nil {
						return err
					}
					a.check(j)
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// jobBatch is how many jobs the merge hands a worker at a time: one
// channel operation (and goroutine wake-up) per file costs more than
// checking a small file from the page cache.
const jobBatch = 32

// merger is the state of the merge: the next listed entry and the next
// record of the state, each from a walk in path byte order.
type merger struct {
	a     *auditor
	ctx   context.Context
	jobs  chan<- []job
	batch []job

	l          resourcesync.Listed
	lok        bool
	nextListed func() (resourcesync.Listed, bool)
	h          resourcesync.Held
	hok        bool
	nextHeld   func() (resourcesync.Held, bool)
}

// merge walks the listing, the set's tree on disk and the state's records
// together. Every listed path lies in the tree (the tree is made from
// them), so one pass decides every path: listed only is missing, on disk
// only is extra, both is a job for the workers. Records of files outside
// the tree are files the Source no longer lists anywhere near: extra when
// they are still on disk, as baseline --delete sees them.
func (a *auditor) merge(ctx context.Context, jobs chan<- []job) error {
	m := &merger{a: a, ctx: ctx, jobs: jobs}
	var listingDone, heldDone func() error
	m.nextListed, listingDone = pull(a.listing.Each)
	defer listingDone()
	eachHeld := func(func(resourcesync.Held) error) error { return nil }
	if a.set.ID != 0 {
		eachHeld = func(fn func(resourcesync.Held) error) error { return a.d.Store.EachHeld(ctx, a.set.ID, fn) }
	}
	m.nextHeld, heldDone = pull(eachHeld)
	defer heldDone()
	m.l, m.lok = m.nextListed()
	m.h, m.hok = m.nextHeld()
	for _, root := range a.tree.Roots() {
		if err := a.d.Mirror.Walk(root, m.file); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, resourcesync.ErrLocal) {
				return err
			}
			return fmt.Errorf("walk %s: %w: %w", root, resourcesync.ErrLocal, err)
		}
	}
	if err := m.flush(); err != nil {
		return err
	}
	for m.lok {
		m.missing()
	}
	for m.hok {
		m.outside()
	}
	if err := listingDone(); err != nil {
		return fmt.Errorf("read the listing: %w: %w", resourcesync.ErrLocal, err)
	}
	if err := heldDone(); err != nil {
		return fmt.Errorf("read what the set holds: %w: %w", resourcesync.ErrLocal, err)
	}
	return nil
}

// file is one file of the tree, in walk order.
func (m *merger) file(rel string, info fs.FileInfo) error {
	if err := m.ctx.Err(); err != nil {
		return err
	}
	for m.lok && m.l.Path < rel {
		m.missing()
	}
	for m.hok && m.h.Path < rel {
		m.outside()
	}
	listed := m.lok && m.l.Path == rel
	var rec *resourcesync.Held // the record of the listed URI, else any record at rel
	for m.hok && m.h.Path == rel {
		if rec == nil || (listed && m.h.URI == m.l.URI) {
			h := m.h
			rec = &h
		}
		m.h, m.hok = m.nextHeld()
	}
	if !listed {
		return m.a.extra(m.ctx, rel, rec)
	}
	// The record at the path is the file's, whether of the listed URI or
	// of a twin spelling of it (an http URI the Source now names as https,
	// a set whose Capability List moved): the engine judges a twin's file
	// by its record too, and takes it over.
	j := job{l: m.l, info: info, held: rec}
	m.a.col.listed()
	m.l, m.lok = m.nextListed()
	m.batch = append(m.batch, j)
	if len(m.batch) < jobBatch {
		return nil
	}
	return m.flush()
}

// flush hands the jobs gathered to the workers.
func (m *merger) flush() error {
	if len(m.batch) == 0 {
		return nil
	}
	select {
	case m.jobs <- m.batch:
		m.batch = make([]job, 0, jobBatch)
		return nil
	case <-m.ctx.Done():
		return m.ctx.Err()
	}
}

// missing reports the current listed entry, which has no file.
func (m *merger) missing() {
	m.a.col.listed()
	d := Difference{URI: m.l.URI, Path: m.l.Path}
	if m.hok && m.h.Path == m.l.Path && m.h.URI == m.l.URI {
		d.Links = resourcesync.LinkRecords(m.h.Links) // held, its file gone
	}
	m.a.col.missing(d)
	m.l, m.lok = m.nextListed()
}

// outside looks at the current record, whose path the walk did not
// visit: inside the tree there is no file there (nothing to report: the
// listing says whether it is missing), outside it the file is extra if it
// is still there.
func (m *merger) outside() {
	h := m.h
	m.h, m.hok = m.nextHeld()
	if m.a.tree.Contains(h.Path) || m.a.opts.Filter.CheckHeld(h.URI, &h) != nil {
		return
	}
	info, err := m.a.d.Mirror.Stat(h.Path)
	switch {
	case err == nil && info.Mode().IsRegular():
		m.a.col.extra(Difference{URI: h.URI, Path: h.Path, Links: resourcesync.LinkRecords(h.Links)})
	case err != nil && !gone(err):
		m.a.col.problem(Problem{URI: h.URI, Path: h.Path, Message: err.Error()})
	}
}

// extra reports a file in the set's tree that the Source does not list,
// unless another set holds it. rec is this set's record of the file, if
// any: the URI the Source no longer lists.
func (a *auditor) extra(ctx context.Context, rel string, rec *resourcesync.Held) error {
	holders, err := a.d.Store.PathHolders(ctx, rel)
	if err != nil {
		return fmt.Errorf("look up %s in the state: %w: %w", rel, resourcesync.ErrLocal, err)
	}
	for _, id := range holders {
		if id != a.set.ID {
			return nil // another set's file, as baseline --delete sees it
		}
	}
	d := Difference{Path: rel}
	if rec != nil {
		d.URI, d.Links = rec.URI, resourcesync.LinkRecords(rec.Links)
	} else {
		d.URI = a.uriOf(rel)
	}
	if d.URI != "" && a.opts.Filter.CheckHeld(d.URI, rec) != nil {
		// Left out by the filters (with --collection, by the collection
		// links recorded with it; a file of no record has no known
		// membership): kept, as baseline --delete keeps it.
		return nil
	}
	a.col.extra(d)
	return nil
}

// uriOf names a file the state has no record of by the URI the mapping
// would store there, when the Mirror can invert its mapping; "" when it
// cannot or when the path is no mapped path (in the default layout, a
// first element that is no host).
func (a *auditor) uriOf(rel string) string {
	um, ok := a.d.Mirror.(Unmapper)
	if !ok {
		return ""
	}
	scheme := "http"
	if u, err := url.Parse(a.set.CapabilityList); err == nil && u.Scheme == "https" {
		scheme = "https"
	}
	uri, err := um.URI(rel, scheme)
	if err != nil {
		return ""
	}
	return uri
}

// errStopped ends a walk that pull no longer reads.
var errStopped = errors.New("walk stopped")

// pull turns a walk that calls back (Listing.Each, Store.EachHeld) into
// an iterator the merge can step through. done stops the walk if it is
// still going and returns its error; call it once next has said there is
// no more, to tell the end from a failure.
func pull[T any](each func(func(T) error) error) (next func() (T, bool), done func() error) {
	var err error
	next, stop := iter.Pull(func(yield func(T) bool) {
		err = each(func(v T) error {
			if !yield(v) {
				return errStopped
			}
			return nil
		})
	})
	return next, func() error {
		stop()
		if errors.Is(err, errStopped) {
			return nil
		}
		return err
	}
}

// gone reports whether err says there is no file at a path (its
// directory may be a file).
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
