package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/s3mirror"
	"github.com/resync-dest/resync-dest/state"
)

// destMirror is the mirror as the commands use it: a directory
// (*mirror.Mirror) or a bucket (*s3mirror.Mirror).
type destMirror interface {
	baseline.Mirror
	URI(rel, scheme string) (string, error)
	Lock() (release func() error, err error)
	Close() error
}

// destStore is the state as the commands use it.
type destStore interface {
	agent.Store
	StartRun(ctx context.Context, kind string) (int64, error)
	FinishRun(ctx context.Context, id int64, status string, exitCode int, counts state.RunCounts, message string) error
	OlderNames(ctx context.Context) (map[int64]int, error)
	scopeStore
	Close() error
}

var (
	_ destMirror = (*mirror.Mirror)(nil)
	_ destMirror = (*s3mirror.Mirror)(nil)
	_ destStore  = (*state.DB)(nil)
)

// scaleOptions say where a mirror in a bucket is served.
type scaleOptions struct {
	s3Endpoint string
	s3Region   string
	// store, when set, is the state a worker's job writes through (fenced
	// with its lease), and noLock leaves a bucket's lock alone: the job's
	// lease in the database makes it the only writer of its set, and its
	// context - which ends when the lease is lost - fences its writes to
	// the bucket.
	store  destStore
	noLock bool
}

// scaleFlags are the flags of a mirror in S3-compatible storage; the
// credentials come from the usual AWS variables or files, never from the
// command line (where ps would show them).
func scaleFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "s3-endpoint", Usage: "with --dest s3://BUCKET/PREFIX: the S3-compatible service's `URL` (default: $AWS_ENDPOINT_URL, else AWS S3)"},
		&cli.StringFlag{Name: "s3-region", Usage: "with --dest s3://...: the bucket's `REGION` (default: $AWS_REGION)"},
	}
}

func parseScaleFlags(c flagValues) scaleOptions {
	return scaleOptions{s3Endpoint: c.String("s3-endpoint"), s3Region: c.String("s3-region")}
}

// absDest is --dest made absolute: a directory's absolute path, or an
// s3:// URL in its normal form.
func absDest(dest string) (string, error) {
	if s3mirror.IsURL(dest) {
		loc, err := s3mirror.ParseURL(dest)
		if err != nil {
			return "", err
		}
		return loc.String(), nil
	}
	return filepath.Abs(dest)
}

// s3Options are the options of the bucket mirror at o.dest.
func s3Options(o syncOptions) s3mirror.Options {
	so := s3mirror.DefaultOptions()
	so.Endpoint, so.Region = o.scale.s3Endpoint, o.scale.s3Region
	so.FromEnv(os.Getenv)
	so.Maps = o.maps
	so.ReadOnly = o.dryRun
	return so
}

// openS3Env is openEnv for a mirror in a bucket: the bucket's lock (none
// when read-only), the state named by --state (a bucket holds no state),
// and temporary files in a directory of the run's own.
func openS3Env(ctx context.Context, o syncOptions, d *deps) (*env, error) {
	if o.statePath == "" {
		return nil, usageErrorf("--dest %s keeps no state in the bucket: give --state FILE (SQLite) or --state postgres://...", o.dest)
	}
	loc, err := s3mirror.ParseURL(o.dest)
	if err != nil {
		return nil, usageErrorf("--dest %s: %v", o.dest, err)
	}
	e := &env{release: func() error { return nil }}
	if e.client, err = newClient(o.url, o.http, d); err != nil {
		return nil, err
	}
	if e.tmpDir, err = os.MkdirTemp("", "resync-dest-"); err != nil {
		return nil, err
	}
	tmp := e.tmpDir
	e.cleanup = func() error { return os.RemoveAll(tmp) }
	so := s3Options(o)
	so.TempDir = e.tmpDir
	if o.scale.noLock {
		so.Fence = ctx
	}
	m, err := s3mirror.Open(ctx, loc, so)
	if err != nil {
		e.close()
		if errors.Is(err, mirror.ErrUnmappable) {
			return nil, usageErrorf("%v", err)
		}
		return nil, err // it names the bucket
	}
	e.mirror = m
	release := func() error { return nil }
	if !o.scale.noLock {
		release, err = m.Lock()
	}
	if err != nil {
		e.close()
		if errors.Is(err, mirror.ErrLocked) {
			return nil, &exitError{code: exitLocked, err: fmt.Errorf("another run holds the lock of the mirror %s; nothing was done: %w", o.dest, err)}
		}
		return nil, err
	}
	e.release = release
	if e.store, err = openState(ctx, o); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// readStore is the state as status and the metrics read it.
type readStore interface {
	Path() string
	Sets(ctx context.Context) ([]resourcesync.SetState, error)
	HeldCount(ctx context.Context, setID int64) (int64, error)
	FailureRecords(ctx context.Context, setID int64) ([]state.FailureRecord, error)
	Failures(ctx context.Context, setID int64) ([]resourcesync.Failure, error)
	Runs(ctx context.Context, limit int) ([]state.Run, error)
	RunTotals(ctx context.Context) ([]state.RunTotal, error)
	LastSuccess(ctx context.Context) (state.Run, bool, error)
	OutOfScopeHosts(ctx context.Context, sample int) ([]state.OutOfScope, error)
	Conditions(ctx context.Context) ([]state.Condition, error)
	Held(ctx context.Context, setID int64, uri string) (resourcesync.Held, bool, error)
	Provenance(ctx context.Context, setID int64) ([]state.Origin, error)
	Close() error
}

var (
	_ readStore = (*state.DB)(nil)
	_ readStore = (*pgstate.DB)(nil)
	_ destStore = (*pgstate.DB)(nil)
)

// openReadState opens the state at path (a file or postgres://...)
// read-only.
func openReadState(ctx context.Context, path string) (readStore, error) {
	if pgstate.IsURL(path) {
		po := pgstate.DefaultOptions()
		po.URL, po.ReadOnly, po.MaxConns = path, true, 2
		return pgstate.Open(ctx, po)
	}
	so := state.DefaultOptions()
	so.Path, so.ReadOnly = path, true
	return state.Open(ctx, so)
}

// openState opens the state --state names (a file, or postgres://...),
// read-only for a dry run.
func openState(ctx context.Context, o syncOptions) (destStore, error) {
	if o.scale.store != nil {
		return o.scale.store, nil
	}
	if pgstate.IsURL(o.statePath) {
		po := pgstate.DefaultOptions()
		po.URL, po.ReadOnly = o.statePath, o.dryRun
		return pgstate.Open(ctx, po)
	}
	if !o.dryRun {
		if err := os.MkdirAll(filepath.Dir(o.statePath), 0o755); err != nil {
			return nil, fmt.Errorf("make the directory of the state %s: %w", o.statePath, err)
		}
	}
	so := state.DefaultOptions()
	so.Path = o.statePath
	so.ReadOnly = o.dryRun
	return state.Open(ctx, so)
}
