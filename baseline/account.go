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
	if res.outcome == transfer.Failed {
		it.Failure = &resourcesync.Failure{URI: res.uri, Cause: res.cause.Error(), At: r.opts.Now()}
	}
	it.Done = func(publishErr error) { r.account(res, publishErr) }
	return it
}

// account counts and reports one recorded result. The writer calls it from
// one goroutine at a time, so it may update the run without locks.
func (r *run) account(res result, publishErr error) {
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
		res.outcome, res.cause = transfer.Failed, publishErr
	}
	r.sum.Listed++
	r.tally.Add(res.outcome, res.uri, res.path, res.bytes, res.cause)
	if res.ticket != "" && publishErr == nil {
		r.d.Log.Debug().Str("uri", res.uri).Str("path", res.path).Int64("bytes", res.bytes).Msg("fetched")
	}
}
