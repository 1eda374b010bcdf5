package dumpzip

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Downloader fetches a bitstream, verified, into a sink: the Source's HTTP
// client.
type Downloader interface {
	Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error)
}

// Download fetches the package that the dump entry ref describes (its Loc,
// and the length and hashes of its rs:md, all verified by d) into a temp
// file in o.TempDir and opens it; its manifest must have capability want
// (resourcesync.CapResourceDumpManifest or CapChangeDumpManifest). Before
// downloading, a package of known length must fit in MaxSize and in the
// free space. The temp file is removed when the download or the opening
// fails, and by Package.Close.
//
// Errors are d's (matching resourcesync.ErrNotFound, ErrUnavailable,
// ErrMismatch, ...), Open's, ErrTooLarge, or wrap resourcesync.ErrLocal
// when the temp file cannot be written (which must stop the run).
// Download is safe for concurrent use.
func Download(ctx context.Context, d Downloader, ref *resourcesync.Entry, want resourcesync.Capability, o Options) (*Package, error) {
	o = o.withDefaults()
	url := ref.Loc
	if ref.MD.HasLength {
		if ref.MD.Length > o.MaxSize {
			return nil, fmt.Errorf("package %s: %w: the dump gives %d bytes, more than the %d allowed (--max-dump-size)",
				url, ErrTooLarge, ref.MD.Length, o.MaxSize)
		}
		if err := checkSpace(o, ref.MD.Length, "downloading package "+url); err != nil {
			return nil, err
		}
	}
	f, err := os.CreateTemp(o.TempDir, "package-*.zip")
	if err != nil {
		return nil, fmt.Errorf("package %s: temp file: %w: %w", url, resourcesync.ErrLocal, err)
	}
	remove := func() error { return errors.Join(f.Close(), os.Remove(f.Name())) }
	sink := &fileSink{f: f, max: o.MaxSize}
	fetch := resourcesync.Fetch{URL: url, Hash: ref.MD.Hash, Length: ref.MD.Length, HasLength: ref.MD.HasLength}
	if _, err := d.Download(ctx, fetch, sink); err != nil {
		remove()
		return nil, fmt.Errorf("download package: %w", err)
	}
	p, err := open(f, sink.n, url, want, o, remove)
	if err != nil {
		remove()
		return nil, err
	}
	return p, nil
}

// fileSink is the temp file a package is downloaded into, refusing to
// grow past max.
type fileSink struct {
	f   *os.File
	n   int64
	max int64
}

func (s *fileSink) Write(b []byte) (int, error) {
	if s.n+int64(len(b)) > s.max {
		return 0, fmt.Errorf("%w: the package is larger than the %d bytes allowed (--max-dump-size)", ErrTooLarge, s.max)
	}
	k, err := s.f.Write(b)
	s.n += int64(k)
	if err != nil {
		return k, fmt.Errorf("write %s: %w: %w", s.f.Name(), resourcesync.ErrLocal, err)
	}
	return k, nil
}

// The Source's client resumes a package whose connection drops part way
// with Range (source's resumer): the file keeps what it holds. Nothing is
// offered across runs: the temp file goes with the run.
func (s *fileSink) Partial() (int64, string)                { return 0, "" }
func (s *fileSink) Keep(_, _ string) error                  { return nil }
func (s *fileSink) ReadAt(p []byte, off int64) (int, error) { return s.f.ReadAt(p, off) }

// Resume continues after the first n bytes written.
func (s *fileSink) Resume(n int64) error {
	if n > s.n {
		return fmt.Errorf("resume %s at %d: only %d bytes held", s.f.Name(), n, s.n)
	}
	if err := s.f.Truncate(n); err != nil {
		return fmt.Errorf("truncate %s: %w: %w", s.f.Name(), resourcesync.ErrLocal, err)
	}
	if _, err := s.f.Seek(n, io.SeekStart); err != nil {
		return fmt.Errorf("seek %s: %w: %w", s.f.Name(), resourcesync.ErrLocal, err)
	}
	s.n = n
	return nil
}

// Reset empties the file for a retried attempt.
func (s *fileSink) Reset() error {
	s.n = 0
	if err := s.f.Truncate(0); err != nil {
		return fmt.Errorf("truncate %s: %w: %w", s.f.Name(), resourcesync.ErrLocal, err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("rewind %s: %w: %w", s.f.Name(), resourcesync.ErrLocal, err)
	}
	return nil
}
