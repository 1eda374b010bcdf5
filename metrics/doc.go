// Package metrics exposes what resync-dest knows about its mirrors as
// Prometheus metrics: runs and what they did, the last success, and where
// each set of resources stands (resources held, failures to retry, the
// incremental cursor and how far it lags), plus the counters a `watch`
// process keeps while it runs (notifications, syncs, subscriptions).
//
// It owns the metric names and their meaning, and the two ways out: a text
// file for node_exporter's textfile collector after a cron run
// (WriteTextfile) and an HTTP handler for the /metrics endpoint of `watch`
// (Handler). It takes plain values (Mirror) from a snapshot function and
// knows nothing of where they come from; the caller reads the state.
package metrics
