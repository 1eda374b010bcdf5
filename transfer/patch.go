package transfer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// The bounds of what a patch is applied to in memory: a larger copy held,
// or a larger patch, is fetched whole from <loc> instead.
const (
	MaxPatchBase  = 64 << 20
	MaxPatchBytes = 16 << 20
)

// ErrPatchType is the failure of a patch whose media type this Destination
// cannot apply (§14.4: it is ignored and <loc> is used).
var ErrPatchType = errors.New("patch type not supported")

// The media types of the patches applied: JSON Patch (RFC 6902), under
// its registered name and under the name of the standard's example 27,
// and JSON Merge Patch (RFC 7386).
const (
	TypeJSONPatch      = "application/json-patch+json"
	TypeJSONPatchRS    = "application/json-patch"
	TypeJSONMergePatch = "application/merge-patch+json"
)

var patchTypes = []string{TypeJSONPatch, TypeJSONPatchRS, TypeJSONMergePatch}

// fileOpener is a Mirror that can read back a copy it holds: the base a
// patch is applied to. A mirror that cannot is never patched.
type fileOpener interface {
	Open(rel string) (io.ReadCloser, error)
}

// patch is an Origin: the wanted version made from the copy held and a
// patch the Source names for the change (rel=".../terms/patch"). The copy
// held must be the one the state recorded (its digests agree), the patch
// is verified against the link's own hash and length when given, and the
// result against the change's hash before a byte of it is written. Every
// failure is ErrUnusable: the next origin, or <loc>, is tried.
type patch struct {
	link   resourcesync.Link
	source Fetcher
	files  fileOpener
	path   string
	held   resourcesync.Held
	// fetched is the patch's size once it was applied, for the bytes
	// saved.
	fetched int64
}

func (p *patch) Open(context.Context) (Fetcher, error) { return p, nil }
func (p *patch) Release()                              {}

// name names the patch in messages: its href, and the member of a Change
// Dump package that holds it.
func (p *patch) name() string {
	if pp, ok := p.source.(packagePatch); ok {
		return fmt.Sprintf("%s (member %q of package %s)", p.link.Href, p.link.Path, pp.p.Ref.Loc)
	}
	return p.link.Href
}

// Download writes the patched copy into dst, verified against f.
func (p *patch) Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	out, err := p.apply(ctx)
	if err != nil {
		return resourcesync.Fetched{}, &originError{what: "patch", href: p.name(), err: err}
	}
	v := resourcesync.NewVerifier(f.Hash, f.Length, f.HasLength, f.ExtraAlgs...)
	_, err = v.Write(out)
	if err == nil {
		err = v.Verify()
	}
	if err != nil {
		return resourcesync.Fetched{}, &originError{what: "patch", href: p.name(),
			err: fmt.Errorf("the patched copy is not the change's version: %w", err)}
	}
	if _, err := dst.Write(out); err != nil {
		return resourcesync.Fetched{}, fmt.Errorf("write the patched copy: %w", err)
	}
	return resourcesync.Fetched{Bytes: int64(len(out)), Sums: v.Sums()}, nil
}

// apply reads the copy held (checked against its record), fetches the
// patch and applies it.
func (p *patch) apply(ctx context.Context) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(p.link.Type)
	if err != nil || !supportedPatch(mt) {
		return nil, fmt.Errorf("%w: %q (supported: %s)", ErrPatchType, p.link.Type, strings.Join(patchTypes, ", "))
	}
	base, err := p.base()
	if err != nil {
		return nil, err
	}
	sink := &patchSink{max: MaxPatchBytes}
	got, err := p.source.Download(ctx, resourcesync.Fetch{URL: p.link.Href, Hash: p.link.Hash,
		Length: p.link.Length, HasLength: p.link.HasLength, Once: true}, sink)
	if err != nil {
		return nil, err
	}
	var out []byte
	if strings.EqualFold(mt, TypeJSONMergePatch) {
		out, err = jsonpatch.MergePatch(base, sink.buf.Bytes())
	} else {
		var ops jsonpatch.Patch
		if ops, err = jsonpatch.DecodePatch(sink.buf.Bytes()); err != nil {
			return nil, fmt.Errorf("not a JSON Patch: %w", err)
		}
		out, err = ops.Apply(base)
	}
	if err != nil {
		return nil, fmt.Errorf("does not apply to the copy held: %w", err)
	}
	p.fetched = got.Bytes
	return out, nil
}

// base reads the copy held, and checks that it is the version the state
// recorded: the patch turns that version, and no other, into the change's.
func (p *patch) base() ([]byte, error) {
	want := p.held.Fixity
	if !want.Verifiable() {
		return nil, errors.New("the state has no digest of the copy held to check it against")
	}
	if p.held.Length > MaxPatchBase {
		return nil, fmt.Errorf("the copy held is larger than %d bytes", MaxPatchBase)
	}
	algs := make([]string, 0, len(want))
	for _, d := range want {
		algs = append(algs, d.Alg)
	}
	f, err := p.files.Open(p.path)
	if err != nil {
		return nil, fmt.Errorf("read the copy held: %w", err)
	}
	defer f.Close()
	v := resourcesync.NewVerifier(want, p.held.Length, true, algs...)
	var buf bytes.Buffer
	n, err := io.Copy(io.MultiWriter(v, &buf), io.LimitReader(f, MaxPatchBase+1))
	switch {
	case err != nil && !errors.Is(err, resourcesync.ErrMismatch):
		return nil, fmt.Errorf("read the copy held: %w", err)
	case n > MaxPatchBase:
		return nil, fmt.Errorf("the copy held is larger than %d bytes", MaxPatchBase)
	}
	if err == nil {
		err = v.Verify()
	}
	if err != nil {
		return nil, fmt.Errorf("the copy held is not the version the state recorded: %w", err)
	}
	return buf.Bytes(), nil
}

func supportedPatch(mediaType string) bool {
	for _, t := range patchTypes {
		if strings.EqualFold(mediaType, t) {
			return true
		}
	}
	return false
}

// patchSink holds a small download in memory, refusing more than max bytes.
type patchSink struct {
	buf bytes.Buffer
	max int
}

func (s *patchSink) Write(b []byte) (int, error) {
	if s.buf.Len()+len(b) > s.max {
		return 0, fmt.Errorf("more than %d bytes", s.max)
	}
	return s.buf.Write(b)
}

func (s *patchSink) Reset() error { s.buf.Reset(); return nil }

// originError is the failure of an origin the engine falls back from (a
// mirror, a patch): it names the origin and the cause, and matches
// ErrUnusable as well as the cause.
type originError struct {
	what, href string
	err        error
}

func (e *originError) Error() string   { return e.what + " " + e.href + ": " + e.err.Error() }
func (e *originError) Unwrap() []error { return []error{ErrUnusable, e.err} }

// patches returns the unit's patch to try before any other source: only
// for an update of a copy held at the unit's path whose record has a
// digest, with a hash to verify the result against, and a mirror that can
// read the copy back; the best patch of a type this Destination applies
// whose host the policy allows.
func (w *worker) patches(u *Unit, updating bool) []Origin {
	files, ok := w.e.d.Mirror.(fileOpener)
	if len(u.Patches) == 0 || !ok || !updating || u.Held == nil || u.Held.Path != u.Path ||
		!u.Wanted || !u.Want.Fixity.Verifiable() {
		return nil
	}
	for _, l := range u.Patches {
		if mt, _, err := mime.ParseMediaType(l.Type); err != nil || !supportedPatch(mt) {
			// §14.4: a Destination that does not understand the type
			// ignores the patch and uses <loc>.
			w.e.d.Log.Debug().Str("uri", u.URI).Str("patch", l.Href).Str("type", l.Type).Msg("patch ignored: its type is not one this Destination applies")
			continue
		}
		var source Fetcher = w.e.d.Fetcher
		if u.PatchPackage != nil {
			// §14.4: in a Change Dump the patch is the member its path
			// names; the package is read, nothing is fetched.
			if l.Path == "" {
				w.e.d.Log.Debug().Str("uri", u.URI).Str("patch", l.Href).Msg("patch ignored: a Change Dump's patch link names no member (no path)")
				continue
			}
			source = packagePatch{p: u.PatchPackage, link: l}
		} else if err := w.e.o.Scope.Check(l.Href); err != nil {
			w.e.d.Log.Debug().Str("uri", u.URI).Str("patch", l.Href).Err(err).Msg("patch not fetched: its host is not allowed (--allow-host)")
			continue
		}
		// The best patch only: two patches of one change are two ways to
		// the same version.
		return []Origin{&patch{link: l, source: source, files: files, path: u.Path, held: *u.Held}}
	}
	return nil
}

// packagePatch is the Fetcher of a patch that is a member of a Change
// Dump package: Download reads the member the link's path names,
// verified against the link's length and hash, within the package's
// bounds (dumpzip's checks: unsafe names, missing members, bombs).
type packagePatch struct {
	p    *Package
	link resourcesync.Link
}

func (pp packagePatch) Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	m, err := pp.p.Linked(ctx, pp.link)
	if err != nil {
		return resourcesync.Fetched{}, err
	}
	return m.Download(ctx, f, dst)
}
