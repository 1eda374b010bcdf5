package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/worker"
)

// workerSyncer does the work of a worker's jobs with the same machinery as
// the sync command, through the state fenced with the job's lease.
type workerSyncer struct {
	d     *deps
	state string // the database, for what the commands record of it
}

var _ worker.Syncer = (*workerSyncer)(nil)

// options are the sync options of a recorded Source, for a job holding
// the fenced state st (nil: discovery only).
func (w *workerSyncer) options(src pgstate.Source, st *pgstate.DB) (syncOptions, error) {
	var ss storedSource
	if err := json.Unmarshal(src.Options, &ss); err != nil {
		return syncOptions{}, fmt.Errorf("the options recorded for %s: %w", src.Key, err)
	}
	o, err := ss.syncOptions()
	if err != nil {
		return o, fmt.Errorf("the options recorded for %s: %w", src.Key, err)
	}
	o.statePath, o.progress, o.json, o.metricsTextfile = w.state, "never", false, ""
	if st != nil {
		o.scale.store, o.scale.noLock = st, true
	}
	return o, nil
}

// Sets implements worker.Syncer.
func (w *workerSyncer) Sets(ctx context.Context, src pgstate.Source) ([]string, error) {
	o, err := w.options(src, nil)
	if err != nil {
		return nil, err
	}
	client, err := newClient(o.url, o.http, w.d)
	if err != nil {
		return nil, err
	}
	disc, err := agent.Discover(ctx, client, o.url, agent.DefaultDiscoverOptions())
	if err != nil {
		return nil, err
	}
	var out []string
	only := o.capabilityList
	if only == "" {
		only = disc.Selected // a URL within one set's documents stands for that set
	}
	for _, s := range disc.Sets {
		if s.Err != nil {
			w.d.log.Warn().Str("capability_list", s.CapabilityList).Err(s.Err).Msg("set skipped")
			continue
		}
		if only == "" || only == s.CapabilityList {
			out = append(out, s.CapabilityList)
		}
	}
	return out, nil
}

// Parts implements worker.Syncer: the parts the agent's planner splits
// the set's baseline into (agent.PlanParts), when it has none yet.
func (w *workerSyncer) Parts(ctx context.Context, src pgstate.Source, capabilityList string, st *pgstate.DB) ([]worker.Part, error) {
	if set, ok, err := st.Set(ctx, capabilityList); err != nil || (ok && set.Baselined()) {
		return nil, err
	}
	o, err := w.options(src, st)
	if err != nil {
		return nil, err
	}
	client, err := newClient(o.url, o.http, w.d)
	if err != nil {
		return nil, err
	}
	disc, err := agent.Discover(ctx, client, o.url, agent.DefaultDiscoverOptions())
	if err != nil {
		return nil, err
	}
	parts, err := agent.PlanParts(ctx, disc, agent.Deps{Client: client, Store: st, Log: w.d.log}, w.baselineOptions(o, capabilityList, newScopeReport()))
	if err != nil {
		return nil, err
	}
	out := make([]worker.Part, 0, len(parts))
	for _, p := range parts {
		if p.Package != "" {
			out = append(out, worker.Part{Doc: p.Package, Dump: p.Dump})
		} else {
			out = append(out, worker.Part{Doc: p.List})
		}
	}
	return out, nil
}

// baselineOptions are the baseline options of a part of the set, or of
// the planning of its parts.
func (w *workerSyncer) baselineOptions(o syncOptions, capabilityList string, scope *scopeReport) agent.BaselineOptions {
	return agent.BaselineOptions{
		Worker:         baselineWorkerOptions(o, w.d, &resourcesync.Progress{}, scope),
		CapabilityList: capabilityList,
		AllowHosts:     o.allowHosts,
		Via:            o.via,
	}
}

// SyncSet implements worker.Syncer: sync --capability-list for the set.
func (w *workerSyncer) SyncSet(ctx context.Context, src pgstate.Source, capabilityList string, st *pgstate.DB) error {
	o, err := w.options(src, st)
	if err != nil {
		return err
	}
	o.capabilityList = capabilityList
	log := w.d.log.With().Str("capability_list", capabilityList).Logger()
	_, err = syncOnce(ctx, o, false, w.d, func(rep *agent.Report, err error) {
		if rep != nil {
			c := rep.Counts
			log.Info().Int64("created", c.Created).Int64("updated", c.Updated).Int64("deleted", c.Deleted).
				Int64("unchanged", c.Unchanged).Int64("failed", c.Failed).AnErr("error", err).Msg("set synced")
		}
	})
	return jobError(err)
}

// jobError is what a job makes of a sync's error: failures recorded for
// the next run are a success; a mirror another run holds is tried again.
func jobError(err error) error {
	switch exitCode(err, nil) {
	case exitOK, exitPartial:
		return nil
	case exitLocked:
		return fmt.Errorf("%w: %w", worker.ErrBusy, err)
	}
	return err
}

// BaselinePart implements worker.Syncer: one part of the set's baseline
// through the agent's planner (agent.BaselinePart), which records what it
// copies but neither deletes nor records the baseline point (the set's own
// job finishes the baseline).
func (w *workerSyncer) BaselinePart(ctx context.Context, src pgstate.Source, capabilityList string, p worker.Part, st *pgstate.DB) error {
	o, err := w.options(src, st)
	if err != nil {
		return err
	}
	o.capabilityList = capabilityList
	e, err := openEnv(ctx, o, w.d)
	if err != nil {
		return jobError(err)
	}
	defer e.close()
	disc, err := agent.Discover(ctx, e.client, o.url, agent.DefaultDiscoverOptions())
	if err != nil {
		return err
	}
	part := agent.Part{List: p.Doc}
	if p.Dump != "" {
		part = agent.Part{Dump: p.Dump, Package: p.Doc}
	}
	scope := newScopeReport()
	sum, err := agent.BaselinePart(ctx, disc, e.agentDeps(w.d), w.baselineOptions(o, capabilityList, scope), part)
	// What the part found out of scope, logged and recorded (through the
	// fenced state) as a run records it; a part is not the whole set.
	scope.finish(ctx, st, w.d.log, true, false)
	if sum != nil {
		w.d.log.Info().Str("capability_list", capabilityList).Str("part", p.Doc).Int64("created", sum.Counts.Created).
			Int64("unchanged", sum.Counts.Unchanged).Int64("failed", sum.Counts.Failed).AnErr("error", err).Msg("part copied")
	}
	return jobError(err)
}
