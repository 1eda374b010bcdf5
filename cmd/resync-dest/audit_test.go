package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/state"
)

// auditArgs is args for audit, which has no --progress.
func auditArgs(base []string, more ...string) []string {
	return append(append(append([]string{}, base...), "--max-retry-wait", "5ms"), more...)
}

// auditRel is the mirror path of a URI under the default mapping.
func auditRel(t *testing.T, uri string) string {
	t.Helper()
	m, err := mirror.NewMapper(nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Path(uri)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// auditRuns is how many runs the state of dest records.
func auditRuns(t *testing.T, dest string) int {
	t.Helper()
	so := state.DefaultOptions()
	so.Path, so.ReadOnly = filepath.Join(dest, ".resync-dest", "state.db"), true
	db, err := state.Open(context.Background(), so)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, err := db.Runs(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(runs)
}

// auditDoc is the --json document.
type auditDoc struct {
	InSync  bool              `json:"in_sync"`
	Source  string            `json:"source"`
	Sets    []json.RawMessage `json:"sets"`
	Counts  map[string]int64  `json:"counts"`
	Missing []struct{ URI, Path string }
	Extra   []struct{ URI, Path string }
	Changed []struct {
		URI, Path, Reason, Expected, Actual string
	}
	Errors []json.RawMessage `json:"errors"`
}

// The whole story: a clean mirror audits clean; one with every kind of
// difference is reported (text, --fast, --json, --html) without a byte of
// the mirror or the state changing; the repair the report prints makes
// the audit clean again.
func TestAuditCommand(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	r := runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "40 listed: 40 in sync", "In sync")

	rs := src.Resources(0)
	file := func(i int) string { return filepath.Join(dest, auditRel(t, rs[i].URI)) }
	os.Remove(file(0)) // missing
	f, _ := os.OpenFile(file(1), os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("x")) // changed length
	f.Close()
	info, _ := os.Stat(file(2)) // changed content, same size and mtime
	b, _ := os.ReadFile(file(2))
	b[7] ^= 0x20
	os.WriteFile(file(2), b, 0o644)
	os.Chtimes(file(2), info.ModTime(), info.ModTime())
	stray := path.Join(path.Dir(auditRel(t, rs[3].URI)), "notes.txt") // extra, never written by resync-dest
	os.WriteFile(filepath.Join(dest, stray), []byte("mine"), 0o644)
	if err := src.Apply(src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Delete, Path: rs[4].Path}); err != nil {
		t.Fatal(err) // extra: the Source deleted it
	}

	before, runs := fixtures.TreeSnapshot(t, dest, false), auditRuns(t, dest)
	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout,
		"- "+auditRel(t, rs[0].URI)+"\n",
		"* "+auditRel(t, rs[1].URI)+": length differs",
		"* "+auditRel(t, rs[2].URI)+": md5 differs",
		"+ "+stray+"\n",
		"+ "+auditRel(t, rs[4].URI)+"\n",
		"5 differences: 1 missing, 2 extra, 2 changed.",
	)
	repair := ""
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "  resync-dest baseline --checksum --delete") {
			repair = strings.TrimSpace(line)
		}
	}
	if want := "resync-dest baseline --checksum --delete --dest " + dest + " --max-delete 2 " + srv.URL; repair != want {
		t.Errorf("repair advice %q, want %q\n%s", repair, want, r.stdout)
	}

	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--fast"}, srv.URL)...).want(t, exitDifferences)
	contains(t, r.stdout, "4 differences", "--fast")
	if strings.Contains(r.stdout, auditRel(t, rs[2].URI)) {
		t.Errorf("--fast saw the bit flip it cannot see:\n%s", r.stdout)
	}

	page := filepath.Join(t.TempDir(), "audit.html")
	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--json", "--html", page}, srv.URL)...).want(t, exitDifferences)
	var doc auditDoc
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if doc.InSync || doc.Counts["missing"] != 1 || doc.Counts["extra"] != 2 || doc.Counts["changed"] != 2 ||
		len(doc.Changed) != 2 || doc.Changed[1].Reason != "md5" || doc.Source != src.SourceDescriptionURL() {
		t.Errorf("--json document: %+v", doc)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	contains(t, string(html), "<!DOCTYPE html>", "Missing", "Extra", "Changed", auditRel(t, rs[2].URI), "--max-delete 2",
		"Mirror <code>"+dest+"</code>, audited "+time.Now().UTC().Format("2006-01-02"), "by resync-dest "+build().Version)

	if after := fixtures.TreeSnapshot(t, dest, false); after != before {
		t.Errorf("audit changed the mirror or the state:\nbefore\n%s\nafter\n%s", before, after)
	}
	if n := auditRuns(t, dest); n != runs {
		t.Errorf("audit recorded runs: %d, was %d", n, runs)
	}

	// The repair the report printed, as printed.
	fields := strings.Fields(repair)
	last := len(fields) - 1 // the URL: flags go before it
	runCLI(t, append(append(append([]string{}, fields[1:last]...), fast("baseline")...), fields[last])...).want(t, 0)
	r = runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "39 listed: 39 in sync", "In sync")
}

// The round trip with the guard opened wide, as a user would run it.
func TestAuditRepairWithMaxDelete(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	rs := src.Resources(0)
	for _, r := range rs[:6] { // 15% of the set: more than the default --max-delete
		if err := src.Apply(src.At().Add(time.Minute), fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path}); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(dest, auditRel(t, rs[10].URI)))
	runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitDifferences)
	runCLI(t, args([]string{"baseline", "--dest", dest, "--checksum", "--delete"}, srv.URL)...).want(t, exitSafetyStop)
	runCLI(t, args([]string{"baseline", "--dest", dest, "--checksum", "--delete", "--max-delete", "100%"}, srv.URL)...).want(t, 0)
	r := runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
	var doc auditDoc
	if err := resultOf(r.stdout, &doc); err != nil || !doc.InSync || doc.Counts["in_sync"] != 34 {
		t.Errorf("after the repair: %v %+v", err, doc)
	}
}

func TestAuditExitCodes(t *testing.T) {
	t.Parallel()
	t.Run("unreachable", func(t *testing.T) {
		src, srv := served(t, nil)
		dest := t.TempDir()
		runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
		src.SetFault("/dataset1/resourcelist.xml", fixtures.Fault{Status: []int{503, 503, 503, 503, 503, 503}})
		r := runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitUnavailable)
		contains(t, r.stdout, "error:", "503")
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		nobody := "http://" + l.Addr().String() + "/"
		l.Close()
		runCLI(t, auditArgs([]string{"audit", "--dest", dest}, nobody)...).want(t, exitUnavailable)
	})
	t.Run("errors", func(t *testing.T) {
		src, srv := served(t, nil)
		dest := t.TempDir()
		runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
		long := srv.URL + "dataset1/res/" + strings.Repeat("d/", 2000) + "x"
		src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/><url><loc>`+long+`</loc></url></urlset>`))
		r := runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitFatal)
		contains(t, r.stdout, "! "+long+": ", "unmappable")
	})
	t.Run("locked", func(t *testing.T) {
		_, srv := served(t, nil)
		dest := t.TempDir()
		holdLock(t, dest)
		runCLI(t, auditArgs([]string{"audit", "--dest", dest}, srv.URL)...).want(t, exitLocked)
	})
	t.Run("usage", func(t *testing.T) {
		wantUsage(t, [][]string{
			{"audit", "http://127.0.0.1:1/"},
			{"audit", "--dest", t.TempDir()},
			{"audit", "--dest", t.TempDir(), "--workers", "0", "http://127.0.0.1:1/"},
			{"audit", "--dest", t.TempDir(), "--map", "nonsense", "http://127.0.0.1:1/"},
			{"audit", "--dest", t.TempDir(), "--delete", "http://127.0.0.1:1/"},
		})
	})
}

func TestShellQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/tmp/mirror":                      "/tmp/mirror",
		"http://h:8080/a?b=c":              "'http://h:8080/a?b=c'",
		"/my mirror":                       "'/my mirror'",
		"it's":                             `'it'\''s'`,
		"":                                 "''",
		"https://h/x=y=z,w@v+u%20":         "https://h/x=y=z,w@v+u%20",
		"/a/$HOME":                         "'/a/$HOME'",
		"http://example.org/rs/caps.xml;a": "'http://example.org/rs/caps.xml;a'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// --html into a directory that does not exist is refused before the audit
// starts: not a request is made.
func TestAuditHTMLIntoAMissingDirectory(t *testing.T) {
	src, srv := served(t, nil)
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	src.ResetCounts()
	page := filepath.Join(t.TempDir(), "no", "such", "report.html")
	r := runCLI(t, auditArgs([]string{"audit", "--dest", dest, "--html", page}, srv.URL)...).want(t, exitUsage)
	contains(t, r.stderr, "--html "+page, "does not exist")
	if n := src.TotalRequests(); n != 0 {
		t.Errorf("the audit ran (%d requests) before refusing --html", n)
	}
}
