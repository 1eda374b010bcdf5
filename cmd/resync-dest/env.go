package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/dumpzip"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/s3mirror"
	"github.com/resync-dest/resync-dest/source"
	"github.com/resync-dest/resync-dest/state"
)

// env is the adapters of one run over one mirror.
type env struct {
	client  *source.Client
	mirror  destMirror
	store   destStore
	release func() error
	tmpDir  string
	cleanup func() error // removes what the run made outside the mirror; nil if nothing
}

// openEnv opens the mirror (taking its lock), the state and the HTTP
// client. A dry run opens both read-only: it writes nothing.
func openEnv(ctx context.Context, o syncOptions, d *deps) (*env, error) {
	if s3mirror.IsURL(o.dest) {
		return openS3Env(ctx, o, d)
	}
	if err := checkStatePath(o); err != nil {
		return nil, err
	}
	e := &env{release: func() error { return nil }}
	client, err := newClient(o.url, o.http, d)
	if err != nil {
		return nil, err
	}
	e.client = client
	mo := mirror.DefaultOptions()
	mo.Maps = o.maps
	mo.ReadOnly = o.dryRun
	m, err := mirror.Open(o.dest, mo)
	if err != nil {
		if errors.Is(err, mirror.ErrUnmappable) {
			return nil, usageErrorf("%v", err)
		}
		return nil, fmt.Errorf("open mirror %s: %w", o.dest, err)
	}
	e.mirror = m // closed by e.close from here on
	release, err := m.Lock()
	if err != nil {
		m.Close()
		if errors.Is(err, mirror.ErrLocked) {
			// The mirror's error names the holder: pid, host and start.
			return nil, &exitError{code: exitLocked, err: fmt.Errorf("%w; nothing was done", err)}
		}
		return nil, err
	}
	e.release = release
	statePath := o.statePath
	if statePath == "" {
		statePath = filepath.Join(m.StateDir(), "state.db")
	}
	so := o
	so.statePath = statePath
	db, err := openState(ctx, so)
	if err != nil {
		e.close()
		return nil, err // it names the state
	}
	e.store = db
	if sdb, ok := db.(*state.DB); ok && !o.dryRun { // a PostgreSQL state has no older names
		if err := renameOlderNames(ctx, m, sdb, o.dest, d); err != nil {
			e.close()
			return nil, err
		}
	}
	// Listings are temporary databases: under .resync-dest/tmp when we may
	// write there (a crashed run's leftovers are swept now, under the lock),
	// else in the system's temp directory.
	e.tmpDir = os.TempDir()
	if !o.dryRun {
		e.tmpDir = filepath.Join(m.StateDir(), "tmp")
		if err := os.RemoveAll(e.tmpDir); err != nil {
			e.close()
			return nil, fmt.Errorf("sweep %s: %w", e.tmpDir, err)
		}
		if err := os.Mkdir(e.tmpDir, 0o755); err != nil {
			e.close()
			return nil, fmt.Errorf("make %s: %w", e.tmpDir, err)
		}
		// Packages kept part way stay for this run to continue; what a
		// kill left without its meta goes.
		if _, err := dumpzip.SweepPartials(packagePartials(o.dest), func(string) bool { return true }); err != nil {
			e.close()
			return nil, fmt.Errorf("sweep partial packages: %w", err)
		}
	}
	return e, nil
}

// checkStatePath refuses a --state file among the mirror's content, where
// a deletion (--delete, or a --map) could remove it and audit would
// report it: it belongs outside DIR or under DIR/.resync-dest.
func checkStatePath(o syncOptions) error {
	if o.statePath == "" || pgstate.IsURL(o.statePath) {
		return nil
	}
	abs, err := filepath.Abs(o.statePath)
	if err != nil {
		return usageErrorf("--state %s: %v", o.statePath, err)
	}
	dest, err := filepath.Abs(o.dest)
	if err != nil {
		return usageErrorf("--dest %s: %v", o.dest, err)
	}
	rel, err := filepath.Rel(dest, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil // outside the mirror
	}
	// Under .resync-dest it is fine, but for what the program keeps there:
	// its lock, and tmp, which every run empties.
	if top, rest, _ := strings.Cut(filepath.ToSlash(rel), "/"); top == ".resync-dest" && rest != "" && rest != "lock" && rest != "tmp" && !strings.HasPrefix(rest, "tmp/") {
		return nil
	}
	return usageErrorf("--state %s is inside the mirror %s, among its content: put it outside, or under %s", o.statePath, dest, filepath.Join(dest, ".resync-dest"))
}

func (e *env) close() error {
	var errs []error
	if e.store != nil {
		errs = append(errs, e.store.Close())
	}
	errs = append(errs, e.release())
	if e.mirror != nil {
		errs = append(errs, e.mirror.Close())
	}
	if e.cleanup != nil {
		errs = append(errs, e.cleanup())
	}
	return errors.Join(errs...)
}

func (e *env) agentDeps(d *deps) agent.Deps {
	return agent.Deps{
		Client: e.client,
		Mirror: e.mirror,
		Store:  e.store,
		NewListing: func() (baseline.Listing, error) {
			return state.NewListing(e.tmpDir)
		},
		NewBacklog: func() (incremental.Backlog, error) {
			return state.NewBacklog(e.tmpDir)
		},
		TempDir: e.tmpDir,
		Log:     d.log,
	}
}

// openReadOnlyEnv opens what openEnv opens, read-only as a dry run does
// (the mirror's lock shared, the state never written, temporary files
// outside the mirror), for the commands that only read: audit.
func openReadOnlyEnv(ctx context.Context, o syncOptions, d *deps) (*env, error) {
	o.dryRun = true
	return openEnv(ctx, o, d)
}

// packagePartials is where dump packages downloaded part way are kept for
// the next run (dumpzip.Options.PartialDir): beside .resync-dest/tmp, on
// the mirror's file system.
func packagePartials(dest string) string {
	return filepath.Join(mirror.StateDirIn(dest), "partial-packages")
}
