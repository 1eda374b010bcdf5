package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/mirror"
)

// holdLock takes the lock of the mirror at dest, as a running sync does,
// and holds it until the test ends.
func holdLock(t *testing.T, dest string) {
	t.Helper()
	m, err := mirror.Open(dest, mirror.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	if _, err := m.Lock(); err != nil {
		t.Fatal(err)
	}
}

func TestHelpDocumentsExitCodes(t *testing.T) {
	t.Parallel()
	r := runCLI(t, "--help").want(t, 0)
	contains(t, r.stdout, "EXIT STATUS", "safety stop", "143")
	r = runCLI(t, "baseline", "--help").want(t, 0)
	contains(t, r.stdout, "--dest", "--delete", "--checksum", "EXIT STATUS")
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	wantUsage(t, [][]string{
		{},
		{"nope"},
		{"--log-level", "loud", "discover", "http://127.0.0.1:1/"},
		{"discover"},
		{"baseline", "http://127.0.0.1:1/"},
		{"baseline", "--dest", t.TempDir(), "--workers", "0", "http://127.0.0.1:1/"},
		{"baseline", "--dest", t.TempDir(), "--max-delete", "abc", "http://127.0.0.1:1/"},
		{"baseline", "--dest", t.TempDir(), "--map", "ftp://x=y", "http://127.0.0.1:1/"},
		{"baseline", "--dest", t.TempDir(), "--header", "NoColon", "http://127.0.0.1:1/"},
		{"baseline", "--dest", t.TempDir(), "--bogus", "http://127.0.0.1:1/"},
	})
}

func TestDiscoverCommand(t *testing.T) {
	t.Parallel()
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2 })
	r := runCLI(t, args([]string{"discover"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, src.SourceDescriptionURL(), src.CapabilityListURL(1), "Resource List", "Change List")
	r = runCLI(t, args([]string{"discover", "--json"}, src.ResourceListURL(0))...).want(t, 0)
	var d struct {
		SourceDescription string `json:"source_description"`
		Sets              []struct {
			CapabilityList string `json:"capability_list"`
		} `json:"sets"`
	}
	if err := resultOf(r.stdout, &d); err != nil {
		t.Fatalf("--json is not JSON: %v\n%s", err, r.stdout)
	}
	if d.SourceDescription != src.SourceDescriptionURL() || len(d.Sets) != 2 {
		t.Errorf("%+v", d)
	}

	src.SetRaw("/.well-known/resourcesync", "application/xml", []byte("<html>not it</html>"))
	src.SetNotFound("/robots.txt")
	src.SetRaw("/", "text/html", []byte("<html></html>"))
	r = runCLI(t, args([]string{"discover"}, srv.URL)...).want(t, exitFatal)
	contains(t, r.stderr, "no ResourceSync Source found", "/.well-known/resourcesync", "/robots.txt")

	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	runCLI(t, args([]string{"discover"}, "http://"+addr+"/")...).want(t, exitUnavailable)
}

func TestBaselineCommand(t *testing.T) {
	t.Parallel()
	src, srv := served(t, nil)
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "40 created")
	for _, res := range src.Resources(0) {
		want, _ := src.Content(res.URI)
		m, _ := mirror.NewMapper(nil)
		rel, _ := m.Path(res.URI)
		got, err := os.ReadFile(filepath.Join(dest, rel))
		if err != nil || string(got) != string(want) {
			t.Fatalf("%s: %v", res.URI, err)
		}
	}
	src.ResetCounts()
	r = runCLI(t, args([]string{"baseline", "--dest", dest, "--json"}, srv.URL)...).want(t, 0)
	var rep struct {
		Command  string `json:"command"`
		ExitCode int    `json:"exit_code"`
		Result   struct {
			Counts map[string]int `json:"counts"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if rep.Command != "baseline" || rep.Result.Counts["unchanged"] != 40 || rep.ExitCode != 0 {
		t.Errorf("%+v", rep)
	}
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("second baseline fetched %d bodies", n)
	}
}

func TestBaselineExitCodes(t *testing.T) {
	t.Parallel()
	t.Run("partial", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetNotFound(src.Resources(0)[3].Path)
		r := runCLI(t, args([]string{"baseline", "--dest", t.TempDir()}, srv.URL)...).want(t, exitPartial)
		contains(t, r.stdout, "1 failed", src.Resources(0)[3].URI)
	})
	t.Run("unavailable", func(t *testing.T) {
		src, srv := served(t, nil)
		src.SetFault("/dataset1/resourcelist.xml", fixtures.Fault{Status: []int{503, 503, 503, 503, 503, 503}})
		dest := t.TempDir()
		runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitUnavailable)
	})
	t.Run("locked", func(t *testing.T) {
		_, srv := served(t, nil)
		dest := t.TempDir()
		holdLock(t, dest)
		r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitLocked)
		contains(t, r.stderr, "lock")
	})
	t.Run("deletion guard", func(t *testing.T) {
		src, srv := served(t, nil)
		dest := t.TempDir()
		runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
		src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="resourcelist" at="2030-01-01T00:00:00Z"/></urlset>`))
		r := runCLI(t, args([]string{"baseline", "--dest", dest, "--delete"}, srv.URL)...).want(t, exitSafetyStop)
		contains(t, r.stdout+r.stderr, "max-delete")
	})
}

func TestDryRunCreatesNothing(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	dest := filepath.Join(t.TempDir(), "new")
	r := runCLI(t, args([]string{"baseline", "--dest", dest, "--dry-run"}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "dry run", "create ")
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatalf("a dry run created %s", dest)
	}
}
