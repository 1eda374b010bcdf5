package mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"syscall"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// RenameState is the state as Rename needs it.
type RenameState interface {
	// OlderNames returns the sets whose files an earlier MappingVersion
	// named, with that version.
	OlderNames(ctx context.Context) (map[int64]int, error)
	// EachHeld visits what a set holds.
	EachHeld(ctx context.Context, setID int64, fn func(resourcesync.Held) error) error
	// Repath records renamed files, all or nothing.
	Repath(ctx context.Context, moves []resourcesync.Moved) error
	// NamesCurrent records that a set's files bear their current names.
	NamesCurrent(ctx context.Context, setID int64) error
}

// RenameReport says what Rename did.
type RenameReport struct {
	// Renamed counts the files given their current name.
	Renamed int
	// Recorded counts the records moved to a file already at its current
	// name: a run stopped between renaming and recording, or another set
	// holding the same file.
	Recorded int
	// Conflicts are the files left at their old name because something
	// else is at the new one (or in its way); their resources are fetched
	// again by the run, to the new name.
	Conflicts []RenameConflict
	// Pending counts the sets left for a later run: some of their records
	// were made under other --map options than this run's (their paths are
	// neither the old nor the current name under these maps), and only a
	// run with those options can tell where their files belong.
	Pending int
}

// RenameConflict is a file Rename left where it was.
type RenameConflict struct {
	URI, From, To string
	Reason        string
}

// renameBatch is how many renames are made durable and recorded at once.
const renameBatch = 512

// Rename gives the files of the sets an earlier version of the mapping
// named (RenameState.OlderNames) their current names, under this mirror's
// maps: each held record whose path is its URI's old path, and differs from
// its current one, has its file renamed inside the mirror (a rename(2):
// atomic, never a copy), the directories it leaves empty removed; once a
// batch of renames is durable its records are updated in one transaction,
// so that the state never claims a path the disk does not hold. A run
// stopped in between is finished by the next one, which finds the file at
// its new name (checked against the record's length and digests) and
// records it. Something else at the new name is a conflict: the file stays
// at its old name and is reported. A set whose records all follow these
// maps is then recorded as named by the current rules, so that this runs
// once.
//
// It needs the lock (ErrNotLocked, ErrReadOnly otherwise) and must run
// before any Put or Remove of the session. It returns an error only for a
// fault of the disk or the state, which stops the run; a cancelled ctx
// stops it between files. It is not safe for concurrent use with writes.
func (m *Mirror) Rename(ctx context.Context, st RenameState) (RenameReport, error) {
	var rep RenameReport
	if m.readOnly {
		return rep, fmt.Errorf("rename to the current names: %w", ErrReadOnly)
	}
	if m.writeSession.Load() == 0 {
		return rep, fmt.Errorf("rename to the current names: %w", ErrNotLocked)
	}
	sets, err := st.OlderNames(ctx)
	if err != nil {
		return rep, err
	}
	ids := make([]int64, 0, len(sets))
	for id := range sets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		r := renamer{m: m, st: st, from: sets[id], rep: &rep}
		if err := st.EachHeld(ctx, id, func(h resourcesync.Held) error { return r.held(ctx, h) }); err != nil {
			return rep, fmt.Errorf("rename the files of set %d: %w", id, err)
		}
		if err := r.flush(ctx); err != nil {
			return rep, fmt.Errorf("rename the files of set %d: %w", id, err)
		}
		if r.foreign {
			rep.Pending++
			continue
		}
		if err := st.NamesCurrent(ctx, id); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// renamer renames the files of one set.
type renamer struct {
	m       *Mirror
	st      RenameState
	from    int // the mapping version that named the set's files
	rep     *RenameReport
	batch   []resourcesync.Moved
	foreign bool // a record follows other maps than the mirror's
}

func (r *renamer) held(ctx context.Context, h resourcesync.Held) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	to, err := r.m.mapper.Path(h.URI)
	if err == nil && to == h.Path {
		return nil
	}
	old, oerr := r.m.mapper.PathIn(r.from, h.URI)
	if err != nil || oerr != nil || old != h.Path {
		r.foreign = true
		return nil
	}
	move, err := r.m.renameHeld(h, to, r.rep)
	if err != nil || !move {
		return err
	}
	r.batch = append(r.batch, resourcesync.Moved{URI: h.URI, From: h.Path, To: to})
	if len(r.batch) >= renameBatch {
		return r.flush(ctx)
	}
	return nil
}

// flush makes the batch's renames durable, then records them.
func (r *renamer) flush(ctx context.Context) error {
	if len(r.batch) == 0 {
		return nil
	}
	if err := r.m.SyncDirs(); err != nil {
		return err
	}
	if err := r.st.Repath(ctx, r.batch); err != nil {
		return err
	}
	r.batch = r.batch[:0]
	return nil
}

// renameHeld gives the file of h, at h.Path, the name to. It returns
// whether h's record is to point at to: after a rename, or when the file
// is already there. A missing file is left to the run (which fetches it),
// a conflict is reported; the error is a fault of the disk.
func (m *Mirror) renameHeld(h resourcesync.Held, to string, rep *RenameReport) (bool, error) {
	from := h.Path
	conflict := func(reason string) (bool, error) {
		rep.Conflicts = append(rep.Conflicts, RenameConflict{URI: h.URI, From: from, To: to, Reason: reason})
		return false, nil
	}
	if err := checkRel("rename", from); err != nil {
		return conflict(err.Error())
	}
	if err := checkRel("rename", to); err != nil {
		return conflict(err.Error())
	}
	fromInfo, err := m.lstatBelow(from)
	fromGone := gone(err)
	switch {
	case errors.Is(err, ErrPathConflict):
		return conflict(err.Error())
	case err != nil && !fromGone:
		return false, err
	case err == nil && !fromInfo.Mode().IsRegular():
		return conflict(from + " is not a regular file")
	}
	toInfo, err := m.lstatBelow(to)
	switch {
	case err == nil && fromGone && toInfo.Mode().IsRegular():
		same, err := m.holds(to, toInfo, h)
		if err != nil || !same {
			return conflict(to + " exists and is not the file recorded")
		}
		rep.Recorded++
		return true, nil
	case err == nil:
		return conflict(to + " exists")
	case errors.Is(err, ErrPathConflict):
		return conflict(err.Error())
	case !gone(err):
		return false, err
	case fromGone:
		return false, nil // nothing to rename: the run fetches it
	}
	m.tree.RLock()
	err = m.parents(path.Dir(to), true)
	if err == nil {
		err = m.fsys.Rename(from, to)
	}
	m.tree.RUnlock()
	if errors.Is(err, ErrPathConflict) {
		return conflict(err.Error())
	}
	if err != nil {
		return false, fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	m.entries.forget(path.Dir(from))
	m.markDirty(path.Dir(from))
	m.markDirty(path.Dir(to))
	m.prune(path.Dir(from))
	rep.Renamed++
	return true, nil
}

// lstatBelow describes the entry at rel, reached without following a
// symlink on the way (ErrPathConflict for a parent that is a symlink or a
// file) or at rel.
func (m *Mirror) lstatBelow(rel string) (fs.FileInfo, error) {
	if err := m.parents(path.Dir(rel), false); err != nil {
		return nil, fmt.Errorf("stat %s: %w", rel, err)
	}
	fi, err := m.fsys.Lstat(rel)
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", rel, err)
	}
	return fi, nil
}

// holds reports whether the regular file at rel is the one h records: its
// length, and its digests when h has some.
func (m *Mirror) holds(rel string, info fs.FileInfo, h resourcesync.Held) (bool, error) {
	if info.Size() != h.Length {
		return false, nil
	}
	if !h.Fixity.Verifiable() {
		return true, nil
	}
	var algs []string
	for _, d := range h.Fixity {
		if _, ok := resourcesync.KnownAlg(d.Alg); ok {
			algs = append(algs, d.Alg)
		}
	}
	sums, n, err := m.HashFile(rel, algs)
	if err != nil {
		return false, err
	}
	return n == h.Length && sums.Agrees(h.Fixity), nil
}

// gone reports whether err says there is nothing at a path.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
