package baseline

import (
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// item turns a worker's result into what the writer publishes and
// records; accounting happens once it is recorded.
func (r *run) item(res result) transfer.Item {
	it := transfer.Item{Ticket: res.ticket, Held: res.held}
	if res.outcome == outFailed {
		it.Failure = &resourcesync.Failure{URI: res.uri, Cause: res.cause.Error(), At: r.opts.Now()}
	}
	it.Done = func(publishErr error) { r.account(res, publishErr) }
	return it
}

// account counts and reports one recorded result. The writer calls it from
// one goroutine at a time, so it may update the run without locks.
func (r *run) account(res result, publishErr error) {
	sum, p, log := r.sum, r.opts.Progress, r.d.Log
	e := res.entry
	if res.path != "" {
		r.roots.add(res.path)
		if err := r.listing.Add(resourcesync.Listed{
			URI: res.uri, Path: res.path, Length: e.MD.Length, HasLength: e.MD.HasLength, Fixity: e.MD.Hash, LastMod: e.LastMod,
		}); err != nil && r.listErr == nil {
			r.listErr = fmt.Errorf("remember listed %s: %w: %w", res.uri, resourcesync.ErrLocal, err)
		}
	}
	if publishErr != nil {
		res.outcome, res.cause = outFailed, publishErr
	}
	sum.Listed++
	switch res.outcome {
	case outUnchanged:
		sum.Unchanged++
		p.Unchanged()
	case outCreated:
		sum.Created++
		sum.Bytes += res.bytes
		p.Created(res.bytes)
		r.plan("create", res)
	case outUpdated:
		sum.Updated++
		sum.Bytes += res.bytes
		p.Updated(res.bytes)
		r.plan("update", res)
	case outSkipped:
		sum.Skipped++
		p.Skipped()
		log.Warn().Str("uri", res.uri).Err(res.cause).Msg("skipped")
	case outFailed:
		sum.Failed++
		p.Failed()
		if len(sum.Failures) < maxReportedFailures {
			sum.Failures = append(sum.Failures, resourcesync.Failure{URI: res.uri, Cause: res.cause.Error(), At: r.opts.Now()})
		}
		log.Warn().Str("uri", res.uri).Str("path", res.path).Err(res.cause).Msg("failed")
	}
	if res.ticket != "" && publishErr == nil {
		log.Debug().Str("uri", res.uri).Str("path", res.path).Int64("bytes", res.bytes).Msg("fetched")
	}
}

// plan prints a dry run's action.
func (r *run) plan(action string, res result) {
	if r.opts.DryRun && r.opts.Plan != nil {
		fmt.Fprintf(r.opts.Plan, "%s %s <- %s\n", action, res.path, res.uri)
	}
}
