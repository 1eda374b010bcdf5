package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// VersionKeeper keeps a copy of a version a run replaces or deletes
// (--keep-versions): mirror.Versions.
type VersionKeeper interface {
	Keep(rel string, at time.Time, r io.Reader) (string, error)
	// Kept reports whether the version of rel made at is kept already:
	// then its memento need not be fetched.
	Kept(rel string, at time.Time) bool
}

// keepVersion keeps the copy the unit holds before an update replaces it
// or a deletion removes it, when RunOptions.Versions asks for it: only a
// copy this set holds at the unit's path (a file it never fetched is not
// a version of the resource). Its time is the version's lastmod (else when
// it was fetched). An error fails the unit - the copy is not replaced
// unkept - or the run when the disk is at fault.
func (w *worker) keepVersion(ctx context.Context, u *Unit) error {
	keeper := w.e.o.Versions
	if keeper == nil || w.e.o.DryRun || u.Held == nil || u.Held.Path != u.Path {
		return nil
	}
	files, ok := w.e.d.Mirror.(fileOpener)
	if !ok {
		return errors.New("keep the version held: this mirror cannot read its files back (--keep-versions)")
	}
	at := u.Held.LastMod
	if at.IsZero() {
		at = u.Held.Fetched
	}
	f, err := files.Open(u.Path)
	if err != nil {
		return Classify(ctx, fmt.Errorf("keep the version held: %w", err))
	}
	defer f.Close()
	where, err := keeper.Keep(u.Path, at, f)
	if err != nil {
		return Classify(ctx, err)
	}
	w.e.d.Log.Debug().Str("uri", u.URI).Str("version", where).Msg("kept the version replaced")
	return nil
}

// keptOrFailed runs keepVersion for res's unit: false (with res failed,
// or err fatal) when the version could not be kept.
func (w *worker) keptOrFailed(ctx context.Context, res *result) (bool, error) {
	err := w.keepVersion(ctx, res.u)
	switch {
	case err == nil:
		return true, nil
	case Fatal(err) || errors.Is(err, resourcesync.ErrLocal):
		return false, err
	}
	res.outcome, res.cause = Failed, err
	return false, nil
}
