package main

import (
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// baselineJSON runs baseline --json and returns its one set's summary.
func baselineJSON(t *testing.T, code int, a ...string) (via string, packages, skipped, created, unchanged int64) {
	t.Helper()
	r := runCLI(t, args(append([]string{"baseline", "--json"}, a[:len(a)-1]...), a[len(a)-1])...).want(t, code)
	var rep struct {
		Sets []struct {
			Baseline struct {
				Via             string `json:"via"`
				Packages        int64  `json:"packages"`
				PackagesSkipped int64  `json:"packages_skipped"`
				Created         int64  `json:"created"`
				Unchanged       int64  `json:"unchanged"`
			} `json:"baseline"`
		} `json:"sets"`
	}
	if err := resultOf(r.stdout, &rep); err != nil || len(rep.Sets) != 1 {
		t.Fatalf("summary: %v\n%s", err, r.stdout)
	}
	b := rep.Sets[0].Baseline
	return b.Via, b.Packages, b.PackagesSkipped, b.Created, b.Unchanged
}

func TestBaselineViaAutoUsesTheDumpForAnEmptyMirror(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.DumpPackages = 2 })
	dest := t.TempDir()
	via, packages, _, created, _ := baselineJSON(t, 0, "--dest", dest, srv.URL)
	if via != "dump" || packages != 2 || created != 40 {
		t.Fatalf("empty mirror: via %s, %d packages, %d created", via, packages, created)
	}
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("%d resources fetched one by one", n)
	}
	// The mirror holds the set now: auto takes the list, which skips what
	// is held without downloading it.
	via, _, _, _, unchanged := baselineJSON(t, 0, "--dest", dest, srv.URL)
	if via != "list" || unchanged != 40 {
		t.Errorf("second run: via %s, %d unchanged", via, unchanged)
	}
	via, packages, skipped, _, unchanged := baselineJSON(t, 0, "--dest", dest, "--via", "dump", srv.URL)
	if via != "dump" || packages != 0 || skipped != 2 || unchanged != 40 {
		t.Errorf("--via dump on a full mirror: via %s, %d packages, %d skipped, %d unchanged", via, packages, skipped, unchanged)
	}
	src.ResetCounts()
	via, _, _, created, _ = baselineJSON(t, 0, "--dest", t.TempDir(), "--via", "list", srv.URL)
	if via != "list" || created != 40 || src.ResourceBodies() != 40 {
		t.Errorf("--via list: via %s, %d created, %d fetched", via, created, src.ResourceBodies())
	}
}

func TestBaselineViaWithoutADump(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	if via, _, _, created, _ := baselineJSON(t, 0, "--dest", t.TempDir(), srv.URL); via != "list" || created != 40 {
		t.Errorf("auto without a dump: via %s, %d created", via, created)
	}
	r := runCLI(t, args([]string{"baseline", "--dest", t.TempDir(), "--via", "dump"}, srv.URL)...).want(t, exitFatal)
	contains(t, r.stderr+r.stdout, "offers no Resource Dump")
}

func TestBaselineDumpFlagErrors(t *testing.T) {
	t.Parallel()
	for _, a := range [][]string{
		{"--via", "zip"},
		{"--max-dump-size", "lots"},
		{"--max-dump-size", "0"},
		{"--max-dump-size", "5PB"},
	} {
		if r := runCLI(t, append(append([]string{"baseline", "--dest", t.TempDir()}, a...), "http://127.0.0.1:1/")...); r.code != exitUsage {
			t.Errorf("%q: exit %d, want %d\n%s", a, r.code, exitUsage, r.stderr)
		}
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"10GiB", 10 << 30, true},
		{"10G", 10 << 30, true},
		{"10gb", 10_000_000_000, true},
		{"1.5MiB", 3 << 19, true},
		{"500MB", 500_000_000, true},
		{"4096", 4096, true},
		{"4096B", 4096, true},
		{" 2 KiB ", 2048, true},
		{"", 0, false},
		{"GiB", 0, false},
		{"-1", 0, false},
		{"1XB", 0, false},
		{"9999999TiB", 0, false},
	} {
		got, err := parseSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// incremental --via dump applies the changes out of the Change Dump's
// packages; auto takes the Change List when there is one, the Change Dump
// when it is all the Source offers.
func TestIncrementalViaChangeDump(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		noList bool
		via    []string
	}{
		{"--via dump", false, []string{"--via", "dump"}},
		{"auto without a Change List", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, srv := served(t, func(s *fixtures.Spec) { s.ChangeDump, s.NoChangeList, s.ChangeListMax = true, tc.noList, 5 })
			dest := t.TempDir()
			runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
			if err := src.AdvanceRandom(12, time.Second); err != nil {
				t.Fatal(err)
			}
			src.ResetCounts()
			flags := append([]string{"incremental", "--dest", dest, "--delete", "--max-delete", "100%"}, tc.via...)
			r := runCLI(t, args(flags, srv.URL)...).want(t, 0)
			contains(t, r.stdout, "12 read (0 applied before), 12 applied, 0 failed", "Change Dump packages read")
			if n := src.ResourceBodies(); n != 0 {
				t.Errorf("%d resources fetched one by one", n)
			}
			incAssertIsSource(t, src, dest)
			assertNoTempFiles(t, dest)
		})
	}
	_, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	r := runCLI(t, args([]string{"incremental", "--dest", dest, "--via", "dump"}, srv.URL)...).want(t, exitFatal)
	contains(t, r.stderr+r.stdout, "offers no Change Dump")
}
