package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/resync-dest/resync-dest/pgstate"
)

// The job kinds, as River records them.
const (
	KindSource = "resync_source"
	KindSet    = "resync_set"
	KindPart   = "resync_part"
)

// SourceArgs is the periodic job of one Source.
type SourceArgs struct {
	Source string `json:"source"`
}

// Kind implements river.JobArgs.
func (SourceArgs) Kind() string { return KindSource }

// SetArgs is the job of one set of a Source.
type SetArgs struct {
	Source         string `json:"source"`
	CapabilityList string `json:"capability_list"`
}

// Kind implements river.JobArgs.
func (SetArgs) Kind() string { return KindSet }

// Part is one part of a set's split baseline: a Resource List of the
// set's Resource List Index, or one package of its Resource Dump.
type Part struct {
	// Doc is the Resource List, or the package.
	Doc string `json:"list"`
	// Dump is, for a package, the Resource Dump (or Resource Dump Index)
	// that lists it; "" for a Resource List.
	Dump string `json:"dump,omitempty"`
}

// PartArgs is the job of one part of a set's split baseline.
type PartArgs struct {
	Source         string `json:"source"`
	CapabilityList string `json:"capability_list"`
	Part
}

// Kind implements river.JobArgs.
func (PartArgs) Kind() string { return KindPart }

// unique makes a job one of its kind and arguments among those not
// finished: inserting it again while one waits or runs does nothing.
var unique = &river.InsertOpts{UniqueOpts: river.UniqueOpts{
	ByArgs: true,
	ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateScheduled, rivertype.JobStateRetryable,
	},
}}

// ErrBusy is returned by a Syncer when the job cannot run now (another
// run holds the mirror's lock): it is tried again shortly.
var ErrBusy = errors.New("busy: try again shortly")

// Syncer does the work of the jobs; the command line provides it. Each
// method gets the state fenced with the job's lease and must write
// through it only.
type Syncer interface {
	// Sets discovers the Source and returns the Capability Lists of the
	// sets to keep.
	Sets(ctx context.Context, src pgstate.Source) ([]string, error)
	// Parts returns the parts a set's baseline splits into - the lists of
	// its Resource List Index, or the packages of its Resource Dump, when
	// the set needs a baseline from it - and nil when it is not split.
	Parts(ctx context.Context, src pgstate.Source, capabilityList string, st *pgstate.DB) ([]Part, error)
	// SyncSet syncs one set: a baseline while it has none, else its
	// changes.
	SyncSet(ctx context.Context, src pgstate.Source, capabilityList string, st *pgstate.DB) error
	// BaselinePart copies the resources of one part of a set's baseline
	// and records them, but neither a baseline point nor deletions.
	BaselinePart(ctx context.Context, src pgstate.Source, capabilityList string, p Part, st *pgstate.DB) error
}

// inserter is what inserts jobs: a River client (maybe insert-only).
type inserter interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	JobRetry(ctx context.Context, id int64) (*rivertype.JobRow, error)
}

// Register records the Sources and inserts the periodic job of each (one
// that exists already stays as it is).
func Register(ctx context.Context, db *pgstate.DB, srcs []pgstate.Source) error {
	cl, err := insertOnly(db)
	if err != nil {
		return err
	}
	for _, s := range srcs {
		if err := db.PutSource(ctx, s); err != nil {
			return err
		}
		if _, err := cl.Insert(ctx, SourceArgs{Source: s.Key}, unique); err != nil {
			return fmt.Errorf("insert the job of %s: %w", s.Key, err)
		}
	}
	return nil
}

// Notify makes the job of the Source at key run now - what a WebSub
// notification asks - inserting it if it has none; a job already
// running stays.
func Notify(ctx context.Context, db *pgstate.DB, key string) error {
	cl, err := insertOnly(db)
	if err != nil {
		return err
	}
	return notify(ctx, cl, key)
}

func notify(ctx context.Context, cl inserter, key string) error {
	res, err := cl.Insert(ctx, SourceArgs{Source: key}, unique)
	if err != nil {
		return fmt.Errorf("insert the job of %s: %w", key, err)
	}
	if res.UniqueSkippedAsDuplicate && res.Job.State != rivertype.JobStateRunning {
		if _, err := cl.JobRetry(ctx, res.Job.ID); err != nil {
			return fmt.Errorf("run the job of %s now: %w", key, err)
		}
	}
	return nil
}

// insertOnly is a River client that inserts jobs and works none.
func insertOnly(db *pgstate.DB) (*river.Client[pgx.Tx], error) {
	return newClient(db, &river.Config{})
}
