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
// fails, and by Package.Close. A download the Source's client keeps (one
// of at least its ResumeAbove) is continued with Range when its
// connection drops, and, with o.PartialDir, kept there when it fails, for
// the next Download of url to continue (partial.go).
//
// Errors are d's (matching resourcesync.ErrNotFound, ErrUnavailable,
// ErrMismatch, ...), Open's, ErrTooLarge, or wrap resourcesync.ErrLocal
// when the temp file cannot be written (which must stop the run).
// Download is safe for concurrent use.
func Download(ctx context.Context, d Downloader, ref *resourcesync.Entry, want resourcesync.Capability, o Options) (*Package, error) {
	o = o.withDefaults()
	url := ref.Loc
	if ref.MD.HasLength && ref.MD.Length > o.MaxSize {
		return nil, fmt.Errorf("package %s: %w: the dump gives %d bytes, more than the %d allowed (--max-dump-size)",
			url, ErrTooLarge, ref.MD.Length, o.MaxSize)
	}
	sink := &fileSink{max: o.MaxSize, length: ref.MD.Length, partialDir: o.PartialDir}
	f, m := openPartial(o, url)
	if ref.MD.HasLength {
		// What a kept partial holds is on the disk already.
		if err := checkSpace(o, ref.MD.Length-m.Bytes, "downloading package "+url); err != nil {
			if f != nil {
				f.Close()
			}
			return nil, err
		}
	}
	if f != nil {
		sink.f, sink.name, sink.offer, sink.meta, sink.kept, sink.persisted = f, f.Name(), m.Bytes, m, true, true
	} else {
		f, err := os.CreateTemp(o.TempDir, "package-*.zip")
		if err != nil {
			return nil, fmt.Errorf("package %s: temp file: %w: %w", url, resourcesync.ErrLocal, err)
		}
		sink.f, sink.name = f, f.Name()
	}
	remove := func() error { return errors.Join(sink.f.Close(), removePartial(sink.name)) }
	fetch := resourcesync.Fetch{URL: url, Hash: ref.MD.Hash, Length: ref.MD.Length, HasLength: ref.MD.HasLength}
	if _, err := d.Download(ctx, fetch, sink); err != nil {
		if !sink.kept || !sink.persisted || sink.park() != nil {
			remove()
		}
		return nil, fmt.Errorf("download package: %w", err)
	}
	if sink.persisted {
		_ = os.Remove(sink.name + ".json") // complete: no longer a partial
	}
	p, err := open(sink.f, sink.n, url, want, o, remove)
	if err != nil {
		remove()
		return nil, err
	}
	return p, nil
}

// fileSink is the temp file a package is downloaded into, refusing to
// grow past max.
type fileSink struct {
	f    *os.File
	name string // where f is now (Keep moves it)
	n    int64
	max  int64

	// Resuming (partial.go): length is the package's listed length (0:
	// unknown), offer what a kept partial offers until Resume, a Write or
	// Reset; kept says a failure keeps the file, persisted that it is in
	// partialDir with its meta, for the next run.
	length, offer   int64
	partialDir      string
	kept, persisted bool
	meta            partialMeta
	nextCheck       int64
}

func (s *fileSink) Write(b []byte) (int, error) {
	if s.offer > 0 {
		if err := s.Reset(); err != nil {
			return 0, err
		}
	}
	if s.n+int64(len(b)) > s.max {
		return 0, fmt.Errorf("%w: the package is larger than the %d bytes allowed (--max-dump-size)", ErrTooLarge, s.max)
	}
	k, err := s.f.Write(b)
	s.n += int64(k)
	if err != nil {
		return k, fmt.Errorf("write %s: %w: %w", s.name, resourcesync.ErrLocal, err)
	}
	if s.persisted && s.n >= s.nextCheck {
		if err := s.checkpoint(); err != nil {
			return k, fmt.Errorf("checkpoint %s: %w: %w", s.name, resourcesync.ErrLocal, err)
		}
	}
	return k, nil
}

// park keeps a failed download for the next run.
func (s *fileSink) park() error {
	var err error
	if s.offer == 0 {
		err = s.checkpoint()
	} // else the partial offered was not touched (the request failed first): its meta holds
	return errors.Join(err, s.f.Close())
}

// ReadAt reads back what the file holds, for the Source's client to
// verify the bytes kept with the rest.
func (s *fileSink) ReadAt(p []byte, off int64) (int, error) { return s.f.ReadAt(p, off) }

// Resume continues after the first n bytes held: offered by a partial, or
// written by an attempt whose connection dropped.
func (s *fileSink) Resume(n int64) error {
	if n > max(s.n, s.offer) {
		return fmt.Errorf("resume %s at %d: only %d bytes held", s.name, n, max(s.n, s.offer))
	}
	s.offer = 0
	if err := s.f.Truncate(n); err != nil {
		return fmt.Errorf("truncate %s: %w: %w", s.name, resourcesync.ErrLocal, err)
	}
	if _, err := s.f.Seek(n, io.SeekStart); err != nil {
		return fmt.Errorf("seek %s: %w: %w", s.name, resourcesync.ErrLocal, err)
	}
	s.n = n
	return nil
}

// Reset empties the file for a retried attempt, dropping what was kept.
func (s *fileSink) Reset() error {
	s.unkeep()
	s.n = 0
	if err := s.f.Truncate(0); err != nil {
		return fmt.Errorf("truncate %s: %w: %w", s.name, resourcesync.ErrLocal, err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("rewind %s: %w: %w", s.name, resourcesync.ErrLocal, err)
	}
	return nil
}
