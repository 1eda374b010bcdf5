package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (-update rewrites it):\ngot:\n%s\nwant:\n%s", p, got, want)
	}
}

func TestDescribeBuild(t *testing.T) {
	vcs := func(rev, at, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "-compiler", Value: "gc"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified},
		}}
	}
	for _, tc := range []struct {
		name  string
		stamp stamp
		info  *debug.BuildInfo
		want  buildInfo
	}{
		{"a release: everything stamped, no VCS information",
			stamp{"v1.2.3", "0123abc", "2026-11-30T12:00:00Z"}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			buildInfo{Version: "v1.2.3", Revision: "0123abc", Built: "2026-11-30T12:00:00Z"}},
		{"a release built in a checkout: the stamp and the VCS agree",
			stamp{"v1.2.3", "0123abc", "2026-11-30T12:00:00Z"}, vcs("0123abc", "2026-11-29T08:00:00Z", "false"),
			buildInfo{Version: "v1.2.3", Revision: "0123abc", Built: "2026-11-30T12:00:00Z", Committed: "2026-11-29T08:00:00Z"}},
		{"a stamp that names another revision than the VCS: the stamp wins, no commit time",
			stamp{"v1.2.3", "0123abc", ""}, vcs("fedcba9", "2026-11-29T08:00:00Z", "true"),
			buildInfo{Version: "v1.2.3", Revision: "0123abc"}},
		{"go build in a checkout with changes",
			stamp{}, vcs("fedcba9", "2026-11-29T08:00:00Z", "true"),
			buildInfo{Version: "dev", Revision: "fedcba9", Modified: true, Committed: "2026-11-29T08:00:00Z"}},
		{"go install module@version",
			stamp{}, &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}},
			buildInfo{Version: "v1.4.0"}},
		{"no build information at all",
			stamp{}, nil,
			buildInfo{Version: "dev"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.want.GoVersion, tc.want.Platform = "go1.99", "plan9/mips"
			if got := describeBuild(tc.stamp, tc.info, "go1.99", "plan9/mips"); got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// The output's shape, for a person and for grep: golden files.
func TestVersionOutputGolden(t *testing.T) {
	for name, b := range map[string]buildInfo{
		"version-release.golden": {Version: "v1.2.3", Revision: "0123456789abcdef0123456789abcdef01234567", Built: "2026-11-30T12:00:00Z",
			Committed: "2026-11-29T08:00:00Z", GoVersion: "go1.26.8", Platform: "linux/arm64"},
		"version-dev.golden": {Version: "dev", Revision: "0123456789abcdef0123456789abcdef01234567", Modified: true,
			GoVersion: "go1.26.8", Platform: "linux/amd64"},
		"version-unknown.golden": {Version: "dev", GoVersion: "go1.26.8", Platform: "linux/amd64"},
	} {
		var buf bytes.Buffer
		if err := b.write(&buf); err != nil {
			t.Fatal(err)
		}
		golden(t, name, buf.String())
	}
}

// versionShape is what every build prints, stamped or not.
var versionShape = regexp.MustCompile(`^resync-dest \S+\nrevision: \S+( \(modified\))?\nbuilt: \S+\n(committed: \S+\n)?go: go\S+\nplatform: \S+/\S+\n$`)

// `version` and `--version` print the same, exit 0, and --version stops
// there: a command after it does not run.
func TestVersionCommandAndFlag(t *testing.T) {
	r := runCLI(t, "version").want(t, 0)
	if !versionShape.MatchString(r.stdout) {
		t.Errorf("version printed:\n%s", r.stdout)
	}
	want := "\ngo: " + runtime.Version() + "\nplatform: " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if !strings.HasSuffix(r.stdout, want) {
		t.Errorf("version printed:\n%s\nwant it to end with:%s", r.stdout, want)
	}
	if r.stderr != "" {
		t.Errorf("version wrote to stderr: %s", r.stderr)
	}
	if f := runCLI(t, "--version").want(t, 0); f.stdout != r.stdout {
		t.Errorf("--version printed:\n%s\nversion printed:\n%s", f.stdout, r.stdout)
	}
	dest := filepath.Join(t.TempDir(), "mirror")
	if f := runCLI(t, "--version", "sync", "--dest", dest, "http://127.0.0.1:1/").want(t, 0); f.stdout != r.stdout {
		t.Errorf("--version before a command printed:\n%s", f.stdout)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("--version ran the command after it (%v)", err)
	}
	runCLI(t, "version", "extra").want(t, exitUsage)
}

// -v and --verbose are verbose, before or after the command, and the run
// really happens: `resync-dest -v sync ...` in a crontab syncs.
func TestVerboseSyncs(t *testing.T) {
	for _, tc := range []struct {
		name string
		argv func(dest, url string) []string
		env  string
	}{
		{"-v before the command", func(dest, url string) []string { return args([]string{"-v", "sync", "--dest", dest}, url) }, ""},
		{"--verbose after the command", func(dest, url string) []string { return args([]string{"sync", "--verbose", "--dest", dest}, url) }, ""},
		{"-v among the command's flags", func(dest, url string) []string { return args([]string{"sync", "--dest", dest, "-v"}, url) }, ""},
		{"RESYNC_DEST_VERBOSE", func(dest, url string) []string { return args([]string{"sync", "--dest", dest}, url) }, "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("RESYNC_DEST_VERBOSE", tc.env)
			}
			src, srv := served(t, nil)
			dest := t.TempDir()
			r := runCLI(t, tc.argv(dest, srv.URL)...).want(t, 0)
			contains(t, r.stdout, "40 created")
			contains(t, r.stderr, " DBG ")
			assertMirrorIsSource(t, src, dest)
		})
	}
	t.Run("without -v, no debug lines", func(t *testing.T) {
		_, srv := served(t, nil)
		r := runCLI(t, args([]string{"sync", "--dest", t.TempDir()}, srv.URL)...).want(t, 0)
		if strings.Contains(r.stderr, " DBG ") {
			t.Errorf("debug lines without -v:\n%s", r.stderr)
		}
	})
	t.Run("--quiet and --verbose together", func(t *testing.T) {
		dest := filepath.Join(t.TempDir(), "mirror")
		r := runCLI(t, "-q", "sync", "-v", "--dest", dest, "http://127.0.0.1:1/").want(t, exitUsage)
		contains(t, r.stderr, "--quiet and --verbose")
		if _, err := os.Stat(dest); !os.IsNotExist(err) {
			t.Errorf("a usage error created the mirror (%v)", err)
		}
	})
}
