package main

import (
	"context"
	"io"
	"os"
)

func main() {
	tuneGC(os.Getenv)
	tuneProcs(os.Getenv)
	sig := newSignals(os.Stderr)
	code := runWith(sig.hard, os.Args, stdio{out: os.Stdout, err: os.Stderr}, sig.drain, sig.received, hooks{onLog: sig.setLog})
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
	return runWith(ctx, args, io, drain, received, hooks{})
}

// runWith is run with hooks (see hooks): main's signal handler, and in
// the crash tests' build the writer's failpoint.
func runWith(ctx context.Context, args []string, io stdio, drain context.Context, received func() os.Signal, h hooks) int {
	app, d := buildApp(io, drain, h)
	err := app.RunContext(ctx, reorderArgs(app, args))
	code := exitCode(err, received())
	if err != nil && !isSilent(err) {
		d.sayError(err, map[string]any{"exit_code": code})
	}
	return code
}
