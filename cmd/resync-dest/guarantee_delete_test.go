package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Items 8 and 12 at the command line: deleting is deliberate - never on an
// incomplete view of the Source - and a dry run writes nothing at all.

// deleteAtSource deletes the first n resources of set 0 at the Source.
func deleteAtSource(t *testing.T, src *fixtures.Source, n int) {
	t.Helper()
	var muts []fixtures.Mutation
	for _, r := range src.Resources(0)[:n] {
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
	}
	if err := src.Apply(src.At().Add(time.Hour), muts...); err != nil {
		t.Fatal(err)
	}
}

const emptyURLSet = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcelist" at="2030-01-01T00:00:00Z"/></urlset>`

// Item 8: with --delete, a list that could not be read whole - an index
// part failing (503 storm, 404, malformed) - deletes nothing, whatever
// --max-delete allows, and records no baseline point; an empty <urlset>
// trips the deletion guard (exit 7) and deletes nothing either.
func TestGuaranteeIncompleteViewDeletesNothing(t *testing.T) {
	t.Parallel()
	storm := make([]int, 100)
	for i := range storm {
		storm[i] = 503
	}
	for _, tc := range []struct {
		name  string
		spoil func(src *fixtures.Source)
		args  []string
		code  int
	}{
		{"index part answering 503", func(src *fixtures.Source) {
			src.SetFault("/dataset1/resourcelist-3.xml", fixtures.Fault{Status: storm})
		}, []string{"--max-delete", "100%"}, exitUnavailable},
		{"index part answering 404", func(src *fixtures.Source) {
			src.SetNotFound("/dataset1/resourcelist-3.xml")
		}, []string{"--max-delete", "100%"}, exitFatal},
		{"malformed index part", func(src *fixtures.Source) {
			src.SetRaw("/dataset1/resourcelist-2.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>x</loc>`))
		}, []string{"--max-delete", "100%"}, exitFatal},
		{"empty urlset", func(src *fixtures.Source) {
			src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(emptyURLSet))
		}, nil, exitSafetyStop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, srv := served(t, func(s *fixtures.Spec) { s.ListMax = 10 })
			dest := t.TempDir()
			runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
			deleteAtSource(t, src, 3)
			stray := filepath.Join(dest, filepath.FromSlash(relPath(t, src.Resources(0)[5].URI))+".stray")
			if err := os.WriteFile(stray, []byte("not from the Source"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := filesOnly(fixtures.TreeSnapshot(t, dest, true))
			stateBefore := readState(t, dest, src.CapabilityListURL(0))
			tc.spoil(src)
			r := runCLI(t, args([]string{"baseline", "--dest", dest, "--delete"}, append(tc.args, srv.URL)...)...).want(t, tc.code)
			if tc.code == exitSafetyStop {
				contains(t, r.stdout+r.stderr, "max-delete", "nothing was deleted")
			}
			sameSnapshot(t, "the mirror after an incomplete view", before, filesOnly(fixtures.TreeSnapshot(t, dest, true)))
			after := readState(t, dest, src.CapabilityListURL(0))
			if !after.set.BaselineAt.Equal(stateBefore.set.BaselineAt) {
				t.Errorf("the baseline point moved from %v to %v", stateBefore.set.BaselineAt, after.set.BaselineAt)
			}
			if len(after.held) != len(stateBefore.held) {
				t.Errorf("%d records held after, %d before: records were dropped", len(after.held), len(stateBefore.held))
			}
		})
	}
}

// Item 12: --dry-run is side-effect free. Against a mirror with work to do
// (resources created, updated and deleted at the Source, a stray local
// file, a damaged local file for --checksum), a dry run with --delete
// leaves every file, directory, mtime and the state database (and its WAL
// and shared-memory files, and the lock) exactly as they were - and it
// does say what it would do.
func TestGuaranteeDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	rs := src.Resources(0)
	at := src.At().Add(time.Hour)
	if err := src.Apply(at,
		fixtures.Mutation{Kind: fixtures.Update, Path: rs[1].Path},
		fixtures.Mutation{Kind: fixtures.Delete, Path: rs[2].Path},
		fixtures.Mutation{Kind: fixtures.Create, Path: "/dataset1/res/new/dry.txt"},
	); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dest, filepath.FromSlash(relPath(t, rs[3].URI))), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := fixtures.TreeSnapshot(t, dest, false)
	for _, extra := range [][]string{nil, {"--delete", "--max-delete", "100%"}, {"--checksum"}, {"--json"}} {
		r := runCLI(t, args([]string{"baseline", "--dest", dest, "--dry-run"}, append(extra, srv.URL)...)...)
		if r.code != exitOK {
			t.Fatalf("dry run %v: exit %d\n%s%s", extra, r.code, r.stdout, r.stderr)
		}
		if len(extra) > 0 && extra[0] == "--delete" {
			contains(t, r.stdout, "create ", "delete ")
		}
		sameSnapshot(t, "the mirror and its state after a dry run", before, fixtures.TreeSnapshot(t, dest, false))
	}
}
