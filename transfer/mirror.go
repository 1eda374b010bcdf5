package transfer

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// MirrorMode says when the mirrors a Source names for a resource
// (rel="duplicate", §14.2) are fetched from: --mirrors.
type MirrorMode string

const (
	// MirrorsPrefer tries the mirrors, in pri order, before <loc>: the
	// Source offers them "to reduce the load on its primary access
	// mechanism".
	MirrorsPrefer MirrorMode = "prefer"
	// MirrorsFallback tries them only once <loc> failed.
	MirrorsFallback MirrorMode = "fallback"
	// MirrorsOff never fetches from a mirror.
	MirrorsOff MirrorMode = "off"
)

// ParseMirrorMode reads a --mirrors value.
func ParseMirrorMode(s string) (MirrorMode, error) {
	switch m := MirrorMode(s); m {
	case MirrorsPrefer, MirrorsFallback, MirrorsOff:
		return m, nil
	}
	return "", fmt.Errorf("--mirrors %q: want off, fallback or prefer", s)
}

// linkOrigin is an Origin at a URL a link of the entry names: one of
// the resource's mirrors (rel="duplicate", §14.2) or the memento of the
// version wanted (§14.6). It is read with the Source's client, once, with
// none of the validators held (they are <loc>'s), and - on another host
// than the resource's - without the credentials given for the Source;
// its copy is verified against the unit's own hash and length like the
// Source's. Every failure of it is ErrUnusable: the next origin, or the
// Source, is tried.
type linkOrigin struct {
	what      string // "mirror" or "memento", as errors and logs name it
	href      string
	anonymous bool
	source    Fetcher
}

func (o *linkOrigin) Open(context.Context) (Fetcher, error) { return o, nil }
func (o *linkOrigin) Release()                              {}

// Download fetches the origin's copy into dst, once and unconditionally.
func (o *linkOrigin) Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	f.URL, f.Anonymous, f.Once, f.ETag, f.LastModified = o.href, o.anonymous, true, "", ""
	got, err := o.source.Download(ctx, f, dst)
	if err != nil {
		return got, &originError{what: o.what, href: o.href, err: err}
	}
	return got, nil
}

// mirrors returns the unit's mirrors this run may fetch from: none with
// --mirrors off, none when the wanted version has no hash a mirror's copy
// could be verified against (then only <loc> is trusted), and only those
// the host policy (the Source's hosts, --allow-host) lets in.
func (w *worker) mirrors(u *Unit) []Origin {
	if len(u.Mirrors) == 0 || w.e.o.Mirrors == MirrorsOff || !u.Wanted || !u.Want.Fixity.Verifiable() {
		return nil
	}
	out := make([]Origin, 0, len(u.Mirrors))
	for _, l := range u.Mirrors {
		if err := w.e.o.Scope.Check(l.Href); err != nil {
			w.e.d.Log.Debug().Str("uri", u.URI).Str("mirror", l.Href).Err(err).Msg("mirror not fetched: its host is not allowed (--allow-host)")
			continue
		}
		out = append(out, &linkOrigin{what: "mirror", href: l.Href, anonymous: true, source: w.e.d.Fetcher})
	}
	return out
}
