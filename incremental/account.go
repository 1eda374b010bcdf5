package incremental

import (
	"errors"

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
	failed := res.outcome == transfer.Failed
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
	sum, u := r.sum, res.u
	switch {
	case publishErr == nil:
	case isSuperseded(publishErr):
		// A later removal of the same file cancelled this write.
		res.outcome, res.bytes = transfer.Unchanged, 0
	default:
		res.outcome, res.cause = transfer.Failed, publishErr
	}
	sum.Listed++
	if u.retry {
		sum.Retried++
	}
	if res.outcome == transfer.Failed {
		sum.ChangesFailed += int64(len(u.pending))
	} else {
		sum.Applied += int64(len(u.pending))
	}
	if u.deletes() && r.opts.Delete && res.outcome != transfer.Deleted {
		r.opts.Progress.Listed() // the producer counts deletions once they are done
	}
	r.tally.Add(res.outcome, u.uri, u.path, res.bytes, res.cause)
	if res.ticket != "" && publishErr == nil {
		r.d.Log.Debug().Str("uri", u.uri).Str("path", u.path).Int64("bytes", res.bytes).Msg("fetched")
	}
}

func isSuperseded(err error) bool { return errors.Is(err, resourcesync.ErrSuperseded) }
