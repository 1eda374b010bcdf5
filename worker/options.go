package worker

import (
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"
)

// Options configure Run.
type Options struct {
	// Lease is how long a job's ownership lasts without renewal: a killed
	// worker's job is taken over after it.
	Lease time.Duration
	// PollInterval is the time between two syncs of a Source.
	PollInterval time.Duration
	// Jobs is how many jobs this worker runs at once.
	Jobs int
	// HostBudget is how many jobs may fetch from one host at once, over
	// every worker of the database.
	HostBudget int
	// UntilIdle makes Run return once no job is runnable.
	UntilIdle bool
	// Check is how often the worker checks for idleness and for jobs
	// whose worker stopped renewing their lease.
	Check time.Duration
	// Owner names this worker in leases; "" means host and pid.
	Owner string
	Log   zerolog.Logger
}

// DefaultOptions returns a 1-minute lease, an hourly poll, 4 jobs at once,
// 4 jobs per host and a check every second.
func DefaultOptions() Options {
	return Options{Lease: time.Minute, PollInterval: time.Hour, Jobs: 4, HostBudget: 4, Check: time.Second, Log: zerolog.Nop()}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Lease <= 0 {
		o.Lease = d.Lease
	}
	if o.PollInterval <= 0 {
		o.PollInterval = d.PollInterval
	}
	if o.Jobs <= 0 {
		o.Jobs = d.Jobs
	}
	if o.HostBudget <= 0 {
		o.HostBudget = d.HostBudget
	}
	if o.Check <= 0 {
		o.Check = d.Check
	}
	if o.Owner == "" {
		host, _ := os.Hostname()
		o.Owner = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	return o
}
