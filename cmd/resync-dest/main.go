package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

func main() {
	sig := newSignals(os.Stderr)
	code := run(sig.hard, os.Args, stdio{out: os.Stdout, err: os.Stderr}, sig.drain, sig.received)
	sig.stop()
	os.Exit(code)
}

// stdio is where a command writes: results to out, logs and messages to err.
type stdio struct {
	out io.Writer
	err io.Writer
}

// run executes the command line and returns the process exit status. ctx
// cancels everything; drain, when cancelled, asks the commands to stop
// starting new work. received reports the signal that caused it (nil if
// none). Tests call run directly.
func run(ctx context.Context, args []string, io stdio, drain context.Context, received func() os.Signal) int {
	return runWith(ctx, args, io, drain, received, nil)
}

// runWith is run with a hook the writer calls at its failpoints: the crash
// tests' seam, which only their build sets (failpoint_test.go); nil in the
// shipped binary.
func runWith(ctx context.Context, args []string, io stdio, drain context.Context, received func() os.Signal, failpoint func(string)) int {
	app := newApp(io, drain, failpoint)
	err := app.RunContext(ctx, reorderArgs(app, args))
	code := exitCode(err, received())
	if err != nil && !isSilent(err) {
		fmt.Fprintf(io.err, "resync-dest: %v\n", err)
	}
	return code
}
