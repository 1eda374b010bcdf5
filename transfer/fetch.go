package transfer

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// fetch brings the unit's wanted version into the mirror as a staged
// file; the writer publishes and records it. Its bytes come from the
// first that serves them of: the unit's origins (a dump member), its
// patch applied to the copy held, its mirrors when preferred, the Source,
// its mirrors as a fallback. A patch or mirror that fails (unreachable,
// an error status, a patch that does not apply, bytes that do not match
// the entry's hash) is named in a warning and the next is tried.
func (w *worker) fetch(ctx context.Context, res result, conditional bool) (result, error) {
	e, u := w.e, res.u
	req := Request{
		URI: u.URI, Path: u.Path, Hash: u.Want.Fixity, Length: u.Want.Length, HasLen: u.Want.HasLength,
		LastMod: u.Want.LastMod, Prev: u.Held, LocalAlgs: e.o.LocalAlgs, Now: e.o.Now(),
	}
	if !u.Wanted && u.Held != nil {
		// Nothing says which version is wanted: a copy found current
		// keeps its lastmod.
		req.LastMod = u.Held.LastMod
	}
	if res.outcome == Updated {
		// Kept before anything is fetched: a version the run fails to
		// replace is kept all the same (under the same name next time).
		if ok, err := w.keptOrFailed(ctx, &res); !ok {
			return res, err
		}
	}
	tries := w.tries(u, res.outcome == Updated)
	var missed []string // the mirrors that failed, with their causes
	var sourceErr error // the Source's failure, when mirrors follow it
	var failedMemento string
	for i, o := range tries {
		f, fromSource := e.d.Fetcher, o == nil
		if !fromSource {
			var err error
			if f, err = o.Open(ctx); err != nil {
				if errors.Is(err, ErrUnusable) {
					continue
				}
				if err = Classify(ctx, err); Fatal(err) {
					return res, err
				}
				res.outcome, res.cause = Failed, err
				return res, nil
			}
		}
		r := req
		r.Conditional = conditional && fromSource
		got, err := Get(ctx, f, e.d.Mirror, r)
		if err == nil {
			if fromSource {
				_ = e.job.Breaker.Note(u.URI, nil)
			}
			switch o := o.(type) {
			case *linkOrigin:
				// Its validators say nothing of the Source's copy.
				got.Held.ETag, got.Held.LastModified = "", ""
				if o.what == "mirror" {
					res.mirrorBytes = got.Bytes
				}
				e.d.Log.Debug().Str("uri", u.URI).Str(o.what, o.href).Int64("bytes", got.Bytes).Msg("fetched from the " + o.what)
			case *patch:
				res.patched, res.patchBytes = true, o.fetched
				got.Held.ETag, got.Held.LastModified = "", "" // the copy patched is no longer the one they named
				e.d.Log.Debug().Str("uri", u.URI).Str("patch", o.name()).Int64("patch_bytes", o.fetched).Msg("patched")
			}
			res.mirrorFailures = len(missed)
			res.ticket, res.bytes, res.held = got.Ticket, got.Bytes, &got.Held
			if got.Ticket == "" { // 304: the copy held is current
				res.outcome = Unchanged
			}
			return res, nil
		}
		if Fatal(err) {
			return res, err
		}
		last := i == len(tries)-1
		switch {
		case errors.Is(err, ErrUnusable): // a patch or a mirror
			if _, ok := o.(*patch); ok {
				res.patchFailed = true
				e.d.Log.Warn().Str("uri", u.URI).Err(err).Msg("patch not applied; fetching the whole resource")
			} else if l, ok := o.(*linkOrigin); ok && l.what == "memento" {
				failedMemento = err.Error()
				e.d.Log.Warn().Str("uri", u.URI).Err(err).Msg("memento failed")
			} else {
				missed = append(missed, err.Error())
				e.d.Log.Warn().Str("uri", u.URI).Err(err).Msg("mirror failed; trying the next mirror or <loc>")
			}
			if !last {
				continue
			}
		case fromSource && !last:
			sourceErr = err // the mirrors after it may still serve the bytes
			continue
		case fromSource:
			sourceErr = err
		default: // an origin's faults say nothing about the Source
			res.outcome, res.cause, res.mirrorFailures = Failed, err, len(missed)
			return res, nil
		}
	}
	// Every try failed, the Source's too.
	res.outcome, res.mirrorFailures = Failed, len(missed)
	if berr := e.job.Breaker.Note(u.URI, sourceErr); berr != nil {
		return res, berr
	}
	res.cause = sourceErr
	if len(missed) > 0 {
		res.cause = fmt.Errorf("%w; its mirrors failed too: %s", sourceErr, strings.Join(missed, "; "))
	}
	if failedMemento != "" {
		res.cause = fmt.Errorf("%w; its %s", res.cause, failedMemento)
	}
	return res, nil
}

// tries lists where the unit's bytes may come from, in order; nil stands
// for the Source, which is always among them. updating: a copy is held
// at the unit's path (a patch's base).
func (w *worker) tries(u *Unit, updating bool) []Origin {
	mirrors := w.mirrors(u)
	tries := make([]Origin, 0, len(u.Origins)+len(mirrors)+2)
	tries = append(append(tries, u.Origins...), w.patches(u, updating)...)
	// The version a change announces is at its memento when <loc> has
	// changed again since: tried after <loc>.
	if w.e.o.Mirrors == MirrorsFallback {
		return append(append(append(tries, nil), mirrors...), w.mementos(u)...)
	}
	return append(append(append(tries, mirrors...), nil), w.mementos(u)...)
}
