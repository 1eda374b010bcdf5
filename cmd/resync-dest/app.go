package main

import (
	"context"
	"fmt"
	"os"

	"github.com/rs/zerolog"
	"github.com/urfave/cli/v2"
)

// deps is what every command needs from its surroundings; tests build their
// own.
type deps struct {
	io     stdio
	log    zerolog.Logger
	logOut *logSink        // where log writes: stderr, or above the live progress bar
	drain  context.Context // cancelled when the user asks to stop (first signal)
	isTerm bool            // stderr is a terminal (live progress)
	quiet  bool            // --quiet: no summary for a person when all went well
	// failpoint is the writer's crash-test hook, set only by the crash
	// tests' build (failpoint_test.go); nil in the shipped binary.
	failpoint func(name string)
	// doc is what the --json envelope will say (envelope.go); nil without
	// --json.
	doc *jsonDoc
	// jsonLogs is --log-format json: every message to stderr is a JSON
	// record then, the final error and the signal notice included.
	jsonLogs bool
	// onLog is told the logger each time it is made (the signal handler
	// logs its notice with it); nil in tests.
	onLog func(log zerolog.Logger, json bool)
}

// hooks are what main (or the crash tests' main) gives the app besides
// its streams: failpoint is the writer's crash-test hook (set only by the
// crash tests' build, failpoint_test.go; nil in the shipped binary), and
// onLog is told each logger made (the signal handler logs its notice with
// it; nil in tests).
type hooks struct {
	failpoint func(string)
	onLog     func(zerolog.Logger, bool)
}

func newApp(io stdio, drain context.Context, failpoint func(string)) *cli.App {
	app, _ := buildApp(io, drain, hooks{failpoint: failpoint})
	return app
}

// buildApp is the application and the deps its commands share.
func buildApp(io stdio, drain context.Context, h hooks) (*cli.App, *deps) {
	d := deps{io: io, drain: drain, failpoint: h.failpoint, onLog: h.onLog}
	app := &cli.App{
		Name:                 "resync-dest",
		Usage:                "a ResourceSync Destination: discover, mirror, keep in step and audit a Source",
		Writer:               io.out,
		ErrWriter:            io.err,
		HideHelpCommand:      true,
		EnableBashCompletion: true, // the bash and zsh scripts of generate-docs ask the binary
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log-format", Value: "console", Usage: "log format: console or json (logs go to stderr)", EnvVars: []string{"RESYNC_DEST_LOG_FORMAT"}},
			&cli.StringFlag{Name: "log-level", Value: "info", Usage: "trace, debug, info, warn or error", EnvVars: []string{"RESYNC_DEST_LOG_LEVEL"}},
			envBool(&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "only warnings and errors, no progress, and no summary when all went well", EnvVars: []string{"RESYNC_DEST_QUIET"}}),
			envBool(&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "debug-level logs (as rsync's, rclone's and wget's -v)", EnvVars: []string{"RESYNC_DEST_VERBOSE"}}),
			// Ours, not urfave/cli's, whose version flag is also -v.
			&cli.BoolFlag{Name: "version", Usage: "print the version and build information, and exit (as the version command)"},
		},
		Before: func(c *cli.Context) error {
			if c.Bool("version") {
				if err := build().write(io.out); err != nil {
					return err
				}
				return &exitError{code: exitOK, silent: true, err: errVersionShown}
			}
			d = deps{io: io, drain: drain, failpoint: h.failpoint, onLog: h.onLog}
			return d.setLogging(logOptions{format: c.String("log-format"), level: c.String("log-level"), quiet: c.Bool("quiet"), verbose: c.Bool("verbose")})
		},
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return usageError(c, err)
		},
		// Without a command: the help, and a usage error (a cron line
		// that lost its command must not pass for a success).
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return unknownCommand(c.App, c.Args().First())
			}
			_ = cli.ShowAppHelp(c)
			return &exitError{code: exitUsage, silent: true, err: fmt.Errorf("no command given")}
		},
	}
	app.Commands = commands(&d)
	app.CustomAppHelpTemplate = cli.AppHelpTemplate + "\n" + exitCodesHelp + "\n"
	for _, cmd := range app.Commands {
		cmd.CustomHelpTemplate = cli.CommandHelpTemplate + "\n" + exitCodesHelp + "\n"
		if cmd.OnUsageError == nil {
			cmd.OnUsageError = app.OnUsageError
		}
		// The logging flags work after the command too (resync-dest sync
		// --quiet ...), as the contract lists them among its options.
		cmd.Flags = append(cmd.Flags, commandLogFlags()...)
		cmd.Before = func(c *cli.Context) error {
			if c.Command.Name != "version" && !c.Command.Hidden {
				if err := checkEnv(c, os.Environ()); err != nil {
					return err
				}
			}
			return d.commandLogging(c)
		}
		cmd.BashComplete = completeFlags(cmd)
	}
	return app, &d
}

// commandLogFlags are the logging flags as a command's own: without
// defaults or environment variables, which the global ones have.
func commandLogFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "log-format", Usage: "log format: console or json (as the global flag)"},
		&cli.StringFlag{Name: "log-level", Usage: "trace, debug, info, warn or error (as the global flag)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "only warnings and errors, no progress, and no summary when all went well (as the global flag)"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "debug-level logs (as the global flag)"},
	}
}

// commandLogging rebuilds the logger when a command was given logging
// flags of its own: each one given after the command wins over the global
// one.
func (d *deps) commandLogging(c *cli.Context) error {
	local := map[string]bool{}
	for _, n := range c.LocalFlagNames() {
		local[n] = true
	}
	if !local["log-format"] && !local["log-level"] && !local["quiet"] && !local["q"] && !local["verbose"] && !local["v"] {
		return nil
	}
	global := c.Lineage()[1]
	o := logOptions{format: global.String("log-format"), level: global.String("log-level"), quiet: global.Bool("quiet"), verbose: global.Bool("verbose")}
	if local["log-format"] {
		o.format = c.String("log-format")
	}
	if local["log-level"] {
		o.level = c.String("log-level")
	}
	if local["quiet"] || local["q"] {
		o.quiet = c.Bool("quiet")
	}
	if local["verbose"] || local["v"] {
		o.verbose = c.Bool("verbose")
	}
	return d.setLogging(o)
}

// setLogging makes the logger and the display settings for o.
func (d *deps) setLogging(o logOptions) error {
	if d.logOut == nil {
		d.logOut = &logSink{w: d.io.err}
	}
	log, err := newLogger(d.logOut, o)
	if err != nil {
		return err
	}
	d.log, d.quiet, d.jsonLogs = log, o.quiet, o.format == "json"
	d.isTerm = isTerminal(d.io.err) && !o.quiet
	if d.onLog != nil {
		d.onLog(d.log, d.jsonLogs)
	}
	return nil
}

// sayError tells the user of an error the command did not report itself:
// a line "resync-dest: ..." on stderr, or with --log-format json an error
// record (with fields, such as the exit status).
func (d *deps) sayError(err error, fields map[string]any) {
	if d.jsonLogs {
		d.log.Error().Err(err).Fields(fields).Msg("resync-dest stopped")
		return
	}
	fmt.Fprintf(d.io.err, "resync-dest: %v\n", err)
}

// commands lists the commands that work. A command is registered only once
// it does what the contract says.
func commands(d *deps) []*cli.Command {
	return []*cli.Command{
		discoverCommand(d),
		baselineCommand(d),
		incrementalCommand(d),
		syncCommand(d),
		auditCommand(d),
		statusCommand(d),
		watchCommand(d),
		workerCommand(d),
		versionCommand(d),
		docsCommand(d),
	}
}
