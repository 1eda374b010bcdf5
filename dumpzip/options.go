package dumpzip

import (
	"os"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Options tune how packages are downloaded and read. Start from
// DefaultOptions; zero fields take its values.
type Options struct {
	// TempDir holds downloaded packages; "" means os.TempDir(). Its file
	// system's free space is what the space checks look at.
	TempDir string
	// PartialDir keeps, across runs, a package whose download failed part
	// way (a large one the Source's client resumes: --resume-above), for
	// the next Download of its URL to continue; "" keeps none. It should
	// be on TempDir's file system (a package moves there by rename).
	PartialDir string
	// MaxSize bounds one package: the bytes downloaded, the sum of the
	// sizes its ZIP directory declares, and the bytes actually inflated
	// from it (--max-dump-size).
	MaxSize int64
	// MaxEntrySize bounds one bitstream whose manifest entry gives no
	// length (an entry with a length is bounded by it).
	MaxEntrySize int64
	// MaxEntries bounds the entries of one package's ZIP directory, which
	// archive/zip holds in memory (a few hundred bytes each).
	MaxEntries int
	// MinFree is the space left free on TempDir's file system: a package
	// that would eat into it is refused.
	MinFree int64
	// Limits bound the parse of a manifest (inside a package or a copy).
	Limits resourcesync.Limits
	// FreeSpace reports the bytes an unprivileged process may still write
	// on the file system holding dir; nil means statfs(2). A negative
	// answer means unknown and skips the check.
	FreeSpace func(dir string) (int64, error)
}

// DefaultOptions are the command line's defaults: packages of up to
// 10 GiB and 500,000 entries (ten times what one Sitemap document may
// list), bitstreams without a length of up to 4 GiB, 64 MiB kept free.
func DefaultOptions() Options {
	return Options{
		MaxSize:      10 << 30,
		MaxEntrySize: 4 << 30,
		MaxEntries:   500_000,
		MinFree:      64 << 20,
	}
}

// For returns o for a run whose temp files go into tempDir and whose
// documents are read within lim: o's own TempDir and Limits win when set.
func (o Options) For(tempDir string, lim resourcesync.Limits) Options {
	if o.TempDir == "" {
		o.TempDir = tempDir
	}
	if o.Limits == (resourcesync.Limits{}) {
		o.Limits = lim
	}
	return o
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.MaxSize <= 0 {
		o.MaxSize = d.MaxSize
	}
	if o.MaxEntrySize <= 0 {
		o.MaxEntrySize = d.MaxEntrySize
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = d.MaxEntries
	}
	if o.MinFree < 0 {
		o.MinFree = 0
	}
	if o.FreeSpace == nil {
		o.FreeSpace = freeSpace
	}
	return o
}
