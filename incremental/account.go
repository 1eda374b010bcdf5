package incremental

import (
	"errors"
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// item turns a worker's result into what the writer publishes and
// records: the effect and, with it, every pending change of the resource.
// Accounting happens once it is recorded.
func (r *run) item(res result) transfer.Item {
	u := res.u
	it := transfer.Item{Ticket: res.ticket, Held: res.held}
	if res.removed {
		it.Removed = u.uri
	}
	failed := res.outcome == outFailed
	cause := res.note
	if failed {
		cause = res.cause.Error()
		it.Failure = &resourcesync.Failure{URI: u.uri, Cause: cause, At: r.opts.Now()}
	}
	if len(u.pending) > 0 {
		it.Changes = make([]resourcesync.ChangeRecord, 0, len(u.pending))
		for _, i := range u.pending {
			c := &r.hist.changes[i]
			it.Changes = append(it.Changes, resourcesync.ChangeRecord{
				URI: c.uri, Change: c.kind, Time: c.at, List: r.hist.lists[c.list].url, Position: int(c.pos),
				Failed: failed, Cause: cause,
			})
		}
	}
	it.Done = func(publishErr error) { r.account(res, publishErr) }
	return it
}

// account counts and reports one recorded result. The writer calls it from
// one goroutine at a time, so it may update the run without locks.
func (r *run) account(res result, publishErr error) {
	sum, p, log, u := r.sum, r.opts.Progress, r.d.Log, res.u
	switch {
	case publishErr == nil:
	case isSuperseded(publishErr):
		// A later removal of the same file cancelled this write.
		res.outcome, res.bytes = outUnchanged, 0
	default:
		res.outcome, res.cause = outFailed, publishErr
	}
	sum.Listed++
	if u.retry {
		sum.Retried++
	}
	if res.outcome == outFailed {
		sum.ChangesFailed += int64(len(u.pending))
	} else {
		sum.Applied += int64(len(u.pending))
	}
	if u.deletes() && r.opts.Delete && res.outcome != outDeleted {
		p.Listed() // the producer counts deletions once they are done
	}
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
	case outDeleted:
		sum.Deleted++
		p.Deleted()
		r.plan("delete", res)
		log.Info().Str("uri", u.uri).Str("path", u.path).Msg("deleted")
	case outKept:
		sum.Skipped++
		sum.WouldDelete++
		p.Skipped()
		log.Info().Str("uri", u.uri).Str("path", u.path).Msg("deleted at the Source; kept locally (runs with --delete apply deletions)")
	case outSkipped:
		sum.Skipped++
		p.Skipped()
		log.Warn().Str("uri", u.uri).Err(res.cause).Msg("skipped")
	case outFailed:
		sum.Failed++
		p.Failed()
		if len(sum.Failures) < maxReportedFailures {
			sum.Failures = append(sum.Failures, resourcesync.Failure{URI: u.uri, Cause: res.cause.Error(), At: r.opts.Now()})
		}
		log.Warn().Str("uri", u.uri).Str("path", u.path).Err(res.cause).Msg("failed")
	}
	if res.ticket != "" && publishErr == nil {
		log.Debug().Str("uri", u.uri).Str("path", u.path).Int64("bytes", res.bytes).Msg("fetched")
	}
}

// plan prints a dry run's action.
func (r *run) plan(action string, res result) {
	if r.opts.DryRun && r.opts.Plan != nil {
		if action == "delete" {
			fmt.Fprintf(r.opts.Plan, "delete %s (%s)\n", res.u.path, res.u.uri)
			return
		}
		fmt.Fprintf(r.opts.Plan, "%s %s <- %s\n", action, res.u.path, res.u.uri)
	}
}

func isSuperseded(err error) bool { return errors.Is(err, resourcesync.ErrSuperseded) }
