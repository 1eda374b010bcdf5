package audit

import (
	"runtime"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Options tune an audit. Start from DefaultOptions.
type Options struct {
	// Workers is how many local files are checked (hashed) at once.
	Workers int
	// Fast is a quick check, as rsync's and rclone's: a file whose size
	// and modification time are the ones the state recorded for it (the
	// Source's lastmod, which a sync sets as the mtime) is not re-hashed,
	// the digests recorded when it was fetched stand for it; any other
	// file is re-hashed. An edit that keeps the size and the mtime (a bit
	// flip, or an mtime set back) goes unseen.
	Fast bool
	// Scope decides which listed resources are compared: the ones a
	// baseline would fetch. Others are counted as skipped (and a local
	// file at their path is extra, as baseline --delete would remove it).
	// The zero Scope admits none.
	Scope  resourcesync.Scope
	Limits resourcesync.Limits
	// Filter is the user's --include and --exclude: a resource it leaves
	// out is not compared (counted LeftOut), and a local file of a URI it
	// leaves out is not extra - the mirror keeps what it holds of it.
	Filter resourcesync.Filter
	// MaxListed bounds how many differences of each kind (and errors) a
	// set's report keeps, so that the audit of an empty mirror of a huge
	// Source does not hold every path in memory; the counts stay exact.
	MaxListed int
	// Progress, when set, is told of the audit as it goes, for a progress
	// display: Listed per entry read, and per resource compared Unchanged
	// (in sync), Updated (missing or changed), Failed (could not be
	// compared), Skipped (out of scope), Deleted (an extra file); the
	// bytes are those hashed.
	Progress *resourcesync.Progress
	// Alternates and WithMetadata list, with each resource, the resources
	// a sync fetches along with it (--alternate, --with-metadata;
	// resourcesync.Companions), so that their files are compared, not
	// reported as extra.
	Alternates   []string
	WithMetadata bool
}

// DefaultOptions hash with one worker per CPU and keep up to 100,000
// differences of each kind.
func DefaultOptions() Options {
	return Options{Workers: max(2, runtime.GOMAXPROCS(0)), MaxListed: 100_000}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Workers <= 0 {
		o.Workers = d.Workers
	}
	if o.MaxListed <= 0 {
		o.MaxListed = d.MaxListed
	}
	if o.Progress == nil {
		o.Progress = &resourcesync.Progress{}
	}
	return o
}
