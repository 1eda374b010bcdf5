package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"
)

const (
	lockName   = stateDir + "/lock"
	markerName = stateDir + "/dirty"
	// lockTries and lockRetryWait bound how long a writer waits out a
	// shared lock held for an instant (WriteHolder's probe).
	lockTries     = 5
	lockRetryWait = 10 * time.Millisecond
)

// Lock opens a session on the mirror and returns the function that ends
// it (idempotent; Close ends it too).
//
// A write session takes the mirror's single-writer lock: a non-blocking
// exclusive flock on .resync-dest/lock. Because flock belongs to an open
// file description, a second Mirror on the same directory - in this
// process or another - gets ErrLocked (naming the holder's pid when it
// can), and a killed process leaves no stale lock: the kernel drops it
// with the descriptor. Holding the lock is what makes the crash sweep
// sound. Lock creates the marker .resync-dest/dirty (durably); release
// discards every file still staged (their tickets become invalid), makes
// every change durable (SyncDirs) and removes the marker once no temp file
// is left (a temp file that could not be removed, or a failed SyncDirs,
// keeps it). When Lock finds the marker, the previous writer did not
// finish cleanly, and Lock first removes every temp file (%tmp- followed
// by 16 hex digits; nothing else) in the whole mirror: files being written
// and files staged but not published alike. Only the lock holder sweeps,
// so a second run never removes the temp files of one in progress.
//
// A read-only session (Options.ReadOnly) takes a shared flock on the lock
// file if it exists - opened read-only, never created -, so that read-only
// runs coexist with each other, a write run in progress makes Lock fail
// with ErrLocked, and a write run cannot start while they read. It never
// touches the marker and never sweeps.
//
// Lock is safe for concurrent use; a Mirror that has a session open
// already gets ErrLocked.
func (m *Mirror) Lock() (release func() error, err error) {
	m.lockMu.Lock()
	defer m.lockMu.Unlock()
	lockPath := path.Join(m.dest, lockName)
	if m.holding {
		return nil, fmt.Errorf("lock %s: %w (this Mirror holds it already)", lockPath, ErrLocked)
	}
	var f *os.File
	if m.readOnly {
		f, err = m.lockShared()
	} else {
		f, err = m.lockExclusive()
	}
	if err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w%s", lockPath, ErrLocked, m.holder())
		}
		return nil, fmt.Errorf("lock %s: %w", lockPath, err)
	}
	m.holding, m.lockFile = true, f
	m.session++
	if !m.readOnly {
		m.entries.reset()
		m.sessionMark.Store(m.marks.Add(1))
		m.writeSession.Store(m.session)
	}
	session := m.session
	return func() error { return m.release(session) }, nil
}

// lockExclusive opens (creating) the lock file, locks it, and starts the
// write session: sweep if needed, set the marker.
func (m *Mirror) lockExclusive() (*os.File, error) {
	f, err := m.root.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	// A shared lock held for an instant (status probing whether a run
	// is going: WriteHolder) must not lock a writer out: it is tried a
	// few times over a few tens of milliseconds before giving up.
	for try := 0; ; try++ {
		err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || try == lockTries-1 {
			break
		}
		time.Sleep(lockRetryWait)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	// Who holds it is for the message another run shows and for status;
	// the lock is the flock.
	if err := f.Truncate(0); err == nil {
		f.WriteAt(encodeHolder(thisHolder()), 0)
	}
	if err := m.beginSession(); err != nil {
		f.Close()
		return nil, err
	}
	if err := m.loadPartialKeys(); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// lockShared takes the shared lock if the lock file exists; without one,
// no write run has ever locked the mirror, and there is nothing to share.
func (m *Mirror) lockShared() (*os.File, error) {
	if m.root == nil {
		return nil, nil // the mirror does not exist
	}
	// O_NONBLOCK: a FIFO planted there must not hang the open.
	f, err := m.root.OpenFile(lockName, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := flock(f, syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func flock(f *os.File, how int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = syscall.Flock(int(fd), how) }); err != nil {
		return err
	}
	return ferr
}

// holder says who holds the lock: read-only runs, when a shared lock can
// be taken beside theirs; else the write run, by the pid it wrote.
func (m *Mirror) holder() string {
	if m.root == nil {
		return ""
	}
	if f, err := m.root.OpenFile(lockName, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
		shared := flock(f, syscall.LOCK_SH|syscall.LOCK_NB) == nil
		f.Close()
		if shared {
			return " (a read-only run: a dry run, audit or status)"
		}
	}
	b, err := m.root.ReadFile(lockName)
	if err != nil {
		return ""
	}
	h, ok := parseHolder(b)
	if !ok {
		return ""
	}
	return " (" + h.String() + ")"
}

// beginSession sweeps after an unclean end and sets the crash marker.
func (m *Mirror) beginSession() error {
	if _, err := m.fsys.Lstat(markerName); err == nil {
		if err := m.sweep(); err != nil {
			return fmt.Errorf("sweep temp files of an unfinished run: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("check crash marker: %w", err)
	}
	f, err := m.fsys.OpenFile(markerName, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("set crash marker: %w", err)
	}
	_, err = f.Write([]byte("a run holding the lock has not finished; the next one sweeps temp files\n"))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = m.fsys.SyncDir(stateDir)
	}
	if err != nil {
		return fmt.Errorf("set crash marker: %w", err)
	}
	return nil
}

// sweep removes every temp file in the mirror, and what a partial
// download left incomplete (not the partials themselves: the next run
// continues them), and makes the removals durable.
func (m *Mirror) sweep() error {
	err := m.walkDir("", func(rel string, d fs.DirEntry) error {
		if !isTempName(d.Name()) {
			return nil
		}
		if err := m.fsys.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", rel, err)
		}
		m.markDirty(path.Dir(rel))
		return nil
	})
	if err != nil {
		return err
	}
	if err := m.sweepPartialOrphans(); err != nil {
		return err
	}
	return m.SyncDirs()
}

// release ends the session numbered session (0: the current one, if
// any). A write session is ended first - so that Put and Remove refuse -,
// then its staged files are discarded, every change is made durable, the
// marker is cleared when no temp file can be left, and the lock dropped. A
// stale release of an earlier session does nothing.
func (m *Mirror) release(session uint64) error {
	m.lockMu.Lock()
	defer m.lockMu.Unlock()
	if session != 0 && (session != m.session || !m.holding) {
		return nil
	}
	if !m.holding { // Close of a Mirror that never locked
		return m.SyncDirs()
	}
	var err error
	if !m.readOnly {
		// The session first, then the count: see create.
		m.writeSession.Store(0)
		m.sessionMark.Store(0)
		err = m.discardAll()
		if serr := m.SyncDirs(); err == nil {
			err = serr
		}
		if err == nil && m.pending.Load() == 0 {
			if rerr := m.fsys.Remove(markerName); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				err = fmt.Errorf("clear crash marker: %w", rerr)
			}
		}
	}
	if m.lockFile != nil {
		if cerr := m.lockFile.Close(); err == nil && cerr != nil { // closing drops the flock
			err = fmt.Errorf("unlock: %w", cerr)
		}
	}
	m.holding, m.lockFile = false, nil
	return err
}
