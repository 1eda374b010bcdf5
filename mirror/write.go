package mirror

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// tempPrefix starts every temp file name: "%tmp-" and 16 lower-case hex
// digits. No mapped name starts with "%t", so the crash sweep can never
// take a resource for a temp file.
const tempPrefix = "%tmp-"

func isTempName(name string) bool {
	if len(name) != len(tempPrefix)+16 || !strings.HasPrefix(name, tempPrefix) {
		return false
	}
	for i := len(tempPrefix); i < len(name); i++ {
		c := name[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Put writes the new content of rel (a path from Path) into a temp file
// beside it - "%tmp-" and 16 hex digits, in the target's directory, whose
// missing parents it makes - and stages it: fill writes the content
// through the sink it is given (a retried attempt calls Reset first). When
// fill returns keep=true and no error, the temp file gets mtime as its
// modification time (the Source's lastmod, like rsync; a zero mtime leaves
// the time of writing), is closed, and is staged: nothing is visible at rel
// yet, and ticket names the file for Publish (or Discard). The sink must
// not be used after fill returns.
//
// keep=false, an error from fill, or any failure removes the temp file and
// returns ticket "", leaving rel untouched; keep=false with no error
// returns no error. An error from fill is returned as it is, so that the
// caller can classify it; the mirror's own errors name rel: ErrNotLocked
// without the lock (or when the session ends while fill runs),
// ErrReadOnly on a read-only Mirror, ErrPathConflict when a parent is a
// file or a symlink or rel is a directory, fs.ErrInvalid for a path the
// mapping never produces, and the file system's error (ENOSPC, EIO, ...)
// otherwise. Data is not synced here: see Publish. It is safe for
// concurrent use.
func (m *Mirror) Put(rel string, mtime time.Time, fill func(resourcesync.Sink) (keep bool, err error)) (ticket string, err error) {
	if err := checkRel("put", rel); err != nil {
		return "", err
	}
	if m.readOnly {
		return "", fmt.Errorf("put %s: %w", rel, ErrReadOnly)
	}
	p, session, err := m.create(rel)
	if err != nil {
		return "", fmt.Errorf("put %s: %w", rel, err)
	}
	staged := false
	defer func() {
		if !staged {
			p.discard() // a fill that panicked; otherwise a no-op by now
		}
	}()
	keep, err := fill(p)
	if err != nil && p.kept {
		// A large download failed part way: its bytes stay for the
		// next run, which continues from them.
		if perr := p.park(); perr != nil {
			p.discard()
		}
		return "", err
	}
	if err != nil {
		p.discard() // the fill error says what matters
		return "", err
	}
	if !keep {
		if err := p.discard(); err != nil {
			return "", fmt.Errorf("put %s: remove temp file: %w", rel, err)
		}
		return "", nil
	}
	if err := p.finish(mtime); err != nil {
		p.discard()
		return "", fmt.Errorf("put %s: %w", rel, err)
	}
	if !m.stage(p, session) {
		p.discard()
		return "", fmt.Errorf("put %s: %w (the session ended while writing)", rel, ErrNotLocked)
	}
	staged = true
	return p.tmp, nil
}

// pending is a temp file being written by Put; fill writes it through the
// resourcesync.Sink methods. It is used by one goroutine at a time.
type pending struct {
	m    *Mirror
	rel  string // the target
	tmp  string
	f    File // nil once closed
	done bool // staged or discarded: Write and Reset fail

	// reserved is the space taken from the mirror's free-space estimate
	// for this file; written what the current attempt wrote.
	reserved, written int64

	// A partial download (partial.go): base is the size of the partial
	// the file was opened on (already on disk, so never reserved), offer
	// what of it may be resumed (until Resume, a Write or Reset); kept
	// says a failure keeps the file, meta describes it, and nextCheck is
	// where its next checkpoint falls.
	base, offer int64
	kept        bool
	meta        partialMeta
	nextCheck   int64
}

// Reserve checks that n bytes fit on the mirror's file system, keeping
// Options.MinFree free, before they are written: a body whose length is
// known fails at once with ErrNoSpace, before a byte of it is fetched.
// Writes beyond n reserve more as they go.
// A partial the file was opened on counts as written already.
func (p *pending) Reserve(n int64) error {
	n -= p.base
	if n <= p.reserved {
		return nil
	}
	if err := p.m.space.reserve(n - p.reserved); err != nil {
		return fmt.Errorf("write %s: %w", p.rel, err)
	}
	p.reserved = n
	return nil
}

// create makes the missing parent directories of rel (a checked path)
// and opens an empty temp file beside it, in the current write session,
// whose number it returns.
func (m *Mirror) create(rel string) (*pending, uint64, error) {
	// Count first, then check the session: release ends the session
	// first, then reads the count, so one of the two sees the other.
	m.pending.Add(1)
	session := m.writeSession.Load()
	if session == 0 {
		m.pending.Add(-1)
		return nil, 0, ErrNotLocked
	}
	dir := path.Dir(rel)
	m.tree.RLock()
	p, err := m.createLocked(dir, rel, session)
	m.tree.RUnlock()
	if err != nil {
		m.pending.Add(-1)
		return nil, 0, err
	}
	return p, session, nil
}

func (m *Mirror) createLocked(dir, rel string, session uint64) (*pending, error) {
	p, err := m.createIn(dir, rel, session)
	if errors.Is(err, fs.ErrNotExist) {
		// A directory known to exist was removed behind our back: check
		// the parents again, once.
		m.forgetDirs(dir)
		p, err = m.createIn(dir, rel, session)
	}
	return p, err
}

// createIn opens rel's temp file: the partial download an earlier run
// kept, if any, else a new one.
func (m *Mirror) createIn(dir, rel string, session uint64) (*pending, error) {
	if err := m.parents(dir, true); err != nil {
		return nil, err
	}
	// Refusing a directory target now saves fetching a body that Publish
	// could not rename into place. In a directory made in this session,
	// under the lock, every directory is one the mirror made, and so in
	// dirsOK: a first baseline asks no lstat of each file (one made
	// behind our back is still refused, by Publish's rename).
	if s, ok := m.made.Load(dir); ok && s.(uint64) >= m.sessionMark.Load() && m.writeSession.Load() == session {
		if _, isDir := m.dirsOK.Load(rel); isDir {
			return nil, fmt.Errorf("%w: %s is a directory", ErrPathConflict, rel)
		}
	} else if fi, err := m.fsys.Lstat(rel); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is a directory", ErrPathConflict, rel)
	}
	if f, meta, size := m.openPartial(rel); f != nil {
		return &pending{m: m, rel: rel, tmp: partialFile(rel), f: f, base: size, offer: size, kept: true, meta: meta}, nil
	}
	f, tmp, err := m.createTemp(dir)
	if err != nil {
		return nil, err
	}
	return &pending{m: m, rel: rel, tmp: tmp, f: f}, nil
}

// createTemp creates a new empty temp file in dir.
func (m *Mirror) createTemp(dir string) (File, string, error) {
	var b [8]byte
	for {
		rand.Read(b[:])
		tmp := path.Join(dir, tempPrefix+hex.EncodeToString(b[:]))
		f, err := m.fsys.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue // 64 random bits collided: draw again
		}
		return f, tmp, err
	}
}

// parents checks that every element of dir is a real directory - not a
// symlink, which os.Root would follow to anywhere inside the mirror, and
// not a file - and, when mkdir is set, makes the missing ones (each new
// directory marks its parent dirty). Without mkdir a missing element is an
// fs.ErrNotExist error. Directories found good are remembered (dirsOK) so
// that the next file in them costs no check; prune forgets those it
// removes.
func (m *Mirror) parents(dir string, mkdir bool) error {
	if dir == "." {
		return nil
	}
	if _, ok := m.dirsOK.Load(dir); ok {
		return nil
	}
	made := false // below a directory just made, nothing exists yet
	for i := 0; i <= len(dir); i++ {
		if i < len(dir) && dir[i] != '/' {
			continue
		}
		p := dir[:i]
		if _, ok := m.dirsOK.Load(p); ok {
			continue
		}
		var fi fs.FileInfo
		err := fs.ErrNotExist
		if !made {
			fi, err = m.fsys.Lstat(p)
		}
		if mkdir && errors.Is(err, fs.ErrNotExist) {
			err = m.fsys.Mkdir(p, 0o755)
			if err == nil {
				made = true
				m.markDirty(path.Dir(p))
				m.made.Store(p, m.marks.Load())
				m.dirsOK.Store(p, struct{}{})
				continue
			}
			if errors.Is(err, fs.ErrExist) { // another Put made it
				fi, err = m.fsys.Lstat(p)
			}
		}
		switch {
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%w: %s is a symlink, which the mirror does not follow", ErrPathConflict, p)
		case !fi.IsDir():
			return fmt.Errorf("%w: %s is a file", ErrPathConflict, p)
		}
		m.dirsOK.Store(p, struct{}{})
	}
	return nil
}

// forgetDirs forgets that dir and its parents were checked.
func (m *Mirror) forgetDirs(dir string) {
	for d := dir; d != "." && d != "/"; d = path.Dir(d) {
		m.dirsOK.Delete(d)
		m.made.Delete(d)
	}
}

// Write appends b to the temp file. Errors (ENOSPC, EIO) name the target.
// A partial offered and not resumed is dropped first: the writer does not
// know of it.
func (p *pending) Write(b []byte) (int, error) {
	if p.done {
		return 0, fmt.Errorf("write %s: %w", p.rel, os.ErrClosed)
	}
	if p.offer > 0 {
		if err := p.Reset(); err != nil {
			return 0, err
		}
	}
	if need := p.written + int64(len(b)); need > p.reserved+p.base {
		if err := p.Reserve(need); err != nil {
			return 0, err
		}
	}
	n, err := p.f.Write(b)
	p.written += int64(n)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", p.rel, err)
	}
	if p.kept && p.written >= p.nextCheck {
		if err := p.checkpoint(); err != nil {
			return n, fmt.Errorf("write %s: checkpoint: %w", p.rel, err)
		}
	}
	return n, nil
}

// Reset empties the temp file for a fresh attempt (a retried download),
// dropping the partial it was opened on or kept.
func (p *pending) Reset() error {
	if p.done {
		return fmt.Errorf("reset %s: %w", p.rel, os.ErrClosed)
	}
	if err := p.truncate(0); err != nil {
		return fmt.Errorf("reset %s: %w", p.rel, err)
	}
	p.unkeep()
	return nil
}

func (p *pending) truncate(n int64) error {
	if err := p.f.Truncate(n); err != nil {
		return err
	}
	p.written, p.offer = n, 0
	_, err := p.f.Seek(n, io.SeekStart)
	return err
}

// Partial offers the partial download the file was opened on: its bytes
// and the validator they were fetched with (source's resumer).
func (p *pending) Partial() (int64, string) { return p.offer, p.meta.Validator }

// Resume continues after the first n bytes of the partial offered, or of
// what this Put wrote (a body cut part way, continued by the next attempt).
func (p *pending) Resume(n int64) error {
	if p.done || n > max(p.offer, p.written) {
		return fmt.Errorf("resume %s at %d: %w", p.rel, n, fs.ErrInvalid)
	}
	if err := p.truncate(n); err != nil {
		return fmt.Errorf("resume %s: %w", p.rel, err)
	}
	p.nextCheck = n + checkpointEvery(p.reserved+p.base)
	return nil
}

// Keep makes a failure of this download keep its bytes for the next run
// (partial.go); url and validator are recorded with them.
func (p *pending) Keep(url, validator string) error {
	if p.done {
		return fmt.Errorf("keep %s: %w", p.rel, os.ErrClosed)
	}
	return p.keep(url, validator)
}

// ReadAt reads back what the file holds (the verifier resumes over it).
func (p *pending) ReadAt(b []byte, off int64) (int, error) {
	if p.done {
		return 0, fmt.Errorf("read %s: %w", p.rel, os.ErrClosed)
	}
	at, err := p.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if _, err := p.f.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(p.f, b)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	if _, serr := p.f.Seek(at, io.SeekStart); serr != nil && err == nil {
		err = serr
	}
	return n, err
}

// finish sets the modification time and closes the temp file. The file is
// not fsynced: Publish makes all staged files durable with one syncfs.
func (p *pending) finish(mtime time.Time) error {
	p.done = true
	p.m.space.release(p.reserved - max(0, p.written-p.base)) // the file holds what it holds
	p.reserved = max(0, p.written-p.base)
	if strings.HasPrefix(p.tmp, partialDir+"/") {
		if err := p.unpark(); err != nil {
			return err
		}
	}
	if !mtime.IsZero() {
		if err := setTimes(p.m.fsys, p.f, p.tmp, p.m.now(), mtime); err != nil {
			return err
		}
	}
	f := p.f
	p.f = nil
	return f.Close()
}

// discard closes and removes the temp file; later calls do nothing.
func (p *pending) discard() error {
	if p.tmp == "" {
		return nil
	}
	p.done = true
	p.m.space.release(p.reserved)
	p.reserved = 0
	var err error
	if p.f != nil {
		err = p.f.Close()
		p.f = nil
	}
	tmp := p.tmp
	p.tmp = ""
	if strings.HasPrefix(tmp, partialDir+"/") {
		_ = p.m.fsys.Remove(tmp + ".json")
		p.m.partialKeys.Delete(path.Base(tmp))
	}
	if rerr := p.m.removeTemp(tmp); rerr != nil {
		return rerr
	}
	return err
}

// removeTemp removes a temp file. The pending count drops only when the
// file is gone, so that a leftover keeps the crash marker (and its sweep)
// alive; its directory becomes dirty, so that the removal is durable
// before the marker is cleared.
func (m *Mirror) removeTemp(tmp string) error {
	err := m.fsys.Remove(tmp)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	m.entries.forget(path.Dir(tmp))
	m.pending.Add(-1)
	m.markDirty(path.Dir(tmp))
	return nil
}

// Remove deletes the file (or symlink; never its target) at rel, reached
// without following any symlink, and then every parent directory it leaves
// empty, up to but not including the top-level directory. It also cancels
// every file staged for rel and not yet published: its temp file is
// removed and Publish reports ErrSuperseded for its ticket, so that "write
// X, then delete X" leaves no X even while the write is staged. The
// changes are durable after the next Publish or SyncDirs.
//
// It fails with ErrNotLocked without the lock, ErrReadOnly on a read-only
// Mirror, ErrPathConflict when rel is a directory or a parent is not one,
// and with an error matching fs.ErrNotExist when nothing is there and
// nothing was staged for rel. Pruning is best effort: a directory that
// cannot be removed stays. Errors name rel. It is safe for concurrent use.
func (m *Mirror) Remove(rel string) error {
	if err := checkRel("remove", rel); err != nil {
		return err
	}
	if m.readOnly {
		return fmt.Errorf("remove %s: %w", rel, ErrReadOnly)
	}
	if m.writeSession.Load() == 0 {
		return fmt.Errorf("remove %s: %w", rel, ErrNotLocked)
	}
	cancelled, cerr := m.cancelStaged(rel)
	if cerr != nil {
		cerr = fmt.Errorf("remove %s: discard its staged version: %w", rel, cerr)
	}
	dir := path.Dir(rel)
	if err := m.parents(dir, false); err != nil {
		if cancelled > 0 && errors.Is(err, fs.ErrNotExist) {
			return cerr
		}
		return errors.Join(fmt.Errorf("remove %s: %w", rel, err), cerr)
	}
	fi, err := m.fsys.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist) && cancelled > 0:
		// Only the staged version existed; its temp file is gone.
	case err != nil:
		return errors.Join(fmt.Errorf("remove %s: %w", rel, err), cerr)
	case fi.IsDir():
		return errors.Join(fmt.Errorf("remove %s: %w: is a directory", rel, ErrPathConflict), cerr)
	default:
		if err := m.fsys.Remove(rel); err != nil {
			return errors.Join(fmt.Errorf("remove %s: %w", rel, err), cerr)
		}
		m.markDirty(dir)
	}
	m.prune(dir)
	return cerr
}

// prune removes dir and its parents while they are empty, stopping below
// the top level. The caller has checked that they are real directories.
func (m *Mirror) prune(dir string) {
	if !strings.Contains(dir, "/") || m.entries.took(dir) || m.holdsEntries(dir) {
		// The usual case, told without the tree's lock: taking it waits
		// for every Put in flight and stops the others meanwhile (half
		// the workers' lock waits of a backlog's deletions).
		return
	}
	m.tree.Lock()
	defer m.tree.Unlock()
	for d := dir; strings.Contains(d, "/"); d = path.Dir(d) {
		if m.fsys.Remove(d) != nil { // not empty, usually
			break
		}
		m.dirsOK.Delete(d)
		m.made.Delete(d)
		m.entries.forget(d)
		m.entries.forget(path.Dir(d))
		m.markDirty(path.Dir(d))
	}
}

// holdsEntries reports whether dir is seen to hold an entry (and
// remembers how many it saw: dirEntries). It is false when dir is empty or
// cannot be read: prune then tries under the lock. Two Removes emptying
// one directory each look after their own unlink, so the later look sees
// it empty.
func (m *Mirror) holdsEntries(dir string) bool {
	epoch := m.entries.look()
	f, err := m.fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if c, ok := f.(syscall.Conn); ok {
		if n, ok := countEntries(c); ok {
			m.entries.saw(dir, n, epoch)
			return n > 0
		}
	}
	d, ok := f.(interface {
		ReadDir(n int) ([]fs.DirEntry, error)
	})
	if !ok {
		return false
	}
	entries, _ := d.ReadDir(1)
	return len(entries) > 0
}
