package main

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// infoRecords are the JSON log records at info level whose message
// contains msg.
func infoRecords(t *testing.T, stderr, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, rec := range jsonLines(t, stderr) {
		if m, _ := rec["message"].(string); rec["level"] == "info" && strings.Contains(m, msg) {
			out = append(out, rec)
		}
	}
	return out
}

// Deletions are one line per set at info level (with the count), one per
// file at debug level only: 3 deletions kept, then applied, log one line
// each time.
func TestDeletionsSummarisedInTheLog(t *testing.T) {
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	var muts []fixtures.Mutation
	for _, r := range src.Resources(0)[:3] {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
	}
	if err := src.Apply(src.At().Add(time.Minute), muts...); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, args([]string{"sync", "--log-format", "json", "--dest", dest}, srv.URL)...).want(t, 0)
	kept := infoRecords(t, r.stderr, "kept locally")
	if len(kept) != 1 || kept[0]["kept"] != float64(3) || !strings.Contains(kept[0]["message"].(string), "3 files") {
		t.Errorf("kept deletions at info: %v\n%s", kept, r.stderr)
	}
	contains(t, r.stdout, "3 resources deleted at the Source were kept locally")

	r = runCLI(t, args([]string{"baseline", "--log-format", "json", "--log-level", "debug", "--delete", "--max-delete", "100%", "--dest", dest}, srv.URL)...).want(t, 0)
	deleted := infoRecords(t, r.stderr, "deleted")
	if len(deleted) != 1 || deleted[0]["deleted"] != float64(3) {
		t.Errorf("deletions at info: %v\n%s", deleted, r.stderr)
	}
	var perFile int
	for _, rec := range jsonLines(t, r.stderr) {
		if rec["message"] == "deleted" && rec["level"] == "debug" && rec["path"] != nil {
			perFile++
		}
	}
	if perFile != 3 {
		t.Errorf("%d per-file deletion lines at debug, want 3", perFile)
	}
}

// A failed resource's cause names its URL once, and counts read right in
// the singular.
func TestMessagesSayItOnce(t *testing.T) {
	src, srv := served(t, nil)
	gone := src.Resources(0)[5]
	u, _ := url.Parse(gone.URI)
	src.SetFault(u.Path, fixtures.Fault{Status: slices.Repeat([]int{404}, 20)})
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--json", "--dest", dest}, srv.URL)...).want(t, exitPartial)
	var rep struct {
		Sets []struct {
			Baseline struct {
				Failures []struct {
					URI   string `json:"uri"`
					Cause string `json:"cause"`
				} `json:"failures"`
			} `json:"baseline"`
		} `json:"sets"`
	}
	if err := resultOf(r.stdout, &rep); err != nil || len(rep.Sets) != 1 || len(rep.Sets[0].Baseline.Failures) != 1 {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	f := rep.Sets[0].Baseline.Failures[0]
	if f.URI != gone.URI || strings.Count(f.Cause, gone.URI) != 1 || !strings.Contains(f.Cause, "404") {
		t.Errorf("the cause should name %s once: %q", gone.URI, f.Cause)
	}
	var env struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || env.Error != "1 resource failed; recorded and retried on the next run" {
		t.Errorf("the envelope's error: %q (%v)", env.Error, err)
	}
	r = runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout, "held      39 resources", "(1 attempt, last ")
	if strings.Contains(r.stdout, "1 attempts") {
		t.Errorf("a plural for one:\n%s", r.stdout)
	}
}
