package mirror

import (
	"errors"
	"fmt"
	"io/fs"
)

// Sync and Place split Publish for a writer that pipelines its group
// commits: each flush calls Sync once, which makes durable both the data
// of the files it is about to Place and the renames (and removals) of the
// flush before, whose batch it may then record. One barrier per batch
// instead of Publish's two.

// Sync makes durable, with one syncfs of the mirror's file system, the
// data of every file staged so far, and every rename by Place or Publish,
// every removal by Remove and every directory made or pruned so far.
// Where syncfs is unavailable (ENOSYS, EOPNOTSUPP), each file staged since
// the last Sync and then each changed directory is fsynced instead. On
// failure nothing may be recorded as durable; the files stay staged and
// the directories dirty, so the next Sync tries again. Sync on a read-only
// Mirror does nothing. Calls are serialised with Place, Publish and
// SyncDirs; it is safe for concurrent use with Put, Remove and Discard.
func (m *Mirror) Sync() error {
	if m.readOnly {
		return nil
	}
	m.pubMu.Lock()
	defer m.pubMu.Unlock()
	m.stageMu.Lock()
	g := m.gen // files staged from now on are of the next generation
	m.gen++
	m.stageMu.Unlock()
	dirs := m.takeDirty()
	if !m.noSyncFS.Load() {
		err := m.fsys.SyncFS()
		if err == nil {
			m.synced.Store(g)
			return nil
		}
		if !syncFSUnavailable(err) {
			m.remarkDirty(dirs)
			return fmt.Errorf("sync the file system of %s: %w", m.dest, err)
		}
		m.noSyncFS.Store(true)
	}
	for _, tmp := range m.stagedSince(m.synced.Load(), g) {
		// One that vanished was cancelled or discarded meanwhile.
		if err := m.syncFile(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
			m.remarkDirty(dirs)
			return fmt.Errorf("sync %s: %w", tmp, err)
		}
	}
	m.synced.Store(g)
	return m.syncDirList(dirs)
}

// Place renames the staged files tickets into place, in the order given
// (of two tickets for one target, the last wins), and returns one error
// per ticket, as Publish's second step does (ErrPathConflict,
// ErrSuperseded, fs.ErrInvalid; a failed ticket is consumed and the
// previous version of its target stays). A ticket whose data no Sync has
// made durable yet (staged after the last one began) is fsynced first:
// nothing is renamed into place before its bytes are durable. The renames
// are durable only once the next Sync returns: record them after it, never
// before. Placing on a read-only Mirror fails with ErrReadOnly.
//
// The renames run one after another. A rename that replaces a file frees
// the old one within the system call: on ext4 without a journal, mounted
// with discard, a wait for the device (with a journal, the discards wait
// for its commit instead). On the local disk file systems where freeing
// costs, the old file is held open across its rename and freed by a
// releaser in the background (release.go): on such a disk the apply of
// 180,000 changes peaked at 60-68 MiB instead of 87-90, its time the same
// (bench-sync), and 5,000 renames over files took 146-161 µs each instead
// of 213-237 (BenchmarkPlaceReplacing5k). Two other ways were measured and
// not kept. Spreading a batch over four goroutines by target: the apply of
// 180,000 changes (60,000 updates) took 72 s and 70 s against 65 s and 62
// s, though run first in each round, after deletions (see bench-sync).
// Freeing nothing: exchanging the two names (RENAME_EXCHANGE) and writing
// later Puts over the old file once a Sync made the exchange durable (and
// only when no other link or open descriptor reached it, checked with a
// write lease) cut the writer's renames in that apply from 36.7 s to 11.5
// s, but not the apply (64.4 s and 66.1 s against 65.3 s and 67.7 s,
// alternated): on two cores the workers and the Source bound it first.
// Keeping the files Remove deletes as well, so that an apply frees nothing
// until its end, did not change it either (90,000 changes on 100,000: 26.3
// s against 26.5 s).
func (m *Mirror) Place(tickets []string) []error {
	errs := make([]error, len(tickets))
	if m.readOnly {
		for i := range errs {
			errs[i] = fmt.Errorf("publish: %w", ErrReadOnly)
		}
		return errs
	}
	m.pubMu.Lock()
	defer m.pubMu.Unlock()
	live := m.resolve(tickets, errs)
	if len(live) == 0 {
		return errs
	}
	m.syncLate(tickets, live, errs)
	m.recheckDirs(tickets, live)
	for _, i := range live {
		if errs[i] == nil {
			errs[i] = m.rename(tickets[i])
		}
	}
	return errs
}

// syncLate fsyncs the files of tickets[live] staged after the last Sync
// began; one that cannot be made durable is discarded and gets its error.
func (m *Mirror) syncLate(tickets []string, live []int, errs []error) {
	synced := m.synced.Load()
	var late []int
	m.stageMu.Lock()
	for _, i := range live {
		if s := m.staged[tickets[i]]; s != nil && s.gen > synced {
			late = append(late, i)
		}
	}
	m.stageMu.Unlock()
	for _, i := range late {
		err := m.syncFile(tickets[i])
		if err == nil || errors.Is(err, fs.ErrNotExist) { // cancelled meanwhile: rename says so
			continue
		}
		errs[i] = fmt.Errorf("publish %s: make its data durable: %w", tickets[i], err)
		if derr := m.Discard(tickets[i]); derr != nil {
			errs[i] = errors.Join(errs[i], derr)
		}
	}
}

// stagedSince returns the temp files staged in generations (after, upto].
func (m *Mirror) stagedSince(after, upto uint64) []string {
	m.stageMu.Lock()
	defer m.stageMu.Unlock()
	var tmps []string
	for _, s := range m.staged {
		if !s.cancelled && s.gen > after && s.gen <= upto {
			tmps = append(tmps, s.tmp)
		}
	}
	return tmps
}

func (m *Mirror) remarkDirty(dirs []string) {
	for _, d := range dirs {
		m.markDirty(d)
	}
}
