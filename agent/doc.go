// Package agent owns what happens above the workers: discovery (from any
// URL a user may give, find the Source Description and every set of
// resources with its capability documents), planning (which capability
// serves a job, per set), and orchestration of the baseline, incremental and
// audit workers for the sync commands.
//
// Like the workers it knows no HTTP, SQLite or file system: it declares the
// few methods it needs and is handed the adapters by cmd/resync-dest.
package agent
