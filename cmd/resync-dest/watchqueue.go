package main

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/pgstate"
	"github.com/resync-dest/resync-dest/worker"
)

// queuedSync is the sync of a watched mirror whose Source the workers of a
// PostgreSQL state keep (worker --config recorded it): each sync watch
// would run - the first, a poll, a notification - queues the Source's job
// instead (worker.Notify: the same job, run now by a worker), and watch
// only discovers the Source, for its hubs. ok is false for any other
// mirror, which watch syncs itself.
func queuedSync(ctx context.Context, o syncOptions, d *deps) (sync func(context.Context) (*agent.Discovery, error), closeDB func(), ok bool, err error) {
	if !pgstate.IsURL(o.statePath) {
		return nil, nil, false, nil
	}
	po := pgstate.DefaultOptions()
	po.URL, po.MaxConns = o.statePath, 2
	db, err := pgstate.Open(ctx, po)
	if err != nil {
		return nil, nil, false, err
	}
	if _, registered, err := db.Source(ctx, o.url); err != nil || !registered {
		db.Close()
		return nil, nil, false, err
	}
	if err := worker.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, nil, false, err
	}
	d.log.Info().Str("source", o.url).Msg("the workers of the state keep this Source: notifications queue its job")
	return func(ctx context.Context) (*agent.Discovery, error) {
		if err := worker.Notify(ctx, db, o.url); err != nil {
			return nil, fmt.Errorf("queue the job of %s: %w", o.url, err)
		}
		client, err := newClient(o.url, o.http, d)
		if err != nil {
			return nil, err
		}
		return agent.Discover(ctx, client, o.url, agent.DefaultDiscoverOptions())
	}, func() { db.Close() }, true, nil
}
