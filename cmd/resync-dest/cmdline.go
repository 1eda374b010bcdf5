package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// This file holds what makes the command line behave as people expect from
// rsync, rclone and restic, where urfave/cli v2 does otherwise: flags after
// the URL, suggestions for a mistyped command or flag, the usual spellings
// of a boolean environment variable, and no RESYNC_DEST_ variable ignored.

// completionFlag is what a shell's completion script appends to the words
// typed; urfave/cli looks for it at the very end.
const completionFlag = "--generate-bash-completion"

// reorderArgs moves the flags given after a command's arguments before
// them (resync-dest sync --dest D URL --quiet), as rclone accepts: the flag
// package that urfave/cli v2 uses stops at the first argument. A flag's
// value stays with its flag; everything after "--" stays an argument; an
// unknown command leaves the line as it is, for the usage error.
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	var completion bool
	if args[len(args)-1] == completionFlag {
		completion, args = true, args[:len(args)-1]
	}
	at := 1 // the command's name, after the global flags
	for at < len(args) && isFlag(args[at]) {
		if args[at] == "--" {
			at = len(args)
			break
		}
		if takesValue(app.Flags, args[at]) {
			at++
		}
		at++
	}
	var cmd *cli.Command
	if at < len(args) {
		cmd = findCommand(app.Commands, args[at])
	}
	out := args
	if cmd != nil {
		var flags, rest []string
		tail := args[at+1:]
		for i := 0; i < len(tail); i++ {
			a := tail[i]
			switch {
			case a == "--":
				rest = append(rest, tail[i:]...)
				i = len(tail)
			case isFlag(a):
				flags = append(flags, a)
				if takesValue(cmd.Flags, a) && i+1 < len(tail) {
					i++
					flags = append(flags, tail[i])
				}
			default:
				rest = append(rest, a)
			}
		}
		out = slices.Concat(args[:at+1], flags, rest)
	}
	if completion {
		out = append(out, completionFlag)
	}
	return out
}

func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

// flagName is a flag's name as typed, without dashes and value.
func flagName(a string) string {
	name := strings.TrimLeft(a, "-")
	name, _, _ = strings.Cut(name, "=")
	return name
}

// takesValue reports whether the flag a (as typed) is one of flags that
// needs the next word as its value. An unknown flag takes none: the parse
// refuses it.
func takesValue(flags []cli.Flag, a string) bool {
	if strings.Contains(a, "=") {
		return false
	}
	f := lookupFlag(flags, flagName(a))
	if f == nil {
		return false
	}
	tv, ok := f.(interface{ TakesValue() bool })
	return ok && tv.TakesValue()
}

func lookupFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// suggest is the candidate nearest to typed, or "" when none is near
// enough to be what was meant (Jaro-Winkler similarity, as urfave/cli's own
// suggestions, which always name something).
func suggest(typed string, candidates []string) string {
	best, score := "", 0.0
	for _, c := range candidates {
		if s := smetrics.JaroWinkler(typed, c, 0.7, 4); s > score {
			best, score = c, s
		}
	}
	if score < 0.8 {
		return ""
	}
	return best
}

// unknownCommand is the usage error for a command that does not exist.
func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	if s := suggest(name, names); s != "" {
		return usageErrorf("no command %q: did you mean %s? (see resync-dest --help)", name, s)
	}
	return usageErrorf("no command %q; see resync-dest --help", name)
}

// elsewhere says why a command refuses a flag that another command takes.
var elsewhere = map[string]string{
	"incremental checksum": "--checksum re-hashes the whole mirror: use it with baseline or sync",
	"incremental c":        "-c (--checksum) re-hashes the whole mirror: use it with baseline or sync",
	"watch dry-run":        "watch does not take --dry-run: run sync --dry-run to see what it would do",
	"watch n":              "watch does not take -n (--dry-run): run sync --dry-run to see what it would do",
	"watch progress":       "watch does not take --progress: it logs each sync instead of a live progress line",
}

// usageError is the usage error for a command line urfave/cli could not
// parse, with a suggestion when a flag was mistyped.
func usageError(c *cli.Context, err error) error {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	typed, ok := strings.CutPrefix(msg, undefined)
	if !ok {
		return &exitError{code: exitUsage, err: err}
	}
	flags, verb, help := c.App.Flags, "resync-dest", "resync-dest --help"
	if c.Command != nil && !slices.Contains([]string{"", c.App.Name}, c.Command.Name) {
		flags, verb = c.Command.Flags, c.Command.Name
		help = "resync-dest " + verb + " --help"
	}
	if why, ok := elsewhere[verb+" "+typed]; ok {
		return usageErrorf("%s", why)
	}
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	if s := suggest(typed, names); s != "" {
		return usageErrorf("%s does not take %s: did you mean %s?", verb, dashed(typed), dashed(s))
	}
	return usageErrorf("%s does not take %s (see %s)", verb, dashed(typed), help)
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// envPrefix starts the name of every environment variable resync-dest reads.
const envPrefix = "RESYNC_DEST_"

// checkEnv refuses a RESYNC_DEST_ variable that names no flag the command
// reads from the environment: a misspelt or misplaced variable (say
// RESYNC_DEST_DRY_RUN=true while a real sync runs) must not pass for one
// that worked. environ is os.Environ's form.
func checkEnv(c *cli.Context, environ []string) error {
	known := map[string]bool{}
	flagOf := map[string]string{} // a flag's would-be variable, for flags that have none
	for _, flags := range [][]cli.Flag{c.App.Flags, c.Command.Flags} {
		for _, f := range flags {
			if ef, ok := f.(interface{ GetEnvVars() []string }); ok {
				for _, v := range ef.GetEnvVars() {
					known[v] = true
				}
			}
			flagOf[envPrefix+strings.ToUpper(strings.ReplaceAll(f.Names()[0], "-", "_"))] = f.Names()[0]
		}
	}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, envPrefix) || known[name] {
			continue
		}
		if f, ok := flagOf[name]; ok {
			return usageErrorf("environment variable %s: --%s of %s is not read from the environment; give it on the command line (or unset %s)", name, f, c.Command.Name, name)
		}
		return usageErrorf("environment variable %s names no option of %s; unset it (resync-dest %s --help lists the variables it reads)", name, c.Command.Name, c.Command.Name)
	}
	return nil
}

// boolFlag is a boolean flag whose environment variable takes the usual
// spellings - yes/no, on/off, true/false, 1/0, in any case - where
// urfave/cli's takes only Go's (true, 1, t...).
type boolFlag struct{ *cli.BoolFlag }

// Apply defines the flag in set, then sets it from its variable.
func (f boolFlag) Apply(set *flag.FlagSet) error {
	envs := f.EnvVars
	f.EnvVars = nil
	err := f.BoolFlag.Apply(set)
	f.EnvVars = envs
	if err != nil {
		return err
	}
	for _, name := range envs {
		v, ok := os.LookupEnv(name)
		if !ok {
			continue
		}
		b, err := parseBool(v)
		if err != nil {
			return fmt.Errorf("environment variable %s=%q: %w", name, v, err)
		}
		return set.Set(f.Name, fmt.Sprint(b))
	}
	return nil
}

// parseBool reads the usual spellings of a yes or a no; an empty value is
// a no, as urfave/cli has it for a variable set to nothing.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "y", "yes", "on":
		return true, nil
	case "", "0", "f", "false", "n", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("want yes or no (yes/no, on/off, true/false, 1/0)")
}

// envBool is a boolean flag with an environment variable.
func envBool(f *cli.BoolFlag) cli.Flag { return boolFlag{f} }

// omitFlags is flags without those named: a command lists only the flags
// it accepts.
func omitFlags(flags []cli.Flag, names ...string) []cli.Flag {
	return slices.DeleteFunc(slices.Clone(flags), func(f cli.Flag) bool { return slices.Contains(names, f.Names()[0]) })
}
