package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
)

// statusDoc is the --json document of status.
type statusDoc struct {
	State string `json:"state"`
	Sets  []struct {
		CapabilityList string `json:"capability_list"`
		Source         string `json:"source"`
		BaselineAt     string `json:"baseline_list_at"`
		Cursor         string `json:"cursor"`
		Held           int64  `json:"held"`
		Failures       []struct {
			URI      string `json:"uri"`
			Cause    string `json:"cause"`
			Attempts int64  `json:"attempts"`
		} `json:"failures"`
	} `json:"sets"`
	Runs []struct {
		Kind     string           `json:"kind"`
		Sets     []string         `json:"sets"`
		Status   string           `json:"status"`
		ExitCode int              `json:"exit_code"`
		Counts   map[string]int64 `json:"counts"`
		Started  string           `json:"started"`
		Ended    string           `json:"ended"`
	} `json:"runs"`
}

func TestStatusCommand(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	gone := src.Resources(0)[5]
	src.SetNotFound(gone.Path)
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitPartial)
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitPartial)

	before := fixtures.TreeSnapshot(t, dest, false)
	r := runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout,
		filepath.Join(dest, ".resync-dest", "state.db"),
		"set "+src.CapabilityListURL(0),
		"source    "+src.SourceDescriptionURL(),
		"as of 2024-01-01T00:00:00Z (from the Resource List)",
		"cursor    2024-01-01T00:00:00Z (the first change not yet processed)",
		"held      39 resources",
		"failures  1 waiting to be retried",
		"! "+gone.URI+": ",
		"(2 attempts, last ",
		"#2 baseline  ", "partial (exit 3)",
		"40 listed: 0 created, 0 updated, 39 unchanged",
		"#1 baseline",
	)
	if strings.Index(r.stdout, "#2 baseline") > strings.Index(r.stdout, "#1 baseline") {
		t.Errorf("runs are not newest first:\n%s", r.stdout)
	}

	r = runCLI(t, "status", "--dest", dest, "--json", "--runs", "1").want(t, 0)
	var doc statusDoc
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if len(doc.Sets) != 1 || len(doc.Runs) != 1 {
		t.Fatalf("%+v", doc)
	}
	s, run := doc.Sets[0], doc.Runs[0]
	if s.CapabilityList != src.CapabilityListURL(0) || s.Source != src.SourceDescriptionURL() || s.Held != 39 ||
		s.BaselineAt != "2024-01-01T00:00:00Z" || s.Cursor != "2024-01-01T00:00:00Z" ||
		len(s.Failures) != 1 || s.Failures[0].URI != gone.URI || s.Failures[0].Attempts != 2 || s.Failures[0].Cause == "" {
		t.Errorf("set: %+v", s)
	}
	if run.Kind != "baseline" || run.Status != "partial" || run.ExitCode != exitPartial || run.Counts["failed"] != 1 ||
		run.Started == "" || run.Ended == "" {
		t.Errorf("run: %+v", run)
	}
	if after := fixtures.TreeSnapshot(t, dest, false); after != before {
		t.Errorf("status wrote:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// status reads while a sync holds the mirror's lock, and says so plainly
// when there is nothing to read.
func TestStatusLockedAndEmpty(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	holdLock(t, dest)
	r := runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout, "held      40 resources", "failures  none", "ok (exit 0)")

	empty := t.TempDir()
	r = runCLI(t, "status", "--dest", empty).want(t, exitFatal)
	contains(t, r.stderr, "no state at", "nothing was synced")
	runCLI(t, "status").want(t, exitUsage)
	runCLI(t, "status", "--dest", empty, "extra-arg").want(t, exitUsage)
}
