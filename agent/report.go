package agent

import (
	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// SetReport is the outcome of a job for one set.
type SetReport struct {
	CapabilityList string            `json:"capability_list"`
	Baseline       *baseline.Summary `json:"baseline,omitempty"`
	// Incremental is the set's incremental sync (with Baseline too when a
	// gap in the history made a new baseline).
	Incremental *incremental.Summary `json:"incremental,omitempty"`
	Err         error                `json:"-"`
	Error       string               `json:"error,omitempty"`
}

// Report is the outcome of a job over every set.
type Report struct {
	Source string              `json:"source"`
	Sets   []*SetReport        `json:"sets"`
	Counts resourcesync.Counts `json:"counts"`
	DryRun bool                `json:"dry_run,omitempty"`
	// Plan adds up the sets' plans (a dry run's; nil otherwise).
	Plan *resourcesync.Plan `json:"plan,omitempty"`
	// Retired are the recorded sets the Source no longer names that the
	// run retired (a dry run: would retire), their files kept.
	Retired []RetiredSet `json:"retired_sets,omitempty"`
}

// newReport starts the report of a job.
func newReport(disc *Discovery, dryRun bool) *Report {
	rep := &Report{Source: disc.SourceDescription, DryRun: dryRun}
	if rep.Source == "" {
		rep.Source = disc.Start
	}
	return rep
}

// total adds up the sets' counts.
func (r *Report) total() {
	r.Counts = resourcesync.Counts{}
	r.Plan = nil
	if r.DryRun {
		r.Plan = &resourcesync.Plan{}
	}
	for _, s := range r.Sets {
		if s.Baseline != nil {
			r.Counts.Add(s.Baseline.Counts)
			r.addPlan(s.Baseline.Plan)
		}
		if s.Incremental != nil {
			r.Counts.Add(s.Incremental.Counts)
			r.addPlan(s.Incremental.Plan)
		}
	}
}

func (r *Report) addPlan(p *resourcesync.Plan) {
	if r.Plan != nil && p != nil {
		r.Plan.Add(*p)
	}
}
