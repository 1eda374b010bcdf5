package dumpzip

import (
	"context"
	"fmt"
	"iter"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Contents ranges over the entries of a package's manifest copy: the
// document at url that the package's dump entry links with
// rel="contents", whose capability must be want. It lets a caller decide
// whether it needs the package before downloading it. Each range opens
// the document anew with open and closes it when the range ends, early or
// not. Locs are made absolute against pkgURL, the package's URL, as the
// manifest inside the package would be.
//
// The sequence ends after the last entry, or after yielding one error with
// a nil entry: open's, the parser's, ctx's, a
// *resourcesync.CapabilityMismatchError, or a copy that is an index.
// The copy is the Source's promise about the package, not the package:
// what is applied comes from the package's own manifest.
func Contents(ctx context.Context, open resourcesync.Opener, url, pkgURL string, want resourcesync.Capability, lim resourcesync.Limits) iter.Seq2[*resourcesync.Entry, error] {
	return func(yield func(*resourcesync.Entry, error) bool) {
		final, body, err := open(ctx, url)
		if err != nil {
			yield(nil, fmt.Errorf("open manifest copy %s: %w", url, err))
			return
		}
		defer body.Close()
		r := resourcesync.NewReader(body, final, lim)
		h, err := r.Header()
		switch {
		case err != nil:
		case h.Capability() != want:
			err = &resourcesync.CapabilityMismatchError{URL: final, Got: h.Capability(), Want: want}
		case h.IsIndex():
			err = fmt.Errorf("manifest copy %s is an index, not a <urlset>", final)
		}
		if err != nil {
			yield(nil, err)
			return
		}
		for e, err := range r.All() {
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				yield(nil, err)
				return
			}
			e.Loc = resourcesync.Resolve(pkgURL, e.Loc)
			if !yield(e, nil) {
				return
			}
		}
	}
}
