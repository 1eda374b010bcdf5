package metrics

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"
)

// Handler returns an http.Handler serving c's metrics (and nothing else:
// it has a registry of its own) in the format the scraper asks for. A
// collector that cannot be registered, a bug, makes every request fail
// with 500 and the reason. Safe for concurrent use if c is.
func Handler(c prometheus.Collector) http.Handler {
	reg := prometheus.NewRegistry()
	if err := reg.Register(c); err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, fmt.Sprintf("register metrics: %v", err), http.StatusInternalServerError)
		})
	}
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

// WriteTextfile writes c's metrics to path in the Prometheus text format,
// for node_exporter's textfile collector (which reads *.prom files), and
// replaces path atomically: readers see the old file or the whole new one,
// even after a crash or power loss. The new file is readable by all (0644),
// for a collector running as another user.
//
// It gathers first, then writes a hidden temp file in path's directory,
// fsyncs it, renames it over path and fsyncs the directory.
// prometheus.WriteToTextfile does the rename but no fsync, and leaks its
// temp file's descriptor when gathering fails. On error the error names
// path, path holds the old file (or the whole new one, if only the final
// fsync of the directory failed), and no temp file is left behind (except
// after a crash: a hidden .NAME.tmp-* file the collector ignores). Safe
// for concurrent use if c is; concurrent writers to one path each replace
// it whole, the last rename wins.
func WriteTextfile(path string, c prometheus.Collector) error {
	reg := prometheus.NewRegistry()
	if err := reg.Register(c); err != nil {
		return fmt.Errorf("write metrics to %s: %w", path, err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		return fmt.Errorf("write metrics to %s: %w", path, err)
	}
	var buf bytes.Buffer
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(&buf, mf); err != nil {
			return fmt.Errorf("write metrics to %s: %w", path, err)
		}
	}
	if err := writeAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("write metrics to %s: %w", path, err)
	}
	return nil
}

// writeAtomic replaces path with data: temp file, fsync, rename, fsync dir.
func writeAtomic(path string, data []byte) error {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	if err := writeFile(f, data); err != nil {
		os.Remove(f.Name()) //nolint:errcheck // the write error says more
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name()) //nolint:errcheck // as above
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	return nil
}

// writeFile writes data to f, readable by all, makes it durable and closes
// it, whatever happens.
func writeFile(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
