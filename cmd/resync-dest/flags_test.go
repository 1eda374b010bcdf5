package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// The logging flags work after the command as well as before it, and
// --quiet keeps a run that went well silent on stdout (cron mails only
// when there is output) but not one that failed.
func TestLoggingFlagsAfterTheCommand(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	r := runCLI(t, args([]string{"sync", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("sync --quiet said something:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	r = runCLI(t, args([]string{"sync", "--log-format", "json", "--log-level", "debug", "--dest", dest}, srv.URL)...).want(t, 0)
	first, _, _ := strings.Cut(r.stderr, "\n")
	var line map[string]any
	if err := json.Unmarshal([]byte(first), &line); err != nil || line["level"] == nil {
		t.Errorf("--log-format json after the command: %q (%v)", first, err)
	}
	if !strings.Contains(r.stderr, `"level":"debug"`) {
		t.Errorf("--log-level debug after the command logged no debug line")
	}
	// The global flag still works, and the command's wins over it.
	if r := runCLI(t, args([]string{"--quiet", "sync", "--dest", dest}, srv.URL)...).want(t, 0); r.stdout != "" {
		t.Errorf("global --quiet: %s", r.stdout)
	}
	r = runCLI(t, append([]string{"--log-format", "json"}, args([]string{"sync", "--log-format", "console", "--dest", dest}, srv.URL)...)...).want(t, 0)
	if strings.HasPrefix(strings.TrimSpace(r.stderr), "{") {
		t.Errorf("the command's --log-format lost to the global one:\n%s", r.stderr)
	}
	if r := runCLI(t, "sync", "--log-level", "loud", "--dest", dest, srv.URL); r.code != exitUsage {
		t.Errorf("a bad --log-level after the command: exit %d", r.code)
	}

	// A failing run still speaks under --quiet.
	src.SetFault("/dataset1/res/*", fixtures.Fault{Status: []int{404, 404, 404, 404, 404, 404, 404, 404, 404, 404}})
	if err := src.AdvanceRandom(5, time.Second); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args([]string{"sync", "--quiet", "--dest", dest}, srv.URL)...)
	if r.code != exitPartial || r.stdout == "" {
		t.Errorf("a partial run under --quiet: exit %d, stdout %q", r.code, r.stdout)
	}
}

// --dry-run --json prints one JSON document on stdout: the plan goes to
// stderr.
func TestDryRunJSONIsOneDocument(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	r := runCLI(t, args([]string{"baseline", "--dry-run", "--json", "--dest", t.TempDir()}, srv.URL)...).want(t, 0)
	var doc map[string]any
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
	}
	contains(t, r.stderr, "create ")
}

// --state must not be among the mirror's content, where --delete would
// remove it; its directory is made when it does not exist.
func TestStatePath(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, bad := range []string{
		filepath.Join(dest, host, "dataset1", "state.db"),
		filepath.Join(dest, "state.db"),
		filepath.Join(dest, ".resync-dest"),
		filepath.Join(dest, ".resync-dest", "lock"),
		filepath.Join(dest, ".resync-dest", "tmp", "state.db"),
	} {
		r := runCLI(t, args([]string{"baseline", "--delete", "--dest", dest, "--state", bad}, srv.URL)...).want(t, exitUsage)
		contains(t, r.stderr, "inside the mirror")
	}
	if ents, _ := os.ReadDir(dest); len(ents) != 0 {
		t.Errorf("a refused run wrote into the mirror: %v", ents)
	}
	elsewhere := filepath.Join(t.TempDir(), "new", "dir", "state.db")
	runCLI(t, args([]string{"baseline", "--dest", dest, "--state", elsewhere}, srv.URL)...).want(t, 0)
	if _, err := os.Stat(elsewhere); err != nil {
		t.Errorf("the state was not made: %v", err)
	}
	inside := filepath.Join(dest, ".resync-dest", "other", "state.db")
	runCLI(t, args([]string{"baseline", "--dest", dest, "--state", inside}, srv.URL)...).want(t, 0)
	if err := src.AdvanceRandom(3, time.Second); err != nil {
		t.Fatal(err)
	}
	runCLI(t, args([]string{"sync", "--delete", "--max-delete", "100%", "--dest", dest, "--state", elsewhere}, srv.URL)...).want(t, 0)
	if _, err := os.Stat(inside); err != nil {
		t.Errorf("a state under .resync-dest was deleted: %v", err)
	}
}

// A --capability-list the Source does not have is a usage error, told on
// stderr only.
func TestUnknownCapabilityList(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	for _, verb := range []string{"baseline", "sync", "audit"} {
		r := runCLI(t, args([]string{verb, "--dest", t.TempDir(), "--capability-list", srv.URL + "/nope.xml"}, srv.URL)...)
		if r.code != exitUsage {
			t.Errorf("%s: exit %d, want %d\n%s", verb, r.code, exitUsage, r.stderr)
		}
		if r.stdout != "" { // no empty "sync of " summary
			t.Errorf("%s: a usage error printed to stdout: %q", verb, r.stdout)
		}
	}
}
