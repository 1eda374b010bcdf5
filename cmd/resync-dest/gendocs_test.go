package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// visible is every command --help shows, with the long names of its flags.
func visible(t *testing.T) map[string][]string {
	t.Helper()
	app := newApp(stdio{out: &bytes.Buffer{}, err: &bytes.Buffer{}}, context.Background(), nil)
	m := map[string][]string{}
	for _, c := range app.VisibleCommands() {
		for _, f := range c.VisibleFlags() {
			m[c.Name] = append(m[c.Name], f.Names()[0])
		}
	}
	var global []string
	for _, f := range app.VisibleFlags() {
		global = append(global, f.Names()[0])
	}
	m[""] = global
	return m
}

// The man page is generated from the command definitions: every command
// and flag --help shows is in it, with the exit statuses.
func TestGenerateDocsMan(t *testing.T) {
	r := runCLI(t, "generate-docs", "man").want(t, 0)
	contains(t, r.stdout, ".TH resync-dest 1", "EXIT STATUS", "safety stop", "143", "RESYNC_DEST_VERBOSE", "state.db")
	for cmd, flags := range visible(t) {
		if cmd != "" {
			contains(t, r.stdout, ".SH "+cmd+"\n")
		}
		for _, f := range flags {
			contains(t, r.stdout, `\fB--`+f)
		}
	}
	if strings.Contains(r.stdout, "generate-docs") {
		t.Errorf("the man page lists the hidden generate-docs command")
	}
}

func TestGenerateDocsFish(t *testing.T) {
	r := runCLI(t, "generate-docs", "fish").want(t, 0)
	for cmd, flags := range visible(t) {
		if cmd != "" {
			contains(t, r.stdout, "-a '"+cmd+"'")
		}
		for _, f := range flags {
			contains(t, r.stdout, " -l "+f)
		}
	}
	if fish, err := exec.LookPath("fish"); err != nil {
		t.Log("fish is not installed: the script's completions are not tried")
	} else {
		script := filepath.Join(t.TempDir(), "resync-dest.fish")
		if err := os.WriteFile(script, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(fish, "-c", "source "+script+`; complete -C "resync-dest sync --de"`).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--dest") {
			t.Errorf("fish completes %q (%v)", out, err)
		}
	}
}

func TestGenerateDocsUsage(t *testing.T) {
	runCLI(t, "generate-docs").want(t, exitUsage)
	runCLI(t, "generate-docs", "pdf").want(t, exitUsage)
	if r := runCLI(t, "--help").want(t, 0); strings.Contains(r.stdout, "generate-docs") {
		t.Errorf("--help lists the hidden generate-docs command")
	}
}

// asMain puts an executable named resync-dest on a new PATH directory: this
// test binary, running as resync-dest (TestMain), as the completion scripts
// call it.
func asMain(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wrapper := "#!/bin/sh\nRESYNC_DEST_BE_MAIN=1 GORACE=atexit_sleep_ms=0 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "resync-dest"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// The bash and zsh scripts complete commands and flags by asking the
// binary, offer file names elsewhere, and never run a command: after a
// "--", urfave/cli would run it instead of completing.
func TestCompletionScripts(t *testing.T) {
	path := asMain(t)
	src, srv := served(t, nil) // a command that ran would sync it
	dest := filepath.Join(t.TempDir(), "mirror")
	cases := []struct {
		line string // the words typed; the last one is completed
		want []string
		none bool // no candidate: the shell completes file names
	}{
		{line: "resync-dest sy", want: []string{"sync"}},
		{line: "resync-dest ve", want: []string{"version"}},
		{line: "resync-dest --ve", want: []string{"--verbose", "--version"}},
		{line: "resync-dest sync --de", want: []string{"--dest", "--delete"}},
		{line: "resync-dest sync --", want: []string{"--dest", "--dry-run", "--verbose"}},
		{line: "resync-dest sync --dest " + dest + " " + srv.URL + " --", want: []string{"--delete"}},
		{line: "resync-dest sync --dest " + dest + " ", none: true},
		{line: "resync-dest sync --dest " + dest + " " + srv.URL + " ", none: true},
		{line: "resync-dest sync --dest " + dest + " -- ", none: true},
		{line: "resync-dest sync --dest " + dest + " -- " + srv.URL, none: true},
		{line: "resync-dest status --dest " + dest + " -- --", none: true},
	}
	for _, shell := range []string{"bash", "zsh"} {
		t.Run(shell, func(t *testing.T) {
			sh, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed", shell)
			}
			script := runCLI(t, "generate-docs", shell).want(t, 0).stdout
			file := filepath.Join(t.TempDir(), "completion")
			if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, tc := range cases {
				got := complete(t, sh, shell, file, path, tc.line)
				if tc.none && len(got) != 0 {
					t.Errorf("%q: %q, want no candidate", tc.line, got)
				}
				for _, w := range tc.want {
					if !slices.Contains(got, w) {
						t.Errorf("%q: %q, want %s among them", tc.line, got, w)
					}
				}
			}
			if _, err := os.Stat(dest); !os.IsNotExist(err) {
				t.Errorf("completing ran a command: %s exists (%v)", dest, err)
			}
			if n := src.Requests("/.well-known/resourcesync") + src.Requests("/"); n != 0 {
				t.Errorf("completing ran a command: the Source got %d requests", n)
			}
		})
	}
}

// complete runs a shell's completer for line and returns its candidates.
func complete(t *testing.T, sh, shell, file, path, line string) []string {
	t.Helper()
	var prog string
	switch shell {
	case "bash":
		prog = `source "$1"; read -ra COMP_WORDS <<<"$2"; [[ "$2" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _resync_dest_complete; printf '%s\n' "${COMPREPLY[@]}"`
	case "zsh":
		// Outside the completion system: _describe and _files stand in.
		prog = `compdef() { :; }; _describe() { print -l -- "${(@P)2}"; }; _files() { :; }
source "$1"; words=(${(z)2}); [[ "$2" == *" " ]] && words+=(""); CURRENT=${#words}; _resync_dest`
	}
	cmd := exec.Command(sh, "-c", prog, shell, file, line)
	cmd.Env = append(os.Environ(), "PATH="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s completing %q: %v\n%s", shell, line, err, out)
	}
	var got []string
	for _, w := range strings.Split(string(out), "\n") {
		w, _, _ = strings.Cut(w, ":") // zsh's name:description
		if w = strings.TrimSpace(w); w != "" {
			got = append(got, w)
		}
	}
	return got
}
