package main

import (
	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// filterFlags are --include and --exclude, for every command that reads a
// set's resources (baseline, incremental, sync, watch, audit, discover
// --count) and a --config file's Sources.
func filterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "include", Usage: "take only resources whose URI matches `REGEX` (repeatable: any of them; Go regular expression, matched anywhere in the URI)"},
		&cli.StringSliceFlag{Name: "exclude", Usage: "leave out resources whose URI matches `REGEX` (repeatable; applied before --include): neither fetched, deleted nor audited"},
	}
}

// parseFilter reads --include and --exclude; a pattern that is not a
// regular expression is a usage error naming it.
func parseFilter(c flagValues) (resourcesync.Filter, error) {
	f, err := resourcesync.ParseFilter(c.StringSlice("include"), c.StringSlice("exclude"))
	if err != nil {
		return f, usageErrorf("%v", err)
	}
	return f, nil
}

// filterArgs gives the flags of f's patterns again, for a command line
// the user is told to run (audit's repair command).
func filterArgs(c flagValues) []string {
	var args []string
	for _, p := range c.StringSlice("exclude") {
		args = append(args, "--exclude", p)
	}
	for _, p := range c.StringSlice("include") {
		args = append(args, "--include", p)
	}
	return args
}
