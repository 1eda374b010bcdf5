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

// mirror is an Origin: a copy of a unit's resource at another URL, read
// with the Source's client but without the credentials given for the
// Source, and verified against the unit's own hash and length like the
// Source's copy. Every failure of it is ErrUnusable: the next mirror, or
// the Source, is tried.
type mirror struct {
	href   string
	source Fetcher
}

func (m *mirror) Open(context.Context) (Fetcher, error) { return m, nil }
func (m *mirror) Release()                              {}

// Download fetches the mirror's copy into dst, unconditionally (the
// validators held are the Source's).
func (m *mirror) Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	f.URL, f.Anonymous, f.Once, f.ETag, f.LastModified = m.href, true, true, "", ""
	got, err := m.source.Download(ctx, f, dst)
	if err != nil {
		return got, &originError{what: "mirror", href: m.href, err: err}
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
		out = append(out, &mirror{href: l.Href, source: w.e.d.Fetcher})
	}
	return out
}
