package transfer

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// MaxReportedFailures bounds the failures a run's summary carries for
// display; the state has all of them.
const MaxReportedFailures = 100

// Outcome is what became of one resource in a run.
type Outcome int

const (
	Unchanged Outcome = iota // already in step (or nothing to delete)
	Created
	Updated
	Deleted
	Kept // deleted at the Source, the local copy kept (no --delete)
	Skipped
	Failed
)

// Tally counts what became of each resource of a run into the run's
// summary and reports it to the progress display, the log and a dry run's
// plan, so that every kind of run counts and reports alike. The writer's
// Done callbacks call Add one at a time, so it takes no locks.
type Tally struct {
	Counts      *resourcesync.Counts
	WouldDelete *int64
	// Failures receives the first MaxReportedFailures failures.
	Failures *[]resourcesync.Failure
	Progress *resourcesync.Progress
	// OutOfScope, when set, takes the entries skipped as out of scope
	// (RunOptions.OutOfScope); they are then logged at debug level only.
	OutOfScope func(uri string, cause error)
	Log        zerolog.Logger
	// Plan receives a dry run's actions, one line each; nil for a real
	// run.
	Plan io.Writer
	// Planned, when set (a dry run's), counts each unit's action and the
	// bytes it would download, as its list gives them.
	Planned *resourcesync.Plan
	Now     func() time.Time
}

// NewTally returns the Tally of a run with options o (after WithDefaults).
func NewTally(o RunOptions, log zerolog.Logger, c *resourcesync.Counts, wouldDelete *int64, failures *[]resourcesync.Failure) *Tally {
	t := &Tally{Counts: c, WouldDelete: wouldDelete, Failures: failures, Progress: o.Progress, OutOfScope: o.OutOfScope, Log: log, Now: o.Now}
	if o.DryRun {
		t.Plan = o.Plan
	}
	return t
}

// Add counts one resource: its outcome, its URI and mapped path, the bytes
// written and, for Skipped and Failed, the cause.
func (t *Tally) Add(o Outcome, uri, path string, bytes int64, cause error) {
	c, p, log := t.Counts, t.Progress, t.Log
	switch o {
	case Unchanged:
		c.Unchanged++
		p.Unchanged()
	case Created:
		c.Created++
		c.Bytes += bytes
		p.Created(bytes)
		t.plan("create %s <- %s\n", path, uri)
	case Updated:
		c.Updated++
		c.Bytes += bytes
		p.Updated(bytes)
		t.plan("update %s <- %s\n", path, uri)
	case Deleted:
		c.Deleted++
		p.Deleted()
		t.plan("delete %s (%s)\n", path, uri)
		log.Debug().Str("uri", uri).Str("path", path).Msg("deleted") // the command logs the count at info
	case Kept:
		c.Skipped++
		*t.WouldDelete++
		p.Skipped()
		log.Debug().Str("uri", uri).Str("path", path).Msg("deleted at the Source; kept locally (runs with --delete apply deletions)")
	case Skipped:
		p.Skipped()
		if errors.Is(cause, resourcesync.ErrLeftOut) {
			c.LeftOut++
			log.Debug().Str("uri", uri).Err(cause).Msg("left out")
			return
		}
		c.Skipped++
		if t.OutOfScope != nil && errors.Is(cause, resourcesync.ErrOutOfScope) {
			t.OutOfScope(uri, cause)
			log.Debug().Str("uri", uri).Err(cause).Msg("skipped")
			return
		}
		log.Warn().Str("uri", uri).Err(cause).Msg("skipped")
	case Failed:
		c.Failed++
		p.Failed()
		if len(*t.Failures) < MaxReportedFailures {
			*t.Failures = append(*t.Failures, resourcesync.Failure{URI: uri, Cause: cause.Error(), At: t.Now()})
		}
		log.Warn().Str("uri", uri).Str("path", path).Err(cause).Msg("failed")
	}
}

// Mirrored counts what a resource's mirrors gave: the bytes of its copy
// when one served it (and it was published), the mirrors that failed.
func (t *Tally) Mirrored(o Outcome, bytes int64, failures int) {
	if o == Created || o == Updated {
		t.Counts.MirrorBytes += bytes
	}
	t.Counts.MirrorFailures += int64(failures)
}

// Patched counts a resource made by a patch (once published): the bytes
// the patch saved against fetching the written version whole; and a
// patch that could not be used.
func (t *Tally) Patched(o Outcome, patched bool, written, patchBytes int64, failed bool) {
	if patched && (o == Created || o == Updated) {
		t.Counts.Patched++
		t.Counts.PatchSaved += written - patchBytes
	}
	if failed {
		t.Counts.PatchFailures++
	}
}

func (t *Tally) plan(format, path, uri string) {
	if t.Plan != nil {
		fmt.Fprintf(t.Plan, format, path, uri)
	}
}

// planned counts a unit of a dry run in its plan: the action its outcome
// stands for, and the listed length of what would be downloaded.
func (t *Tally) planned(o Outcome, want resourcesync.Version, conditional bool, cause error) {
	p := t.Planned
	if p == nil {
		return
	}
	p.Considered++
	switch o {
	case Unchanged:
		p.InStep++
	case Created, Updated:
		if o == Created {
			p.Fetch++
		} else {
			p.Update++
			if conditional {
				p.Conditional++
			}
		}
		if want.HasLength {
			p.Bytes += want.Length
		} else {
			p.UnknownLength++
		}
	case Deleted:
		p.Delete++
	case Kept:
		p.Keep++
	case Skipped:
		if errors.Is(cause, resourcesync.ErrLeftOut) {
			p.LeftOut++
			break
		}
		p.OutOfScope++ // else the scope is the only reason a unit is skipped
	case Failed:
		p.Fail++
	}
}
