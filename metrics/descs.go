package metrics

import "github.com/prometheus/client_golang/prometheus"

// descs describe every metric the Collector sends. Names end in their base
// unit (_seconds, _bytes) and counters in _total; timestamps are Unix
// seconds.
type descs struct {
	scrapeError *prometheus.Desc

	runs            *prometheus.Desc
	runsUnfinished  *prometheus.Desc
	resources       *prometheus.Desc
	bytes           *prometheus.Desc
	lastRunTime     *prometheus.Desc
	lastRunExitCode *prometheus.Desc
	lastRunDuration *prometheus.Desc
	lastSuccess     *prometheus.Desc

	held      *prometheus.Desc
	failures  *prometheus.Desc
	cursor    *prometheus.Desc
	cursorLag *prometheus.Desc
	baseline  *prometheus.Desc

	notifications *prometheus.Desc
	syncs         *prometheus.Desc
	subscriptions *prometheus.Desc
}

func newDescs() descs {
	desc := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("resync_dest_"+name, help, labels, nil)
	}
	return descs{
		scrapeError: desc("scrape_error",
			"1 if reading what resync-dest knows about its mirrors failed at this scrape (the other resync_dest_ metrics may then be missing), 0 if it worked."),

		runs: desc("runs_total",
			"Runs that ended, by kind (baseline, incremental, sync, audit, ...) and status (ok, partial, ...), as recorded in the mirror's state.",
			"dest", "kind", "status"),
		runsUnfinished: desc("runs_unfinished",
			"Runs recorded as started but not ended: in progress now, or cut short by a crash.",
			"dest", "kind"),
		resources: desc("resources_total",
			"Resources created, updated or deleted in the mirror, or that failed to be brought in step, summed over all runs (a resource that fails in three runs counts three times).",
			"dest", "outcome"),
		bytes: desc("bytes_total",
			"Bytes written to the mirror, summed over all runs.",
			"dest"),
		lastRunTime: desc("last_run_timestamp_seconds",
			"When the most recent run ended (when it started, while it runs), in Unix seconds; kind is what it was.",
			"dest", "kind"),
		lastRunExitCode: desc("last_run_exit_code",
			"Exit code of the most recent run, absent while it runs: 0 all went well, 3 some resources failed (see resync-dest --help for the others).",
			"dest"),
		lastRunDuration: desc("last_run_duration_seconds",
			"How long the most recent run took, absent while it runs.",
			"dest"),
		lastSuccess: desc("last_success_timestamp_seconds",
			"When the last run that exited 0 ended, in Unix seconds; 0 if no run ever did.",
			"dest"),

		held: desc("resources_held",
			"Resources of the set (one Capability List) the mirror holds.",
			"dest", "capability_list"),
		failures: desc("failures_pending",
			"Resources of the set that failed and will be retried on the next run.",
			"dest", "capability_list"),
		cursor: desc("cursor_timestamp_seconds",
			"The set's incremental cursor, in Unix seconds: changes before it are applied, the next sync starts there. Absent before the first baseline or incremental sync.",
			"dest", "capability_list"),
		cursorLag: desc("cursor_lag_seconds",
			"Seconds from the set's incremental cursor to now: how far the mirror may be behind the Source. It grows between syncs even when the Source changes nothing. Absent when there is no cursor.",
			"dest", "capability_list"),
		baseline: desc("baseline_timestamp_seconds",
			"The at time of the Resource List (or Dump) of the set's last complete baseline, in Unix seconds; 0 if none completed.",
			"dest", "capability_list"),

		notifications: desc("notifications_total",
			"WebSub notifications received by this watch process: result trigger (verified and ours: it asks for a sync or a rediscovery; bursts are coalesced) or ignored (bad signature, unknown subscription, or about nothing mirrored).",
			"dest", "result"),
		syncs: desc("syncs_total",
			"Syncs this watch process started, by trigger: initial (at start), poll (the poll interval elapsed) or notification.",
			"dest", "trigger"),
		subscriptions: desc("subscriptions",
			"WebSub subscriptions this watch process holds for the mirror.",
			"dest"),
	}
}

func (d *descs) all() []*prometheus.Desc {
	return []*prometheus.Desc{
		d.scrapeError,
		d.runs, d.runsUnfinished, d.resources, d.bytes, d.lastRunTime, d.lastRunExitCode, d.lastRunDuration, d.lastSuccess,
		d.held, d.failures, d.cursor, d.cursorLag, d.baseline,
		d.notifications, d.syncs, d.subscriptions,
	}
}
