package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Memento is the time-specific URI a change names for the version it
// announces (§14.6: rel="memento"), with that version as the change
// describes it.
type Memento struct {
	Link    resourcesync.Link
	Version resourcesync.Version
}

// otherHost reports whether href is on another host than uri: the
// credentials given for the Source (--header) are sent to a memento on
// the resource's own host only, as they are never sent to a mirror's.
func otherHost(href, uri string) bool {
	h, err1 := url.Parse(href)
	u, err2 := url.Parse(uri)
	return err1 != nil || err2 != nil || !strings.EqualFold(h.Scheme, u.Scheme) || resourcesync.HostPort(h) != resourcesync.HostPort(u)
}

// mementos returns the origin of the unit's wanted version at its
// memento, when the change announcing it names one: only for a version
// with a hash to verify it against, on a host the policy allows.
func (w *worker) mementos(u *Unit) []Origin {
	if len(u.Mementos) == 0 || !u.Wanted || !u.Want.Fixity.Verifiable() {
		return nil
	}
	m := u.Mementos[len(u.Mementos)-1]
	if !m.Version.Fixity.Agrees(u.Want.Fixity) || w.e.o.Scope.Check(m.Link.Href) != nil {
		return nil
	}
	return []Origin{&linkOrigin{what: "memento", href: m.Link.Href, anonymous: otherHost(m.Link.Href, u.URI), source: w.e.d.Fetcher}}
}

// keepMementos keeps, with --keep-versions, each version the unit's
// changes announce with a memento link: fetched from the memento,
// verified against the link's hash and length (else the change's: the
// standard's example 29 gives both alike) and kept as a version replaced
// is, under its lastmod. A memento that fails (unreachable, wrong bytes,
// nothing to verify it against) is named in a warning and its version is
// not kept; the resource is brought in step all the same. A version that
// cannot be kept fails the resource, as a version replaced does; a disk
// fault stops the run (Fatal).
func (w *worker) keepMementos(ctx context.Context, u *Unit) error {
	keeper := w.e.o.Versions
	if keeper == nil || w.e.o.DryRun || u.PathErr != nil || u.Path == "" || w.e.o.Scope.Check(u.URI) != nil {
		return nil
	}
	for _, m := range u.Mementos {
		if err := w.e.o.Scope.Check(m.Link.Href); err != nil {
			w.e.d.Log.Debug().Str("uri", u.URI).Str("memento", m.Link.Href).Err(err).Msg("memento not fetched: its host is not allowed (--allow-host)")
			continue
		}
		where, err := w.keepMemento(ctx, u, m)
		if err = Classify(ctx, err); err != nil {
			if Fatal(err) || !errors.Is(err, ErrUnusable) {
				return err
			}
			w.e.d.Log.Warn().Str("uri", u.URI).Err(err).Msg("memento failed; the version it names is not kept")
			continue
		}
		w.e.d.Log.Debug().Str("uri", u.URI).Str("memento", m.Link.Href).Str("version", where).Msg("kept the version announced, from its memento")
	}
	return nil
}

// keepMemento streams one memento into the keeper, which publishes it
// only once the whole of it was read and verified.
func (w *worker) keepMemento(ctx context.Context, u *Unit, m Memento) (string, error) {
	f := resourcesync.Fetch{URL: m.Link.Href, Hash: m.Link.Hash, Length: m.Link.Length, HasLength: m.Link.HasLength,
		Once: true, Anonymous: otherHost(m.Link.Href, u.URI)}
	if !f.Hash.Verifiable() {
		f.Hash, f.Length, f.HasLength = m.Version.Fixity, m.Version.Length, m.Version.HasLength
	}
	if !f.Hash.Verifiable() {
		return "", &originError{what: "memento", href: m.Link.Href, err: errors.New("neither the link nor the change gives a hash to verify it against")}
	}
	at := m.Version.LastMod
	if w.e.o.Versions.Kept(u.Path, at) {
		return "", nil // an earlier run kept it
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := w.e.d.Fetcher.Download(ctx, f, &pipeSink{w: pw})
		pw.CloseWithError(err) // nil: EOF, the keeper publishes
		done <- err
	}()
	where, kerr := w.e.o.Versions.Keep(u.Path, at, pr)
	pr.CloseWithError(errors.New("version kept")) // a version kept already is not read
	ferr := <-done
	switch {
	case kerr == nil:
		return where, nil // read to EOF, or kept meanwhile (then not read)
	case ferr != nil && errors.Is(kerr, ferr):
		return "", &originError{what: "memento", href: m.Link.Href, err: ferr}
	}
	return "", fmt.Errorf("keep the version of memento %s: %w", m.Link.Href, kerr)
}

// pipeSink feeds a download to the keeper; it cannot take back what it
// passed on, so a download that restarts fails.
type pipeSink struct {
	w       *io.PipeWriter
	written bool
}

func (s *pipeSink) Write(b []byte) (int, error) {
	s.written = s.written || len(b) > 0
	return s.w.Write(b)
}

func (s *pipeSink) Reset() error {
	if s.written {
		return errors.New("a memento's download cannot restart")
	}
	return nil
}
