package baseline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// A baseline from a Resource Dump (§11) goes through the same pipeline as
// one from a Resource List: the producer below walks the dump (and its
// index) in order and, for each package, hands the workers one job per
// manifest entry; each worker decides exactly as for a listed entry and,
// when the bytes are needed, copies them out of the package (the Member is
// the fetcher) into a staged file; the one writer publishes and records
// them. So every rule of the list path holds here - skips, --checksum,
// resume, failures, deletion - and resume is exact per entry: what was
// recorded is held, and held entries are not extracted again.
//
// A package is downloaded only when one of its entries is needed. When the
// dump entry links a manifest copy (rel="contents"), the copy is read first
// and the package is skipped if every entry it names is already held; its
// entries are then accounted from the copy (read a second time, so that
// nothing is kept in memory). A package that cannot be downloaded or
// opened is replaced by its copy, when there is one: its needed entries are
// fetched one by one from the Source, as the list path would.

// openPackage is a downloaded package shared by the jobs of its members:
// the producer and each job hold a reference, and the last one released
// closes it, which removes its temp file.
type openPackage struct {
	p    *dumpzip.Package
	refs atomic.Int64
	log  zerolog.Logger
}

func (o *openPackage) acquire() { o.refs.Add(1) }

func (o *openPackage) release() {
	if o.refs.Add(-1) == 0 {
		if err := o.p.Close(); err != nil {
			o.log.Warn().Str("uri", o.p.URL).Err(err).Msg("cannot remove a package's temp file")
		}
	}
}

// release lets go of the job's package, if any.
func (j job) release() {
	if j.pkg != nil {
		j.pkg.release()
	}
}

// openDoc opens a document of the Source for resourcesync.Walk.
func (r *run) openDoc(ctx context.Context, u string) (string, io.ReadCloser, error) {
	final, _, body, err := r.d.Fetcher.OpenDocument(ctx, u)
	return final, body, err
}

// pkgWork is one package ready for its entries to be handed to the
// workers: downloaded and open, or (pkg nil) accounted from its manifest
// copy.
type pkgWork struct {
	ref     *resourcesync.Entry
	copyURL string
	pkg     *openPackage
}

// drop lets go of a package that will not be emitted.
func (w pkgWork) drop() {
	if w.pkg != nil {
		w.pkg.release()
	}
}

// produceDump streams the Resource Dump's packages (index parts in index
// order, packages in dump order, entries in manifest order) to the
// workers. It is a pipeline of two stages, so that the next package
// downloads while the workers extract this one: the first walks the dump,
// decides whether each package is needed and downloads it; the second hands
// its entries to the workers. At most one downloaded package waits between
// them.
//
// A package that cannot be used does not stop the others; the dump then
// counts as not completely read (no deletions, no baseline point) and the
// first such error is returned with their number.
func (r *run) produceDump(ctx context.Context, jobs chan<- job) error {
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
		h, walkErr = resourcesync.Walk(fetchCtx, r.openDoc, r.set.ResourceDump, resourcesync.CapResourceDump,
			resourcesync.WalkOptions{Limits: r.opts.Limits},
			func(_ *resourcesync.Part, e *resourcesync.Entry) error {
				if r.opts.Drain.Err() != nil {
					return errDrained
				}
				packages++
				w, err := r.preparePackage(fetchCtx, e)
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
		err := r.emitPackage(ctx, w, jobs)
		if err == nil {
			continue
		}
		if errors.Is(err, errDrained) || transfer.Fatal(transfer.Classify(ctx, err)) {
			emitErr = err
			stopFetching()
			continue
		}
		r.d.Log.Warn().Str("uri", w.ref.Loc).Err(err).Msg("package not completely applied")
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
		r.sum.ListComplete = true
		r.opts.Progress.ListingDone()
	}
	return err
}

// packageFailed judges a package's failure: nil when it only concerns that
// package (logged; the walk goes on), else the error that must stop the
// run (a local fault, the context, the Source being down).
func (r *run) packageFailed(ctx context.Context, e *resourcesync.Entry, err error) error {
	if errors.Is(err, errDrained) {
		return err
	}
	if err = transfer.Classify(ctx, err); transfer.Fatal(err) {
		return err
	}
	if berr := r.breaker.Note(e.Loc, err); berr != nil {
		return berr
	}
	r.d.Log.Warn().Str("uri", e.Loc).Err(err).Msg("package not applied")
	return nil
}

// preparePackage decides whether a package is needed and downloads it if
// so. It returns the package's error when it cannot be used and has no
// manifest copy to stand in for it.
func (r *run) preparePackage(ctx context.Context, e *resourcesync.Entry) (pkgWork, error) {
	w := pkgWork{ref: e}
	if err := r.opts.Scope.Check(e.Loc); err != nil {
		return w, fmt.Errorf("package %s: %w", e.Loc, err)
	}
	if l, ok := e.Link(resourcesync.RelContents); ok {
		w.copyURL = resourcesync.Resolve(e.Loc, l.Href)
	}
	needed, err := r.packageNeeded(ctx, e, w.copyURL)
	if err != nil {
		return w, err
	}
	if w.copyURL != "" && (!needed || r.opts.DryRun) {
		// Every entry is held (or this is a dry run, which only says what
		// it would do): the copy is enough to account for the entries.
		if !needed {
			r.sum.PackagesSkipped++
			r.d.Log.Debug().Str("uri", e.Loc).Msg("every entry of the package is held; not downloading it")
		}
		return w, nil
	}
	pkg, err := dumpzip.Download(ctx, r.d.Fetcher, e, resourcesync.CapResourceDumpManifest, r.opts.Dump.For(r.d.TempDir, r.opts.Limits))
	if err != nil {
		if w.copyURL == "" || transfer.Fatal(transfer.Classify(ctx, err)) {
			return w, err
		}
		r.d.Log.Warn().Str("uri", e.Loc).Err(err).Msg("package unusable; fetching its entries one by one, as its manifest copy lists them")
		return w, nil
	}
	r.sum.Packages++
	w.pkg = &openPackage{p: pkg, log: r.d.Log}
	w.pkg.acquire() // the emitter's reference
	return w, nil
}

// emitPackage hands the workers the entries of one package, each with its
// bitstream, or those of its manifest copy.
func (r *run) emitPackage(ctx context.Context, w pkgWork, jobs chan<- job) error {
	if w.pkg == nil {
		return r.emitCopy(ctx, w.ref, w.copyURL, jobs)
	}
	defer w.pkg.release()
	for {
		if r.opts.Drain.Err() != nil {
			return errDrained
		}
		m, err := w.pkg.p.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("package %s: %w", w.ref.Loc, err)
		}
		r.opts.Progress.Listed()
		w.pkg.acquire()
		select {
		case jobs <- job{entry: m.Entry, member: m, pkg: w.pkg}:
		case <-ctx.Done():
			w.pkg.release()
			return ctx.Err()
		}
	}
}

// packageNeeded reads the package's manifest copy, if there is one, up to
// the first entry whose bytes are needed. Without a copy, or with one that
// cannot be read, the package is needed: its own manifest will tell.
func (r *run) packageNeeded(ctx context.Context, e *resourcesync.Entry, copyURL string) (bool, error) {
	if copyURL == "" {
		return true, nil
	}
	w := &worker{run: r}
	for ce, err := range dumpzip.Contents(ctx, r.openDoc, copyURL, e.Loc, resourcesync.CapResourceDumpManifest, r.opts.Limits) {
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			r.d.Log.Warn().Str("uri", copyURL).Err(err).Msg("manifest copy unusable; reading the package's own manifest")
			return true, nil
		}
		res, _, _, err := w.assess(ctx, ce, false, nil)
		if err != nil {
			return false, err
		}
		if res.outcome == transfer.Created || res.outcome == transfer.Updated {
			return true, nil
		}
	}
	return false, nil
}

// emitCopy hands the workers the entries of a package's manifest copy,
// without the package: held entries are accounted, and any entry found
// needed after all is fetched from the Source.
func (r *run) emitCopy(ctx context.Context, e *resourcesync.Entry, copyURL string, jobs chan<- job) error {
	for ce, err := range dumpzip.Contents(ctx, r.openDoc, copyURL, e.Loc, resourcesync.CapResourceDumpManifest, r.opts.Limits) {
		if err != nil {
			return fmt.Errorf("package %s: manifest copy: %w", e.Loc, err)
		}
		if r.opts.Drain.Err() != nil {
			return errDrained
		}
		r.opts.Progress.Listed()
		select {
		case jobs <- job{entry: ce}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
