// Package worker runs resync-dest as one of several workers sharing a
// PostgreSQL state (package pgstate): jobs in River queues on that
// database, so that no scheduler of our own is needed.
//
// # Jobs
//
//   - source (one per Source, unique): discovers the Source's sets, inserts
//     a set job for each, and snoozes itself until the next poll - one
//     periodic job per Source, never two.
//   - set (one per Capability List, unique): syncs the set - a baseline
//     while it has none, else its changes, committed in document order by
//     one owner. A baseline by a Resource List Index is first split into
//     one part job per Resource List, one by a Resource Dump into one per
//     package; when they are done, the set job finishes it (every
//     resource is held then: it records the baseline point and applies
//     deletions).
//   - part (one per Resource List of such an index, or per package of
//     such a dump): copies that list's or package's resources.
//
// # Ownership
//
// A set or part job holds a lease in the state (pgstate.AcquireLease) for
// as long as it runs, renewed every sixth of Options.Lease, and writes
// through the state fenced with it: a worker that stalls past its lease -
// killed, paused, cut off from the database - is replaced, and its late
// writes are refused. A job none of whose renewals got through for two
// thirds of the lease stops itself (its context ends, and with it the
// writes of its mirror), before another worker may take it over. The renewal also marks the River job as alive; a job
// whose worker stopped renewing is made available again after the lease
// (Options.Lease), and the next worker resumes it exactly where the state
// says, as any run resumes.
//
// # Politeness across workers
//
// Each process keeps its own limits (--workers, --tpslimit); on top of
// them, at most Options.HostBudget jobs fetch from one host at a time,
// whichever workers run them: each takes one of the host's slots, a
// PostgreSQL advisory lock held on a connection of its own for the job's
// duration (and dropped by the server if the worker dies).
package worker
