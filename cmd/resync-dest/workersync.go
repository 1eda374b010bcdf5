package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/baseline"
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
	for _, s := range disc.Sets {
		if s.Err != nil {
			w.d.log.Warn().Str("capability_list", s.CapabilityList).Err(s.Err).Msg("set skipped")
			continue
		}
		if o.capabilityList == "" || o.capabilityList == s.CapabilityList {
			out = append(out, s.CapabilityList)
		}
	}
	return out, nil
}

// Parts implements worker.Syncer: when the set has no baseline yet, the
// Resource Lists of its Resource List Index or the packages of its
// Resource Dump - whichever its baseline would be made from, as sync
// decides it (--via).
func (w *workerSyncer) Parts(ctx context.Context, src pgstate.Source, capabilityList string, st *pgstate.DB) ([]worker.Part, error) {
	set, known, err := st.Set(ctx, capabilityList)
	if err != nil || (known && set.Baselined()) {
		return nil, err
	}
	o, err := w.options(src, st)
	if err != nil || o.checksum {
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
	s, ok := disc.Set(capabilityList)
	if !ok || s.Err != nil {
		return nil, nil // the set job says why
	}
	var held int64
	if known {
		if held, err = st.HeldCount(ctx, set.ID); err != nil {
			return nil, err
		}
	}
	open := func(ctx context.Context, u string) (string, io.ReadCloser, error) {
		final, _, body, err := client.OpenDocument(ctx, u)
		return final, body, err
	}
	limits := o.http.limits()
	if rd := baselineDump(s, o.via, held); rd != "" {
		return dumpPackages(ctx, open, rd, limits)
	}
	rl, hasList := s.Doc(resourcesync.CapResourceList)
	if !hasList {
		return nil, nil
	}
	_, body, err := open(ctx, rl)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	rd := resourcesync.NewReader(body, rl, limits)
	h, err := rd.Header()
	if err != nil || !h.IsIndex() {
		return nil, err
	}
	var parts []worker.Part
	for e, err := range rd.All() {
		if err != nil {
			return nil, err
		}
		parts = append(parts, worker.Part{Doc: e.Loc})
	}
	return parts, nil
}

// baselineDump is the Resource Dump a set's baseline would be made from,
// as sync decides it (--via: auto takes the dump for a set that holds
// nothing yet, or that offers no Resource List); "" for its Resource List.
func baselineDump(s *agent.SetInfo, via resourcesync.Via, held int64) string {
	rd, hasDump := s.Doc(resourcesync.CapResourceDump)
	_, hasList := s.Doc(resourcesync.CapResourceList)
	switch {
	case !hasDump:
		return ""
	case via == resourcesync.ViaDump:
		return rd
	case via == resourcesync.ViaAuto || via == "":
		if held == 0 || !hasList {
			return rd
		}
	}
	return ""
}

// dumpPackages lists the packages of the Resource Dump (or Resource Dump
// Index) rd, one part each - or none, leaving the baseline to the set's
// one job, when a package has no manifest copy (rel="contents"): the set's
// job that finishes a split baseline reads the copies to skip the packages
// the parts applied, and would download such a package again.
func dumpPackages(ctx context.Context, open func(context.Context, string) (string, io.ReadCloser, error), rd string, limits resourcesync.Limits) ([]worker.Part, error) {
	var parts []worker.Part
	whole := false
	_, err := resourcesync.Walk(ctx, open, rd, resourcesync.CapResourceDump, resourcesync.WalkOptions{Limits: limits},
		func(_ *resourcesync.Part, e *resourcesync.Entry) error {
			if _, ok := e.Link(resourcesync.RelContents); !ok {
				whole = true
			}
			parts = append(parts, worker.Part{Doc: e.Loc, Dump: rd})
			return nil
		})
	if err != nil || whole {
		return nil, err
	}
	return parts, nil
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

// BaselinePart implements worker.Syncer: the baseline of one Resource List
// of the set's index, or of one package of its Resource Dump, recording
// what it copies but neither the baseline point nor deletions (the set's
// own job finishes the baseline).
func (w *workerSyncer) BaselinePart(ctx context.Context, src pgstate.Source, capabilityList string, p worker.Part, st *pgstate.DB) error {
	o, err := w.options(src, st)
	if err != nil {
		return err
	}
	o.capabilityList, o.delete = capabilityList, false
	e, err := openEnv(ctx, o, w.d)
	if err != nil {
		return jobError(err)
	}
	defer e.close()
	disc, err := agent.Discover(ctx, e.client, o.url, agent.DefaultDiscoverOptions())
	if err != nil {
		return err
	}
	set, err := st.EnsureSet(ctx, capabilityList, disc.SourceDescription)
	if err != nil {
		return err
	}
	scope := newScopeReport()
	wo := baselineWorkerOptions(o, w.d, &resourcesync.Progress{}, scope)
	wo.Delete = false
	wo.Scope = resourcesync.NewScope(append(disc.SourceURLs(), disc.Start), o.allowHosts)
	ad := e.agentDeps(w.d)
	part := baseline.Set{ID: set.ID, CapabilityList: capabilityList, ResourceList: p.Doc}
	log := w.d.log.With().Str("capability_list", capabilityList).Str("resource_list", p.Doc).Logger()
	if p.Dump != "" {
		part = baseline.Set{ID: set.ID, CapabilityList: capabilityList, ResourceDump: p.Dump}
		wo.Package = p.Doc
		log = w.d.log.With().Str("capability_list", capabilityList).Str("package", p.Doc).Logger()
	}
	open := func(ctx context.Context, u string) (string, io.ReadCloser, error) {
		final, _, body, err := e.client.OpenDocument(ctx, u)
		return final, body, err
	}
	sum, err := baseline.Run(ctx, part, baseline.Deps{
		Open: open, Fetcher: ad.Client, Mirror: partMirror{ad.Mirror}, Store: partStore{ad.Store},
		NewListing: ad.NewListing, TempDir: ad.TempDir, Log: log,
	}, wo)
	if sum != nil {
		log.Info().Int64("created", sum.Counts.Created).Int64("unchanged", sum.Counts.Unchanged).
			Int64("failed", sum.Counts.Failed).AnErr("error", err).Msg("part copied")
	}
	scope.finish(ctx, st, w.d.log, true, false)
	return jobError(err)
}

// partStore is the state as one part of a split baseline sees it: the set
// looks empty, so that the part neither looks for files to delete (the
// other parts' files are not in its list), and its baseline point is
// dropped (the set is not baselined until every part is in).
type partStore struct{ baseline.Store }

func (partStore) HeldCount(context.Context, int64) (int64, error) { return 0, nil }

func (p partStore) Commit(ctx context.Context, setID int64, b *resourcesync.Batch) error {
	if b.Baseline != nil {
		c := *b
		c.Baseline = nil
		if c.Empty() {
			return nil
		}
		b = &c
	}
	return p.Store.Commit(ctx, setID, b)
}

// partMirror is the mirror as one part sees it when it asks whether the
// mirror is empty (for the same reason).
type partMirror struct{ baseline.Mirror }

func (partMirror) Walk(string, func(string, fs.FileInfo) error) error { return nil }
