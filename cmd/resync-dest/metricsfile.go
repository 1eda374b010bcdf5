package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/resync-dest/resync-dest/metrics"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/pgstate"
)

// stateMetrics reads one mirror's metrics from its state, read-only (a run
// may be writing it); ok is false when the mirror has no state yet.
func stateMetrics(ctx context.Context, o syncOptions) (m metrics.Mirror, ok bool, err error) {
	path := o.statePath
	if path == "" {
		path = filepath.Join(mirror.StateDirIn(o.dest), "state.db")
	}
	if _, err := os.Stat(path); !pgstate.IsURL(path) && errors.Is(err, fs.ErrNotExist) {
		return metrics.Mirror{Dest: o.dest}, false, nil
	}
	db, err := openReadState(ctx, path)
	if err != nil {
		return metrics.Mirror{Dest: o.dest}, false, err
	}
	defer db.Close()
	m, err = mirrorMetrics(ctx, db, o.dest)
	return m, err == nil, err
}

// mirrorsSnapshot reads the metrics of every mirror, each from its state.
func mirrorsSnapshot(opts []syncOptions) metrics.Snapshot {
	return func(ctx context.Context) ([]metrics.Mirror, error) {
		var out []metrics.Mirror
		var errs []error
		for _, o := range opts {
			m, ok, err := stateMetrics(ctx, o)
			if err != nil {
				errs = append(errs, err) // it names the mirror
			}
			if ok {
				out = append(out, m)
			}
		}
		return out, errors.Join(errs...)
	}
}

func watchSnapshot(targets []watchTarget) metrics.Snapshot {
	opts := make([]syncOptions, len(targets))
	for i, t := range targets {
		opts[i] = t.o
	}
	return mirrorsSnapshot(opts)
}

// writeMetricsTextfiles writes the --metrics-textfile of the runs just
// made: one file per path, with the mirrors that name it. A file that
// cannot be written, or a state that cannot be read for it, is logged
// (the file then says resync_dest_scrape_error 1): the runs' outcome is
// what the exit status says.
func writeMetricsTextfiles(d *deps, opts ...syncOptions) {
	byPath := map[string][]syncOptions{}
	var paths []string
	for _, o := range opts {
		if o.metricsTextfile == "" || o.dryRun {
			continue
		}
		if _, seen := byPath[o.metricsTextfile]; !seen {
			paths = append(paths, o.metricsTextfile)
		}
		byPath[o.metricsTextfile] = append(byPath[o.metricsTextfile], o)
	}
	for _, p := range paths {
		read := mirrorsSnapshot(byPath[p])
		logged := func(ctx context.Context) ([]metrics.Mirror, error) {
			ms, err := read(ctx)
			if err != nil {
				d.log.Warn().Err(err).Str("file", p).Msg("--metrics-textfile: a state could not be read")
			}
			return ms, err
		}
		c := metrics.NewCollector(logged, nil, metrics.DefaultOptions())
		if err := metrics.WriteTextfile(p, c); err != nil {
			d.log.Warn().Err(err).Msg("cannot write --metrics-textfile")
		}
	}
}
