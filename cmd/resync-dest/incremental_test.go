package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// incTree describes every entry under dir, the state's files included,
// with mode, mtime and content: equal trees mean nothing was written.
func incTree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := p + " " + info.Mode().String() + " " + info.ModTime().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// incAssertIsSource checks that dest holds exactly the live resources of
// set 0, byte for byte, plus the files of keep (URIs kept locally).
func incAssertIsSource(t *testing.T, src *fixtures.Source, dest string, keep ...string) {
	t.Helper()
	m, _ := mirror.NewMapper(nil)
	got := fixtures.MirrorFiles(t, dest)
	for _, u := range keep {
		rel, _ := m.Path(u)
		delete(got, rel)
	}
	for _, r := range src.Resources(0) {
		want, _ := src.Content(r.URI)
		rel, _ := m.Path(r.URI)
		if !bytes.Equal(got[rel], want) {
			t.Errorf("%s: the mirror has %d bytes, the Source %d (or other bytes)", r.URI, len(got[rel]), len(want))
		}
		delete(got, rel)
	}
	for rel := range got {
		t.Errorf("extra file in the mirror: %s", rel)
	}
}

// incSummary is the part of the --json summary the tests read.
type incSummary struct {
	Command  string         `json:"-"` // the envelope's
	ExitCode int            `json:"-"`
	Counts   map[string]int `json:"counts"`
	Sets     []struct {
		Baseline    *struct{ Created int } `json:"baseline"`
		Incremental *struct {
			Applied     int       `json:"applied"`
			AlreadyDone int       `json:"already_done"`
			Changes     int       `json:"changes"`
			Deleted     int       `json:"deleted"`
			WouldDelete int       `json:"would_delete"`
			Cursor      time.Time `json:"cursor"`
		} `json:"incremental"`
	} `json:"sets"`
}

func incJSON(t *testing.T, r result) incSummary {
	t.Helper()
	var s incSummary
	if err := resultOf(r.stdout, &s); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	var e struct {
		Command  string `json:"command"`
		ExitCode int    `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil {
		t.Fatal(err)
	}
	s.Command, s.ExitCode = e.Command, e.ExitCode
	return s
}

func TestIncrementalCommand(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.ChangeListMax = 5 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if err := src.AdvanceRandom(12, time.Second); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, args([]string{"incremental", "--dest", dest, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "incremental of", "12 read (0 applied before), 12 applied, 0 failed", "cursor "+resourcesync.FormatDatetime(src.At()))
	incAssertIsSource(t, src, dest)

	src.ResetCounts()
	r = runCLI(t, args([]string{"incremental", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
	s := incJSON(t, r)
	if s.Command != "incremental" || s.ExitCode != 0 || len(s.Sets) != 1 || s.Sets[0].Incremental == nil ||
		s.Sets[0].Incremental.Applied != 0 || s.Sets[0].Incremental.AlreadyDone != s.Sets[0].Incremental.Changes {
		t.Errorf("%+v", s)
	}
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("an unchanged Source had %d bodies fetched", n)
	}
}

func TestIncrementalUsage(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	src.ResetCounts()
	r := runCLI(t, args([]string{"incremental", "--dest", dest}, srv.URL)...).want(t, exitUsage)
	contains(t, r.stderr, "never synced", "baseline", "--from")
	if len(fixtures.MirrorFiles(t, dest)) != 0 {
		t.Errorf("a refused run wrote files")
	}
	if _, err := os.Stat(filepath.Join(dest, ".resync-dest")); !os.IsNotExist(err) {
		t.Errorf("a refused run made .resync-dest (%v)", err)
	}
	if r.stdout != "" || src.TotalRequests() != 0 {
		t.Errorf("a refused run printed %q and made %d requests", r.stdout, src.TotalRequests())
	}
	runCLI(t, args([]string{"incremental", "--dest", dest, "--from", "yesterday"}, srv.URL)...).want(t, exitUsage)
	runCLI(t, args([]string{"incremental", "--dest", dest, "--checksum"}, srv.URL)...).want(t, exitUsage)
	r = runCLI(t, "incremental", "--help").want(t, 0)
	contains(t, r.stdout, "--from", "--rebaseline-on-gap", "--delete", "EXIT STATUS")

	// --from gives the starting point: the changes since are applied.
	if err := src.AdvanceRandom(5, time.Second); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args([]string{"incremental", "--dest", dest, "--json", "--from", "2024-01-01T00:00:00Z"}, srv.URL)...).want(t, 0)
	if s := incJSON(t, r); s.Sets[0].Incremental.Applied != 5 {
		t.Errorf("%+v", s)
	}
	// The cursor it recorded is the starting point of the next run.
	runCLI(t, args([]string{"incremental", "--dest", dest}, srv.URL)...).want(t, 0)
}

func TestIncrementalExitCodes(t *testing.T) {
	t.Parallel()
	t.Run("partial", func(t *testing.T) {
		src, srv := served(t, nil)
		dest := t.TempDir()
		runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		r0 := src.Resources(0)[0]
		if err := src.Apply(src.At().Add(time.Second), fixtures.Mutation{Kind: fixtures.Update, Path: r0.Path}); err != nil {
			t.Fatal(err)
		}
		src.SetNotFound(r0.Path)
		r := runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, exitPartial)
		contains(t, r.stdout, "1 failed", r0.URI)
		src.ClearRaw(r0.Path)
		runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		incAssertIsSource(t, src, dest)
	})
	t.Run("deletion guard", func(t *testing.T) {
		src, srv := served(t, nil)
		dest := t.TempDir()
		runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		var muts []fixtures.Mutation
		for _, r := range src.Resources(0)[:5] { // 12.5% of 40
			muts = append(muts, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
		}
		if err := src.Apply(src.At().Add(time.Second), muts...); err != nil {
			t.Fatal(err)
		}
		before := fixtures.MirrorFiles(t, dest)
		r := runCLI(t, args([]string{"sync", "--dest", dest, "--delete"}, srv.URL)...).want(t, exitSafetyStop)
		contains(t, r.stdout+r.stderr, "max-delete", "nothing was changed")
		if after := fixtures.MirrorFiles(t, dest); len(after) != len(before) {
			t.Fatalf("%d files before the guard tripped, %d after", len(before), len(after))
		}
		r = runCLI(t, args([]string{"sync", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
		if s := incJSON(t, r); s.Sets[0].Incremental.WouldDelete != 5 {
			t.Errorf("without --delete: %+v", s.Sets[0].Incremental)
		}
	})
	t.Run("gap", func(t *testing.T) {
		src, srv := served(t, func(s *fixtures.Spec) { s.ChangeListMax = 5 })
		dest := t.TempDir()
		runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
		start := src.At()
		if err := src.AdvanceRandom(15, time.Second); err != nil {
			t.Fatal(err)
		}
		src.TrimHistory(start.Add(7 * time.Second))
		before := incTree(t, filepath.Join(dest, "127.0.0.1"+strings.TrimPrefix(strings.TrimSuffix(srv.URL, "/"), "http://127.0.0.1")))
		r := runCLI(t, args([]string{"sync", "--dest", dest, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, exitSafetyStop)
		contains(t, r.stdout+r.stderr, "new baseline is needed", "--rebaseline-on-gap")
		after := incTree(t, filepath.Join(dest, "127.0.0.1"+strings.TrimPrefix(strings.TrimSuffix(srv.URL, "/"), "http://127.0.0.1")))
		if before != after {
			t.Fatal("a run that found a gap changed the mirror")
		}
		r = runCLI(t, args([]string{"incremental", "--dest", dest, "--rebaseline-on-gap", "--delete", "--max-delete", "100%", "--json"}, srv.URL)...).want(t, 0)
		s := incJSON(t, r)
		if s.Sets[0].Baseline == nil {
			t.Errorf("--rebaseline-on-gap made no baseline: %s", r.stdout)
		}
		// The summary names the cursor the new baseline recorded, as status
		// does, not the one the gap left behind.
		var st statusReport
		if err := resultOf(runCLI(t, "status", "--dest", dest, "--json").want(t, 0).stdout, &st); err != nil {
			t.Fatal(err)
		}
		if got, want := s.Sets[0].Incremental.Cursor, st.Sets[0].Cursor; !got.Equal(want) || !got.After(start) {
			t.Errorf("after --rebaseline-on-gap the summary's cursor is %s, status says %s (the gap's was %s)", got, want, start)
		}
		incAssertIsSource(t, src, dest)
		runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	})
}

func TestSyncCommand(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	// Never synced: a baseline, then the changes since its list (none).
	r := runCLI(t, args([]string{"sync", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
	s := incJSON(t, r)
	if s.Command != "sync" || s.Sets[0].Baseline == nil || s.Sets[0].Baseline.Created != 40 ||
		s.Sets[0].Incremental == nil || s.Sets[0].Incremental.Changes != 0 {
		t.Fatalf("first sync: %s", r.stdout)
	}
	// Then incremental.
	if err := src.AdvanceRandom(6, time.Second); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "sync of", "6 applied")
	incAssertIsSource(t, src, dest)
	// --checksum repairs local damage, which no change reveals.
	m, _ := mirror.NewMapper(nil)
	rel, _ := m.Path(src.Resources(0)[3].URI)
	p := filepath.Join(dest, filepath.FromSlash(rel))
	b, _ := os.ReadFile(p)
	b[0] ^= 1
	os.WriteFile(p, b, 0o644)
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	r = runCLI(t, args([]string{"sync", "--dest", dest, "--checksum", "--json"}, srv.URL)...).want(t, 0)
	if s := incJSON(t, r); s.Counts["updated"] != 1 {
		t.Errorf("--checksum: %s", r.stdout)
	}
	incAssertIsSource(t, src, dest)
	// Runs are recorded by kind.
	o := state.DefaultOptions()
	o.Path, o.ReadOnly = filepath.Join(dest, ".resync-dest", "state.db"), true
	db, err := state.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _ := db.Runs(context.Background(), 10)
	if len(runs) != 4 || runs[0].Kind != "sync" || runs[0].Status != "ok" {
		t.Errorf("runs %+v", runs)
	}
}

func TestSyncDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.ChangeListMax = 5 })
	dest := t.TempDir()
	runCLI(t, args([]string{"sync", "--dest", dest}, srv.URL)...).want(t, 0)
	if err := src.AdvanceRandom(12, time.Second); err != nil {
		t.Fatal(err)
	}
	before := incTree(t, dest)
	r := runCLI(t, args([]string{"sync", "--dest", dest, "--dry-run", "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "dry run: nothing was written", "12 to apply")
	if !strings.Contains(r.stdout, "update ") && !strings.Contains(r.stdout, "create ") {
		t.Errorf("no plan lines:\n%s", r.stdout)
	}
	if after := incTree(t, dest); after != before {
		t.Fatal("a dry run changed the mirror or the state")
	}
	// A dry run of a mirror never synced plans a baseline and creates nothing.
	fresh := filepath.Join(t.TempDir(), "new")
	r = runCLI(t, args([]string{"sync", "--dest", fresh, "--dry-run"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "create ")
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Fatalf("a dry run created %s", fresh)
	}
}
