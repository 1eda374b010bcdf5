package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A flag after the URL counts, as in rclone: `sync --dest D URL --quiet`
// syncs quietly instead of refusing the URL.
func TestFlagsAfterTheURL(t *testing.T) {
	src, srv := served(t, nil)
	dest := t.TempDir()
	r := runCLI(t, "sync", "--dest", dest, srv.URL, "--quiet", "--progress", "never", "--max-retry-wait", "5ms").want(t, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("--quiet after the URL did not count:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	assertMirrorIsSource(t, src, dest)
	// Every flag after the URL, a value that looks like an argument, and
	// --json=true in one word.
	r = runCLI(t, "sync", srv.URL, "--dest", dest, "--progress", "never", "--state", filepath.Join(dest, ".resync-dest", "state.db"), "--json=true").want(t, 0)
	contains(t, r.stdout, `"command": "sync"`)
	// Two URLs are still two, wherever the flags are.
	r = runCLI(t, "sync", srv.URL, "--dest", dest, srv.URL).want(t, exitUsage)
	contains(t, r.stderr, "sync takes one URL")
	// After "--" everything is an argument.
	r = runCLI(t, "sync", "--dest", dest, "--", srv.URL, "--quiet").want(t, exitUsage)
	contains(t, r.stderr, "sync takes one URL")
}

// A mistyped command or flag gets a suggestion; a flag another command
// takes says where it belongs; nothing goes to stdout.
func TestSuggestions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		not  string
	}{
		{[]string{"synk", "--dest", "d", "http://127.0.0.1:1/"}, `no command "synk": did you mean sync?`, ""},
		{[]string{"statsu"}, "did you mean status?", ""},
		{[]string{"frobnicate"}, `no command "frobnicate"; see resync-dest --help`, "did you mean"},
		{[]string{"sync", "--dst", "d", "http://127.0.0.1:1/"}, "sync does not take --dst: did you mean --dest?", ""},
		{[]string{"sync", "http://127.0.0.1:1/", "--dest", "d", "--dleete"}, "did you mean --delete?", ""},
		{[]string{"--quite", "status"}, "resync-dest does not take --quite: did you mean --quiet?", ""},
		{[]string{"audit", "--xyzzy"}, "audit does not take --xyzzy (see resync-dest audit --help)", "did you mean"},
		{[]string{"incremental", "--checksum", "--dest", "d", "http://127.0.0.1:1/"}, "--checksum re-hashes the whole mirror: use it with baseline or sync", ""},
		{[]string{"watch", "--dry-run", "--dest", "d", "http://127.0.0.1:1/"}, "watch does not take --dry-run", ""},
		{[]string{"watch", "--progress", "always", "--dest", "d", "http://127.0.0.1:1/"}, "watch does not take --progress", ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runCLI(t, tc.args...).want(t, exitUsage)
			contains(t, r.stderr, tc.want)
			if tc.not != "" && strings.Contains(r.stderr, tc.not) {
				t.Errorf("stderr has %q:\n%s", tc.not, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("a usage error printed to stdout:\n%s", r.stdout)
			}
		})
	}
}

// Each command's --help (golden files) lists only the flags the command
// accepts, shows each default once, and names --via's value as a
// placeholder.
func TestHelp(t *testing.T) {
	app := newApp(stdio{}, t.Context(), nil)
	cmds := []string{""}
	for _, c := range app.Commands {
		if !c.Hidden {
			cmds = append(cmds, c.Name)
		}
	}
	help := map[string]string{}
	for _, cmd := range cmds {
		argv := []string{"--help"}
		name := "help.golden"
		if cmd != "" {
			argv = []string{cmd, "--help"}
			name = "help-" + cmd + ".golden"
		}
		r := runCLI(t, argv...).want(t, 0)
		golden(t, name, r.stdout)
		help[cmd] = r.stdout
	}
	for _, tc := range []struct{ cmd, flag string }{
		{"incremental", "--checksum"}, {"watch", "--dry-run"}, {"watch", "--progress"},
		{"status", "--workers"}, {"discover", "--dest"},
	} {
		if strings.Contains(help[tc.cmd], tc.flag+" ") {
			t.Errorf("%s --help lists %s, which it refuses", tc.cmd, tc.flag)
		}
	}
	for cmd, text := range help {
		for _, l := range strings.Split(text, "\n") {
			if strings.Count(l, "default:") > 1 || strings.Count(l, "(default") > 1 {
				t.Errorf("%s --help shows a default twice: %s", cmd, l)
			}
			if strings.Contains(l, "--via list") {
				t.Errorf("%s --help shows --via's value list as its placeholder: %s", cmd, l)
			}
		}
	}
	// Every flag a command lists, it takes.
	for _, c := range app.Commands {
		for _, f := range c.Flags {
			if _, hint := elsewhere[c.Name+" "+f.Names()[0]]; hint {
				t.Errorf("%s lists --%s and refuses it", c.Name, f.Names()[0])
			}
		}
	}
}

// Boolean variables take the usual spellings, in any case; a value that
// is neither is a usage error naming the variable.
func TestEnvBooleans(t *testing.T) {
	_, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	for _, v := range []string{"yes", "YES", "on", "On", "true", "1", "no", "off", "FALSE", "0"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv("RESYNC_DEST_QUIET", v)
			r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
			quiet, _ := parseBool(v)
			if got := r.stdout == ""; got != quiet {
				t.Errorf("RESYNC_DEST_QUIET=%s: quiet %v, want %v\nstdout: %s", v, got, quiet, r.stdout)
			}
		})
	}
	t.Run("neither", func(t *testing.T) {
		t.Setenv("RESYNC_DEST_DELETE", "maybe")
		r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, exitUsage)
		contains(t, r.stderr, `RESYNC_DEST_DELETE="maybe"`, "want yes or no")
	})
}

// A RESYNC_DEST_ variable the command does not read is an error naming it,
// before anything is done: RESYNC_DEST_DRY_RUN=true must not let a real
// sync run.
func TestEnvUnknownVariable(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		args        []string
		want        string
	}{
		{"RESYNC_DEST_DRY_RUN", "true", []string{"sync"}, "--dry-run of sync is not read from the environment"},
		{"RESYNC_DEST_JSON", "1", []string{"baseline"}, "--json of baseline is not read from the environment"},
		{"RESYNC_DEST_LISTEN", "127.0.0.1:0", []string{"sync"}, "RESYNC_DEST_LISTEN names no option of sync"},
		{"RESYNC_DEST_WORKRES", "4", []string{"sync"}, "RESYNC_DEST_WORKRES names no option of sync"},
		{"RESYNC_DEST_WORKERS", "4", []string{"status"}, "RESYNC_DEST_WORKERS names no option of status"},
	} {
		t.Run(tc.name+" "+tc.args[0], func(t *testing.T) {
			t.Setenv(tc.name, tc.value)
			dest := filepath.Join(t.TempDir(), "mirror")
			argv := append(slices.Clone(tc.args), "--dest", dest)
			if tc.args[0] != "status" {
				argv = append(argv, "http://127.0.0.1:1/")
			}
			r := runCLI(t, argv...).want(t, exitUsage)
			contains(t, r.stderr, "environment variable "+tc.name, tc.want)
			if _, err := os.Stat(dest); !os.IsNotExist(err) {
				t.Errorf("the refused run made the mirror (%v)", err)
			}
		})
	}
	t.Run("version still prints", func(t *testing.T) {
		t.Setenv("RESYNC_DEST_NOTHING", "1")
		runCLI(t, "version").want(t, 0)
	})
}
