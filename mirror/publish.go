package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"sync"
	"syscall"
)

// stagedFile is a file Put staged: a closed temp file beside its target,
// waiting for Publish. Its ticket is the temp file's name.
type stagedFile struct {
	rel, tmp string
	gen      uint64 // the Mirror's gen when it was staged
	// cancelled: Remove deleted the target after the file was staged and
	// removed the temp file (or left it to the sweep, if that failed).
	cancelled bool
}

// stage registers p's file if the write session it was created in is
// still open; a session that ended has discarded its staged files.
func (m *Mirror) stage(p *pending, session uint64) bool {
	m.stageMu.Lock()
	defer m.stageMu.Unlock()
	if m.writeSession.Load() != session {
		return false
	}
	s := &stagedFile{rel: p.rel, tmp: p.tmp, gen: m.gen}
	m.staged[p.tmp] = s
	m.byRel[p.rel] = append(m.byRel[p.rel], s)
	return true
}

// unindex drops s from byRel. The caller holds stageMu.
func (m *Mirror) unindex(s *stagedFile) {
	list := m.byRel[s.rel]
	if i := slices.Index(list, s); i >= 0 {
		list = slices.Delete(list, i, i+1)
	}
	if len(list) == 0 {
		delete(m.byRel, s.rel)
	} else {
		m.byRel[s.rel] = list
	}
}

// cancelStaged cancels the files staged for rel and removes their temp
// files; it returns how many it cancelled.
func (m *Mirror) cancelStaged(rel string) (int, error) {
	mu := m.target(rel)
	mu.Lock()
	m.stageMu.Lock()
	list := m.byRel[rel]
	delete(m.byRel, rel)
	for _, s := range list {
		s.cancelled = true
	}
	m.stageMu.Unlock()
	mu.Unlock()
	var errs []error
	for _, s := range list {
		if err := m.removeTemp(s.tmp); err != nil {
			errs = append(errs, err)
		}
	}
	return len(list), errors.Join(errs...)
}

// Publish makes the files staged under tickets visible at their targets,
// in the order given (of two tickets for one target, the last wins), and
// durably:
//
//  1. one syncfs of the mirror's file system makes the data of every
//     staged file durable (invariant 1: nothing is renamed into place
//     before its bytes are durable);
//  2. each staged file is renamed over its target. A directory at the
//     target, or a parent that is no longer a directory, is
//     ErrPathConflict for that ticket only; a ticket whose target Remove
//     deleted after Put is ErrSuperseded; an unknown ticket (published or
//     discarded already, or staged in a session that ended) is
//     fs.ErrInvalid. A ticket that fails is consumed: its temp file is
//     removed, and the previous version of its target stays;
//  3. one more syncfs makes the renames durable, together with every
//     removal by Remove and every directory made since the last Publish
//     or SyncDirs (invariant 2: the caller records the published files in
//     the state after Publish returns, never before).
//
// It returns one error per ticket (nil: published) and, separately, a
// fatal error when a sync failed; then nothing may be recorded as durable.
// When step 1 fails, nothing is renamed, the fatal error is also every
// live ticket's error, and those tickets stay staged: a later call may
// publish them (or Discard them). When step 3 fails, a nil ticket error
// means renamed but not known to be durable; the directories stay dirty
// and the next Publish or SyncDirs syncs again. Where syncfs(2) is
// unavailable (ENOSYS, EOPNOTSUPP) each staged file and then each changed
// directory is fsynced instead, which is much slower.
//
// Why batches: an fsync per file cost ~2.5 ms on the build machines, which
// caps a run at a few thousand files per second; one syncfs per batch costs
// ~0.3 ms per file and runs while the workers keep downloading. Callers
// group-commit: they collect the tickets of finished Puts, publish them
// together, then record them in one state transaction.
//
// Publish(nil) just makes earlier removals and directory changes durable,
// like SyncDirs. Publishing a ticket on a read-only Mirror fails with
// ErrReadOnly (as the fatal error and every ticket's). Calls are
// serialised with each other and with SyncDirs. It is safe for concurrent
// use with Put, Remove and Discard.
func (m *Mirror) Publish(tickets []string) ([]error, error) {
	errs := make([]error, len(tickets))
	if m.readOnly && len(tickets) > 0 {
		err := fmt.Errorf("publish: %w", ErrReadOnly)
		for i := range errs {
			errs[i] = err
		}
		return errs, err
	}
	m.pubMu.Lock()
	defer m.pubMu.Unlock()
	live := m.resolve(tickets, errs)
	if len(live) > 0 {
		if err := m.syncStaged(tickets, live); err != nil {
			fatal := fmt.Errorf("publish %d files: make their data durable: %w", len(live), err)
			for _, i := range live {
				errs[i] = fatal
			}
			return errs, fatal
		}
		m.recheckDirs(tickets, live)
		for _, i := range live {
			errs[i] = m.rename(tickets[i])
		}
	}
	if err := m.syncDirty(); err != nil {
		return errs, fmt.Errorf("publish: %w", err)
	}
	return errs, nil
}

// recheckDirs has the FS make sure each directory the staged files
// tickets[live] are renamed in is still the one at its path. A directory
// moved away from outside during the run would otherwise take the files
// and the state would claim them at a path that does not hold them; now
// their renames fail (the temp file is not in the directory at the path),
// and they are fetched again.
func (m *Mirror) recheckDirs(tickets []string, live []int) {
	seen := map[string]bool{}
	for _, i := range live {
		// The ticket is the temp file's name, in the target's directory.
		if d := path.Dir(tickets[i]); d != "." && !seen[d] {
			seen[d] = true
			m.fsys.Recheck(d)
		}
	}
}

// resolve sets the errors of the tickets that cannot be published - and
// forgets the cancelled ones, now reported - and returns the indexes of
// the others.
func (m *Mirror) resolve(tickets []string, errs []error) []int {
	m.stageMu.Lock()
	defer m.stageMu.Unlock()
	live := make([]int, 0, len(tickets))
	for i, t := range tickets {
		switch s := m.staged[t]; {
		case s == nil:
			errs[i] = unknownTicket(t)
		case s.cancelled:
			delete(m.staged, t)
			errs[i] = fmt.Errorf("publish %s: %w", s.rel, ErrSuperseded)
		default:
			live = append(live, i)
		}
	}
	return live
}

func unknownTicket(t string) error {
	return fmt.Errorf("publish ticket %q: %w: not staged (published or discarded already, or staged in a session that ended)", t, fs.ErrInvalid)
}

// syncStaged makes the data of the staged files tickets[live] durable.
func (m *Mirror) syncStaged(tickets []string, live []int) error {
	if !m.noSyncFS.Load() {
		err := m.fsys.SyncFS()
		if !syncFSUnavailable(err) {
			if err != nil {
				return fmt.Errorf("sync the file system of %s: %w", m.dest, err)
			}
			return nil
		}
		m.noSyncFS.Store(true)
	}
	for _, i := range live {
		// The ticket is the temp file's name. One that vanished was
		// cancelled or discarded meanwhile, and will not be renamed.
		if err := m.syncFile(tickets[i]); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

func (m *Mirror) syncFile(name string) error {
	f, err := m.fsys.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func syncFSUnavailable(err error) bool {
	return errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EOPNOTSUPP)
}

// rename publishes one staged file. Holding its target's lock across the
// rename orders it against Remove's cancellation: either the rename
// happens first and Remove deletes the published file, or Remove cancels
// first and nothing is renamed.
func (m *Mirror) rename(t string) error {
	m.stageMu.Lock()
	s := m.staged[t]
	m.stageMu.Unlock()
	if s == nil {
		return unknownTicket(t)
	}
	mu := m.target(s.rel)
	mu.Lock()
	m.stageMu.Lock()
	if m.staged[t] != s {
		m.stageMu.Unlock()
		mu.Unlock()
		return unknownTicket(t) // discarded meanwhile
	}
	delete(m.staged, t)
	if s.cancelled {
		m.stageMu.Unlock()
		mu.Unlock()
		return fmt.Errorf("publish %s: %w", s.rel, ErrSuperseded)
	}
	m.unindex(s)
	m.stageMu.Unlock()
	err := m.fsys.Rename(s.tmp, s.rel)
	mu.Unlock()
	if err == nil {
		m.pending.Add(-1)
		m.markDirty(path.Dir(s.rel))
		return nil
	}
	if fi, lerr := m.fsys.Lstat(s.rel); lerr == nil && fi.IsDir() {
		err = fmt.Errorf("%w: %s is a directory", ErrPathConflict, s.rel)
	} else if errors.Is(err, syscall.ENOTDIR) {
		err = fmt.Errorf("%w: a parent of %s is not a directory", ErrPathConflict, s.rel)
	}
	if rerr := m.removeTemp(s.tmp); rerr != nil {
		err = errors.Join(err, fmt.Errorf("remove temp file: %w", rerr))
	}
	return fmt.Errorf("publish %s: %w", s.rel, err)
}

// Discard removes a staged file without publishing it; its target is
// untouched and the ticket becomes unknown. It does nothing for "", for
// an unknown ticket, or for one Remove cancelled. An error means the temp
// file could not be removed; the next run's crash sweep removes it. It is
// safe for concurrent use.
func (m *Mirror) Discard(ticket string) error {
	if ticket == "" {
		return nil
	}
	m.stageMu.Lock()
	s := m.staged[ticket]
	if s != nil {
		delete(m.staged, ticket)
		if !s.cancelled {
			m.unindex(s)
		}
	}
	m.stageMu.Unlock()
	if s == nil || s.cancelled {
		return nil
	}
	if err := m.removeTemp(s.tmp); err != nil {
		return fmt.Errorf("discard %s: %w", s.rel, err)
	}
	return nil
}

// discardAll discards every staged file, at the end of a session.
func (m *Mirror) discardAll() error {
	m.stageMu.Lock()
	var live []*stagedFile
	for _, s := range m.staged {
		if !s.cancelled {
			live = append(live, s)
		}
	}
	clear(m.staged)
	clear(m.byRel)
	m.stageMu.Unlock()
	var errs []error
	for _, s := range live {
		if err := m.removeTemp(s.tmp); err != nil {
			errs = append(errs, fmt.Errorf("discard %s: %w", s.rel, err))
		}
	}
	return errors.Join(errs...)
}

// SyncDirs makes durable every change that Publish's renames, Remove, the
// making of parent directories and the removal of temp files made since
// the last Publish or SyncDirs - with one syncfs when anything changed,
// else nothing. Callers use it after a batch of removals only (Publish
// does the same as its last step). Where syncfs is unavailable, each
// changed directory is fsynced instead. On failure the changes stay
// pending (the next call retries them), the error says why (naming each
// directory when fsynced one by one), and nothing may be recorded as
// durable. Calls are serialised with each other and with Publish. It is
// safe for concurrent use with every other method.
func (m *Mirror) SyncDirs() error {
	m.pubMu.Lock()
	defer m.pubMu.Unlock()
	return m.syncDirty()
}

// syncDirty is SyncDirs; the caller holds pubMu.
func (m *Mirror) syncDirty() error {
	dirs := m.takeDirty()
	if len(dirs) == 0 {
		return nil
	}
	if !m.noSyncFS.Load() {
		err := m.fsys.SyncFS()
		if err == nil {
			return nil
		}
		if !syncFSUnavailable(err) {
			for _, d := range dirs {
				m.markDirty(d)
			}
			return fmt.Errorf("sync the file system of %s: %w", m.dest, err)
		}
		m.noSyncFS.Store(true)
	}
	return m.syncDirList(dirs)
}

// syncDirList fsyncs each of dirs, where syncfs is unavailable; those
// that fail stay dirty.
func (m *Mirror) syncDirList(dirs []string) error {
	sort.Strings(dirs)
	var errs []error
	for _, d := range dirs {
		err := m.fsys.SyncDir(d)
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			continue // a pruned directory: its removal is in its (dirty) parent
		}
		m.markDirty(d)
		errs = append(errs, fmt.Errorf("sync directory %s: %w", d, err))
	}
	return errors.Join(errs...)
}

// target returns the lock of rel's stripe (see Mirror.targetMu).
func (m *Mirror) target(rel string) *sync.Mutex {
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(rel); i++ {
		h = (h ^ uint32(rel[i])) * 16777619
	}
	return &m.targetMu[h%uint32(len(m.targetMu))]
}

// takeDirty returns the dirty directories and clears the set.
func (m *Mirror) takeDirty() []string {
	m.dirtyMu.Lock()
	defer m.dirtyMu.Unlock()
	dirs := make([]string, 0, len(m.dirty))
	for d := range m.dirty {
		dirs = append(dirs, d)
	}
	clear(m.dirty)
	return dirs
}
