package main

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Exit statuses of the command-line contract (README, "Exit status").
const (
	exitOK          = 0
	exitFatal       = 1
	exitUsage       = 2
	exitPartial     = 3
	exitDifferences = 4
	exitUnavailable = 5
	exitLocked      = 6
	exitSafetyStop  = 7
	exitSIGINT      = 130
	exitSIGTERM     = 143
)

// exitCodesHelp is shown by --help.
const exitCodesHelp = `EXIT STATUS:
   0    done; the mirror holds what the Source advertised
   1    fatal error (nothing more could be done)
   2    usage or configuration error
   3    partial: the run finished but some resources failed, or the Source became unavailable
        after files were written; what was done is recorded and kept, the rest retried next run
   4    audit found differences
   5    temporary: the Source could not be reached or kept failing; nothing was changed
   6    another run holds this mirror's lock
   7    safety stop: re-baseline needed (change history gap) or a deletion guard tripped
   130  interrupted by SIGINT after saving state
   143  interrupted by SIGTERM after saving state`

// exitError is an error with an explicit exit status, for outcomes that are
// not failures of a library call: a usage error, a partial run, audit
// differences. silent means the command already told the user.
type exitError struct {
	code   int
	err    error
	silent bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// exitCode maps the outcome of a command to the process exit status. A run
// cut short by a signal exits 130/143 whatever error the interruption
// surfaced as.
func exitCode(err error, sig os.Signal) int {
	if err == nil {
		return exitOK
	}
	if sig != nil {
		return signalExitCode(sig)
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Precedence when several sets failed differently: what the user must
	// act on first.
	switch {
	case errors.Is(err, agent.ErrUnknownSet), errors.Is(err, agent.ErrNoStartingPoint):
		return exitUsage // the command line named what is not there
	case errors.Is(err, resourcesync.ErrInterrupted):
		return exitSIGINT
	case errors.Is(err, resourcesync.ErrLocal):
		return exitFatal
	case errors.Is(err, resourcesync.ErrSafetyStop):
		return exitSafetyStop
	case errors.Is(err, resourcesync.ErrUnavailable):
		return exitUnavailable
	}
	return exitFatal
}

// gravity orders exit statuses by what the user must act on first, when
// several runs (the Sources of a --config file) ended differently.
var gravity = []int{exitOK, exitPartial, exitDifferences, exitUnavailable, exitLocked, exitSafetyStop, exitUsage, exitFatal, exitSIGINT, exitSIGTERM}

// gravest is the exit status of several runs' errors: a signal's, else the
// gravest of theirs.
func gravest(errs []error, sig os.Signal) int {
	if sig != nil {
		return signalExitCode(sig)
	}
	worst := exitOK
	for _, err := range errs {
		if code := exitCode(err, nil); slices.Index(gravity, code) > slices.Index(gravity, worst) {
			worst = code
		}
	}
	return worst
}

// changedBeforeUnavailable gives a run that the Source's unavailability
// ended (the circuit breaker, a list that could no longer be read) exit 3
// instead of 5 when it changed the mirror first: 5 says "nothing was
// changed", and the files written or removed are recorded and kept. A
// graver status (a local fault, a safety stop, an interruption) stands, as
// does 5 for a dry run or a run that changed nothing.
func changedBeforeUnavailable(err error, c resourcesync.Counts, dryRun bool) error {
	changed := c.Created + c.Updated + c.Deleted
	if err == nil || dryRun || changed == 0 || exitCode(err, nil) != exitUnavailable {
		return err
	}
	return &exitError{code: exitPartial, err: fmt.Errorf("%w (the run had written or removed %s, kept and recorded)", err, plural(changed, "file", "files"))}
}

// isSilent reports whether the error was already reported to the user.
func isSilent(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.silent
}
