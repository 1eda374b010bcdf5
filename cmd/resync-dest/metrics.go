package main

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/metrics"
	"github.com/resync-dest/resync-dest/state"
)

// mirrorMetrics reads what the state db of the mirror at dest knows, for
// the metrics: the runs summed, the last run, the last success, and each
// set's resources held, failures pending, cursor and baseline. It only
// reads, so db may be read-only and a sync may be writing. On error it
// returns the first read that failed, naming dest.
func mirrorMetrics(ctx context.Context, db readStore, dest string) (metrics.Mirror, error) {
	m := metrics.Mirror{Dest: dest}
	fail := func(err error) (metrics.Mirror, error) {
		return metrics.Mirror{}, fmt.Errorf("read metrics of %s: %w", dest, err)
	}
	totals, err := db.RunTotals(ctx)
	if err != nil {
		return fail(err)
	}
	for _, t := range totals {
		m.Runs = append(m.Runs, metrics.RunTotal{
			Kind: t.Kind, Status: metricsStatus(t.Status), Runs: t.Runs,
			Created: t.Counts.Created, Updated: t.Counts.Updated, Deleted: t.Counts.Deleted,
			Failed: t.Counts.Failed, Bytes: t.Counts.Bytes,
		})
	}
	runs, err := db.Runs(ctx, 1)
	if err != nil {
		return fail(err)
	}
	if len(runs) == 1 {
		r := runs[0]
		m.LastRun = &metrics.Run{Kind: r.Kind, Status: metricsStatus(r.Status), Started: r.Started, Ended: r.Ended, ExitCode: r.ExitCode}
	}
	last, ok, err := db.LastSuccess(ctx)
	if err != nil {
		return fail(err)
	}
	if ok {
		m.LastSuccess = last.Ended
	}
	sets, err := db.Sets(ctx)
	if err != nil {
		return fail(err)
	}
	for _, s := range sets {
		held, err := db.HeldCount(ctx, s.ID)
		if err != nil {
			return fail(err)
		}
		// All the records, to count them: the state has no count of
		// failures, and failures are few next to what is held.
		failures, err := db.Failures(ctx, s.ID)
		if err != nil {
			return fail(err)
		}
		m.Sets = append(m.Sets, metrics.Set{
			CapabilityList: s.CapabilityList, Held: held, Failures: int64(len(failures)),
			Cursor: s.Cursor, Baseline: s.BaselineAt,
		})
	}
	return m, nil
}

// metricsStatus is a run status as the metrics name it: the same words,
// but the metrics package, not knowing the state, has its own for runs
// not ended.
func metricsStatus(s string) string {
	if s == state.RunRunning {
		return metrics.RunRunning
	}
	return s
}
