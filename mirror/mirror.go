package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Options configure a Mirror.
type Options struct {
	// Maps are the --map options; see MAPPING.md.
	Maps []Map
	// FS performs every file operation; nil means a RootFS over the mirror
	// directory. Reliability tests pass a FaultFS.
	FS FS
	// Now is the clock; it sets the access time of written files.
	Now func() time.Time
	// ReadOnly opens the mirror for --dry-run, audit and status, which
	// must write nothing: Open creates nothing (a missing directory is an
	// empty mirror), Lock takes a shared lock only if the lock file exists,
	// never sets the crash marker and never sweeps, and Put, Remove and
	// Publish of a ticket fail with ErrReadOnly.
	ReadOnly bool
	// MinFree is the free space Put keeps on the mirror's file system: a
	// file that would leave less fails with ErrNoSpace, before its body is
	// written when its length is known (Reserve), else as it grows.
	MinFree int64
	// FreeSpace reports the bytes that may still be written on the
	// mirror's file system; nil means statfs(2) of the mirror directory.
	// Tests give a small disk.
	FreeSpace func() (int64, error)
}

// DefaultOptions returns Options with no maps, the os.Root-backed FS, the
// wall clock, writing allowed, and 64 MiB kept free.
func DefaultOptions() Options {
	return Options{Now: time.Now, MinFree: 64 << 20}
}

// Mirror is the local tree of one Destination. All its methods are safe for
// concurrent use, except Close, which must not run concurrently with
// writes.
type Mirror struct {
	dest     string   // absolute
	root     *os.Root // nil for a read-only mirror whose directory does not exist
	rootFS   *RootFS  // the FS Open made, closed by Close; nil when injected
	fsys     FS
	mapper   *Mapper
	now      func() time.Time
	readOnly bool

	// tree orders Put (read side: make parents, open the temp file)
	// against Remove's pruning of empty directories (write side), so a
	// directory is never pruned between being made and being used.
	tree sync.RWMutex
	// dirsOK are directories checked to be real directories in this tree
	// (see parents).
	dirsOK sync.Map
	// made are the directories this Mirror made, each with the value of
	// marks when it made it (see createIn and MadeSince).
	made sync.Map
	// marks counts up at each Mark and at the start of each write
	// session; sessionMark is its value when the open write session
	// started (0 outside one).
	marks, sessionMark atomic.Uint64
	// entries bounds what directories a removal looked into still hold.
	entries dirEntries
	// partialKeys are the keys of the partial downloads kept in
	// partialDir (partial.go), read when the lock is taken, so that a Put
	// looks for one without a system call.
	partialKeys sync.Map

	dirtyMu sync.Mutex
	dirty   map[string]struct{} // directories with changes not yet durable

	pubMu    sync.Mutex  // one Publish or SyncDirs at a time: see Publish
	noSyncFS atomic.Bool // SyncFS said it is unavailable: fsync one by one

	stageMu sync.Mutex
	staged  map[string]*stagedFile   // by ticket
	byRel   map[string][]*stagedFile // the uncancelled ones, by target
	// targetMu orders a rename against the cancellation of its target's
	// staged files by Remove (see rename), one lock per stripe of targets:
	// stageMu is not held across the rename syscall, which under load
	// waits on the directory, so the workers' Put and Remove go on.
	targetMu [64]sync.Mutex
	// gen is the generation of the files staged now: each Sync starts a
	// new one; synced is the last generation whose data a Sync made
	// durable (see Sync and Place). gen is guarded by stageMu.
	gen    uint64
	synced atomic.Uint64

	lockMu   sync.Mutex
	holding  bool     // a session (write or read-only) is open
	lockFile *os.File // its lock file; nil in a read-only session without one
	session  uint64   // number of the current or last session
	// writeSession is the number of the open write session, 0 outside one;
	// Put checks it when it starts and again when it stages.
	writeSession atomic.Uint64
	// pending counts temp files that may be on disk: being written,
	// staged, or whose removal failed. The crash marker is cleared only at
	// zero.
	pending atomic.Int64

	closed atomic.Bool

	space spaceGuard
}

// Open opens the mirror at dest. For writing, it creates dest and
// dest/.resync-dest/ when missing; with opts.ReadOnly it creates nothing,
// and a missing dest is an empty mirror. It fails when dest cannot be
// created or opened or is not a directory, when a map is invalid, or when
// .resync-dest exists but is not a directory (a symlink there is refused,
// since the state database would follow it). Opening writes nothing else:
// taking the lock (Lock) is what marks a write session and sweeps a
// crashed run's temp files.
func Open(dest string, opts Options) (*Mirror, error) {
	if dest == "" {
		return nil, errors.New("open mirror: no directory given")
	}
	abs, err := filepath.Abs(dest)
	if err != nil {
		return nil, fmt.Errorf("open mirror %s: %w", dest, err)
	}
	mapper, err := NewMapper(opts.Maps)
	if err != nil {
		return nil, fmt.Errorf("open mirror %s: %w", abs, err)
	}
	m := &Mirror{
		dest: abs, fsys: opts.FS, mapper: mapper, now: opts.Now, readOnly: opts.ReadOnly,
		dirty:  make(map[string]struct{}),
		staged: make(map[string]*stagedFile),
		byRel:  make(map[string][]*stagedFile),
		gen:    1,
	}
	if m.now == nil {
		m.now = time.Now
	}
	m.space = spaceGuard{minFree: max(opts.MinFree, 0), measure: opts.FreeSpace, now: m.now}
	if m.space.measure == nil {
		m.space.measure = func() (int64, error) { return statfsFree(abs) }
	}
	if opts.ReadOnly {
		err = m.openReadOnly()
	} else {
		err = m.openWrite()
	}
	if err != nil {
		m.closeRoot()
		return nil, fmt.Errorf("open mirror %s: %w", abs, err)
	}
	return m, nil
}

func (m *Mirror) openWrite() error {
	if err := os.MkdirAll(m.dest, 0o755); err != nil {
		return err
	}
	if err := m.openRoot(); err != nil {
		return err
	}
	fi, err := m.fsys.Lstat(stateDir)
	if errors.Is(err, fs.ErrNotExist) {
		err = m.fsys.Mkdir(stateDir, 0o755)
		if err == nil {
			return m.fsys.SyncDir(".")
		}
		if errors.Is(err, fs.ErrExist) {
			fi, err = m.fsys.Lstat(stateDir)
		}
	}
	if err != nil {
		return err
	}
	return checkStateDir(fi)
}

func (m *Mirror) openReadOnly() error {
	fi, err := os.Stat(m.dest)
	if errors.Is(err, fs.ErrNotExist) {
		if m.fsys == nil {
			m.fsys = absentFS{}
		}
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("not a directory (%s)", fi.Mode().Type())
	}
	if err := m.openRoot(); err != nil {
		return err
	}
	// Without .resync-dest the directory was never a mirror's, but its
	// files are what a write run would find there, so they are read.
	fi, err = m.fsys.Lstat(stateDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return checkStateDir(fi)
}

func (m *Mirror) openRoot() error {
	root, err := os.OpenRoot(m.dest)
	if err != nil {
		return err
	}
	m.root = root
	if m.fsys == nil {
		if m.rootFS, err = NewRootFS(root); err != nil {
			return err
		}
		m.fsys = m.rootFS
	}
	return nil
}

func checkStateDir(fi fs.FileInfo) error {
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (%s)", stateDir, fi.Mode().Type())
	}
	return nil
}

// closeRoot closes what openRoot opened and returns the first error.
func (m *Mirror) closeRoot() error {
	var err error
	if m.rootFS != nil {
		err = m.rootFS.Close()
	}
	if m.root != nil {
		if cerr := m.root.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Close ends the session, if one is open (see Lock: staged files are
// discarded - a ticket is invalid after Close -, every directory change is
// made durable, the crash marker cleared when no temp file is left, the
// lock released), and closes the root. It returns the first error; the
// root is closed regardless. Calls after the first return nil. It must not
// run concurrently with other methods that write.
func (m *Mirror) Close() error {
	if m.closed.Swap(true) {
		return nil
	}
	err := m.release(0)
	if cerr := m.closeRoot(); err == nil && cerr != nil {
		err = fmt.Errorf("close mirror %s: %w", m.dest, cerr)
	}
	return err
}

// Path maps a resource URI to its mirror-relative path (MAPPING.md). Errors
// wrap ErrUnmappable. It is safe for concurrent use.
func (m *Mirror) Path(uri string) (string, error) { return m.mapper.Path(uri) }

// URI returns the URI whose resource the mapping stores at rel, the
// inverse of Path (see Mapper.URI): scheme is used where the path does not
// say. It is safe for concurrent use.
func (m *Mirror) URI(rel, scheme string) (string, error) { return m.mapper.URI(rel, scheme) }

// StateDir is the absolute path of dest/.resync-dest, where the lock, the
// crash marker and by default the state database live.
func (m *Mirror) StateDir() string { return StateDirIn(m.dest) }

// StateDirIn is where the mirror rooted at dest keeps its own files (the
// state, the lock, temp files): dest/.resync-dest.
func StateDirIn(dest string) string { return filepath.Join(dest, stateDir) }

// Mark returns a mark of the directories the mirror has made so far, for
// MadeSince.
func (m *Mirror) Mark() uint64 { return m.marks.Add(1) }

// MadeSince reports whether the directory rel is in was made by this
// Mirror after mark was taken, in the open write session. Under the lock
// nothing but the mirror writes in its tree, so such a directory holds
// only the files placed in it since: a run that knows it placed none at
// rel knows there is nothing there without asking the file system (a
// first baseline asked it of every new resource's path: a tenth of its
// CPU time).
func (m *Mirror) MadeSince(rel string, mark uint64) bool {
	if s := m.sessionMark.Load(); s == 0 || mark < s || m.writeSession.Load() == 0 {
		return false
	}
	v, ok := m.made.Load(path.Dir(rel))
	return ok && v.(uint64) >= mark
}

// Stat describes the entry at rel without following a symlink there (a
// symlink is reported as one). Errors name rel; a missing entry matches
// fs.ErrNotExist; a parent that is a file or a symlink (even one leading
// out of the mirror, which the file system refuses to follow) matches
// ErrPathConflict and syscall.ENOTDIR - a per-resource conflict, not a
// disk fault. It is safe for concurrent use.
func (m *Mirror) Stat(rel string) (fs.FileInfo, error) {
	if err := checkRel("stat", rel); err != nil {
		return nil, err
	}
	fi, err := m.fsys.Lstat(rel)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			if perr := m.parents(path.Dir(rel), false); errors.Is(perr, ErrPathConflict) {
				return nil, fmt.Errorf("stat %s: %w (%w)", rel, perr, syscall.ENOTDIR)
			}
		}
		return nil, fmt.Errorf("stat %s: %w", rel, err)
	}
	return fi, nil
}

// markDirty records that dir has entries not yet made durable.
func (m *Mirror) markDirty(dir string) {
	m.dirtyMu.Lock()
	m.dirty[dir] = struct{}{}
	m.dirtyMu.Unlock()
}

// checkRel refuses paths that are not clean mirror-relative paths, that
// are or lie in .resync-dest, or that name a temp file. (Other names may
// start with "." at any level: a map onto the root stores /.htaccess as
// .htaccess.)
func checkRel(op, rel string) error {
	return checkPath(op, rel, func(e string) string {
		if isTempName(e) {
			return "names a temp file"
		}
		return ""
	})
}

// CheckKey refuses what checkRel refuses but temp names: the rules of a
// mirror-relative path for a mirror that stages no temp files beside its
// objects (s3mirror's keys).
func CheckKey(op, rel string) error { return checkPath(op, rel, nil) }

// checkPath holds the rules of checkRel and CheckKey; elem, when set, is
// a further check of each element, returning why it is refused.
func checkPath(op, rel string, elem func(string) string) error {
	reason := ""
	switch {
	case rel == "":
		reason = "empty path"
	case strings.IndexByte(rel, 0) >= 0:
		reason = "contains NUL"
	case path.IsAbs(rel) || path.Clean(rel) != rel:
		reason = "not a clean relative path"
	case rel == stateDir || strings.HasPrefix(rel, stateDir+"/"):
		reason = "in " + stateDir + ", which the mirror reserves"
	}
	if reason == "" {
		for _, e := range strings.Split(rel, "/") {
			if e == ".." || e == "." {
				reason = "contains \"" + e + "\""
			} else if elem != nil {
				if r := elem(e); r != "" {
					reason = r
				}
			}
		}
	}
	if reason != "" {
		return fmt.Errorf("%s %q: %w: %s", op, rel, fs.ErrInvalid, reason)
	}
	return nil
}
