package baseline

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// A baseline from a Resource Dump (§11) is planned like one from a
// Resource List: the planner below walks the dump (and its index) in
// order and, for each package, emits one unit per manifest entry, whose
// origin is the entry's bitstream in the package; the engine decides
// exactly as for a listed entry and, when the bytes are needed, copies them
// out of the package into a staged file. So every rule of the list path
// holds here - skips, --checksum, resume, failures, deletion - and resume
// is exact per entry: what was recorded is held, and held entries are not
// extracted again.
//
// A package is downloaded only when one of its entries is needed. When the
// dump entry links a manifest copy (rel="contents"), the copy is read first
// and the package is skipped if every entry it names is already held; its
// entries are then accounted from the copy (read a second time, so that
// nothing is kept in memory). A package that cannot be downloaded or
// opened is replaced by its copy, when there is one: its needed entries are
// fetched one by one from the Source, as the list path would. A package
// lives as long as the units that read it (transfer.Package).

// pkgWork is one package ready for its entries to be emitted: downloaded
// and open (the emitter holding a reference), or accounted from its
// manifest copy (fromCopy).
type pkgWork struct {
	p        *transfer.Package
	fromCopy bool
}

// drop lets go of a package that will not be emitted.
func (w pkgWork) drop() {
	if !w.fromCopy {
		w.p.Release()
	}
}

// dumpUnits emits the Resource Dump's entries (index parts in index order,
// packages in dump order, entries in manifest order). It is a pipeline of
// two stages, so that the next package downloads while the workers
// extract this one: the first walks the dump, decides whether each package
// is needed and downloads it; the second emits its entries. At most one
// downloaded package waits between them.
//
// A package that cannot be used does not stop the others; the dump then
// counts as not completely read (no deletions, no baseline point) and the
// first such error is returned with their number.
func (r *run) dumpUnits(ctx context.Context, f *transfer.Feed) error {
	fetchCtx, stopFetching := context.WithCancel(ctx)
	defer stopFetching()
	ready := make(chan pkgWork)
	var (
		h        *resourcesync.Header
		walkErr  error
		failed   []error // packages that could not be used (the first stage's)
		packages int
		done     = make(chan struct{})
	)
	go func() {
		defer close(done)
		defer close(ready)
		h, walkErr = resourcesync.Walk(fetchCtx, r.d.Open, r.set.ResourceDump, resourcesync.CapResourceDump,
			resourcesync.WalkOptions{Limits: r.opts.Limits},
			func(_ *resourcesync.Part, e *resourcesync.Entry) error {
				if f.Draining() {
					return transfer.ErrDrained
				}
				if r.opts.Package != "" && e.Loc != r.opts.Package {
					return nil // another worker's share
				}
				packages++
				w, err := r.preparePackage(fetchCtx, f, e)
				if err != nil {
					if stop := r.packageFailed(fetchCtx, e, err); stop != nil {
						return stop
					}
					failed = append(failed, err)
					return nil
				}
				select {
				case ready <- w:
					return nil
				case <-fetchCtx.Done():
					w.drop()
					return fetchCtx.Err()
				}
			})
	}()

	var emitErr error
	var emitFailed []error // packages whose manifest broke off midway
	for w := range ready {
		if emitErr != nil {
			w.drop() // stopping: close what was prepared
			continue
		}
		err := r.emitPackage(ctx, f, w)
		if err == nil {
			continue
		}
		if errors.Is(err, transfer.ErrDrained) || transfer.Fatal(transfer.Classify(ctx, err)) {
			emitErr = err
			stopFetching()
			continue
		}
		r.d.Log.Warn().Str("uri", w.p.Ref.Loc).Err(err).Msg("package not completely applied")
		emitFailed = append(emitFailed, err)
	}
	<-done

	if h != nil {
		r.sum.At, r.sum.Completed = h.MD.At, h.MD.Completed
	}
	err := emitErr
	if err == nil {
		err = walkErr
	}
	failed = append(failed, emitFailed...)
	if err == nil && len(failed) > 0 {
		err = fmt.Errorf("%d of %d packages could not be applied; the first: %w", len(failed), packages, failed[0])
	}
	if err == nil {
		r.sum.ListComplete = r.opts.Package == ""
	}
	return err
}

// stopError marks what preparePackage met that must stop the run rather
// than fail one package.
type stopError struct{ err error }

func (e *stopError) Error() string { return e.err.Error() }
func (e *stopError) Unwrap() error { return e.err }

// packageFailed judges a package's failure: nil when it only concerns that
// package (logged; the walk goes on), else the error that must stop the
// run (a local fault, the context, the Source being down).
func (r *run) packageFailed(ctx context.Context, e *resourcesync.Entry, err error) error {
	var stop *stopError
	if errors.As(err, &stop) {
		return stop.err
	}
	if err = transfer.Classify(ctx, err); transfer.Fatal(err) || errors.Is(err, transfer.ErrDrained) {
		return err
	}
	r.d.Log.Warn().Str("uri", e.Loc).Err(err).Msg("package not applied")
	return nil
}

// preparePackage decides whether a package is needed and downloads it if
// so. It returns the package's error when it cannot be used and has no
// manifest copy to stand in for it, and a *stopError when the run must
// stop.
func (r *run) preparePackage(ctx context.Context, f *transfer.Feed, e *resourcesync.Entry) (pkgWork, error) {
	w := pkgWork{p: r.packages.New(e)}
	if err := r.opts.Scope.Check(e.Loc); err != nil {
		return w, fmt.Errorf("package %s: %w", e.Loc, err)
	}
	needed, err := r.packageNeeded(ctx, f, w.p)
	if err != nil {
		return w, err
	}
	if w.p.CopyURL != "" && (!needed || r.opts.DryRun) {
		// Every entry is held (or this is a dry run, which only says what
		// it would do): the copy is enough to account for the entries.
		if !needed {
			r.sum.PackagesSkipped++
			r.d.Log.Debug().Str("uri", e.Loc).Msg("every entry of the package is held; not downloading it")
		}
		w.fromCopy = true
		return w, nil
	}
	w.p.Acquire() // the emitter's reference
	if err := w.p.Open(ctx); err != nil {
		w.p.Release()
		return w, &stopError{err}
	}
	if err := w.p.Err(); err != nil {
		w.p.Release()
		if w.p.CopyURL == "" {
			return w, err
		}
		r.d.Log.Warn().Str("uri", e.Loc).Err(err).Msg("package unusable; fetching its entries one by one, as its manifest copy lists them")
		w.fromCopy = true
	}
	return w, nil
}

// emitPackage emits the entries of one package, each with its bitstream
// as its origin, or those of its manifest copy.
func (r *run) emitPackage(ctx context.Context, f *transfer.Feed, w pkgWork) error {
	if w.fromCopy {
		return r.emitCopy(ctx, f, w.p)
	}
	defer w.p.Release()
	for {
		if f.Draining() {
			return transfer.ErrDrained
		}
		m, err := w.p.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("package %s: %w", w.p.Ref.Loc, err)
		}
		u := r.unit(m.Entry)
		u.Origins = []transfer.Origin{transfer.NewMemberOrigin(w.p, m)}
		if err := f.Emit(u); err != nil {
			return err
		}
	}
}

// packageNeeded reads the package's manifest copy, if there is one, up to
// the first entry whose bytes are needed. Without a copy, or with one that
// cannot be read, the package is needed: its own manifest will tell.
func (r *run) packageNeeded(ctx context.Context, f *transfer.Feed, p *transfer.Package) (bool, error) {
	if p.CopyURL == "" {
		return true, nil
	}
	batch := make([]*transfer.Unit, 0, 64)
	needed := func() (bool, error) {
		n, err := f.Needed(ctx, batch)
		batch = batch[:0]
		if err != nil {
			return false, &stopError{err}
		}
		return n, nil
	}
	for ce, err := range dumpzip.Contents(ctx, r.d.Open, p.CopyURL, p.Ref.Loc, resourcesync.CapResourceDumpManifest, r.opts.Limits) {
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			r.d.Log.Warn().Str("uri", p.CopyURL).Err(err).Msg("manifest copy unusable; reading the package's own manifest")
			return true, nil
		}
		if batch = append(batch, r.unit(ce)); len(batch) < cap(batch) {
			continue
		}
		if n, err := needed(); n || err != nil {
			return n, err
		}
	}
	return needed()
}

// emitCopy emits the entries of a package's manifest copy, without the
// package: held entries are accounted, and any entry found needed after
// all is fetched from the Source.
func (r *run) emitCopy(ctx context.Context, f *transfer.Feed, p *transfer.Package) error {
	for ce, err := range dumpzip.Contents(ctx, r.d.Open, p.CopyURL, p.Ref.Loc, resourcesync.CapResourceDumpManifest, r.opts.Limits) {
		if err != nil {
			return fmt.Errorf("package %s: manifest copy: %w", p.Ref.Loc, err)
		}
		if err := f.Emit(r.unit(ce)); err != nil {
			return err
		}
	}
	return nil
}
