package metrics

import "time"

// RunRunning is the Status of runs that have not ended: in progress, or
// cut short by a crash that left no end.
const RunRunning = "running"

// Mirror is what is known about one mirror at one moment.
type Mirror struct {
	Dest        string     // the mirror's root, the dest label
	Runs        []RunTotal // the runs recorded, summed by kind and status
	LastRun     *Run       // the most recent run; nil if none
	LastSuccess time.Time  // end of the last run that exited 0; zero if none
	Sets        []Set      // one per Capability List
}

// RunTotal sums the runs of one kind that ended with one status.
type RunTotal struct {
	Kind    string
	Status  string // RunRunning for runs not ended
	Runs    int64
	Created int64
	Updated int64
	Deleted int64
	Failed  int64
	Bytes   int64
}

// Run is one run of the program.
type Run struct {
	Kind     string
	Status   string
	Started  time.Time
	Ended    time.Time // zero while running
	ExitCode int
}

// Set is where one set of resources (one Capability List) stands.
type Set struct {
	CapabilityList string
	Held           int64     // resources held
	Failures       int64     // resources whose failure waits to be retried
	Cursor         time.Time // time of the first unprocessed change; zero if none
	Baseline       time.Time // the at of the last complete baseline; zero if none
}
