package main

import (
	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// filterFlags are --include, --exclude and --collection, for every command that reads a
// set's resources (baseline, incremental, sync, watch, audit, discover
// --count) and a --config file's Sources.
func filterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "include", Usage: "take only resources whose URI matches `REGEX` (repeatable: any of them; Go regular expression, matched anywhere in the URI)"},
		&cli.StringSliceFlag{Name: "exclude", Usage: "leave out resources whose URI matches `REGEX` (repeatable; applied before --include): neither fetched, deleted nor audited"},
		&cli.StringSliceFlag{Name: "collection", Usage: "take only resources whose rel=\"collection\" link names `URI` (repeatable: any of them; exact URI; as well as --include/--exclude admit them)"},
	}
}

// parseFilter reads --include, --exclude and --collection; a pattern that
// is not a regular expression, or a collection that is not an absolute
// URI, is a usage error naming it.
func parseFilter(c flagValues) (resourcesync.Filter, error) {
	f, err := resourcesync.ParseFilter(c.StringSlice("include"), c.StringSlice("exclude"))
	if err == nil {
		f, err = f.InCollections(c.StringSlice("collection"))
	}
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
	for _, u := range c.StringSlice("collection") {
		args = append(args, "--collection", u)
	}
	return args
}
