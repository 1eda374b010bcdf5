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
	drain  context.Context // cancelled when the user asks to stop (first signal)
	isTerm bool            // stderr is a terminal (live progress)
	// failpoint is the writer's crash-test hook, set only from
	// RESYNC_DEST_FAILPOINT (failpoint.go); nil otherwise.
	failpoint func(name string)
}

func newApp(io stdio, drain context.Context) *cli.App {
	var d deps
	app := &cli.App{
		Name:                 "resync-dest",
		Usage:                "a ResourceSync Destination: discover, mirror, keep in step and audit a Source",
		Version:              version,
		Writer:               io.out,
		ErrWriter:            io.err,
		HideHelpCommand:      true,
		EnableBashCompletion: false,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log-format", Value: "console", Usage: "log format: console or json (logs go to stderr)", EnvVars: []string{"RESYNC_DEST_LOG_FORMAT"}},
			&cli.StringFlag{Name: "log-level", Value: "info", Usage: "trace, debug, info, warn or error", EnvVars: []string{"RESYNC_DEST_LOG_LEVEL"}},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "only warnings and errors; no progress", EnvVars: []string{"RESYNC_DEST_QUIET"}},
		},
		Before: func(c *cli.Context) error {
			log, err := newLogger(io.err, logOptions{
				format: c.String("log-format"), level: c.String("log-level"), quiet: c.Bool("quiet"),
			})
			if err != nil {
				return err
			}
			fp, err := failpointFromEnv(os.Getenv(failpointEnv))
			if err != nil {
				return err
			}
			d = deps{io: io, log: log, drain: drain, isTerm: isTerminal(io.err) && !c.Bool("quiet"), failpoint: fp}
			return nil
		},
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return &exitError{code: exitUsage, err: err}
		},
		// Without a command: the help, and a usage error (a cron line
		// that lost its command must not pass for a success).
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("no command %q; see resync-dest --help", c.Args().First())
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
	}
	return app
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
	}
}
