package main

import (
	"encoding/json"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 18, downloads that resume. One resource of 24 MiB, read at
// --bwlimit 4M so that the run is killed (kill -9 of the real binary)
// part way; the next run continues it with one Range request.

const bigSize = 24 << 20

// partialMeta is a kept download's meta, as the mirror writes it.
type partialMeta struct {
	Path, URL, Validator string
	Bytes                int64
}

// partials reads the metas of the downloads kept in dest.
func partials(t *testing.T, dest string) map[string]partialMeta {
	t.Helper()
	return partialMetasIn(filepath.Join(dest, ".resync-dest", "partial"))
}

// partialMetasIn reads the metas (NAME.json) kept in dir, by NAME; one
// that cannot be read is left out.
func partialMetasIn(dir string) map[string]partialMeta {
	ents, _ := os.ReadDir(dir)
	out := map[string]partialMeta{}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		var m partialMeta
		if err == nil && json.Unmarshal(b, &m) == nil {
			out[strings.TrimSuffix(e.Name(), ".json")] = m
		}
	}
	return out
}

// bigServed serves a Source of one resource of bigSize bytes.
func bigServed(t *testing.T) (*fixtures.Source, *fixtures.Server, fixtures.ResourceInfo) {
	t.Helper()
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources, s.SizeMin, s.SizeMax = 1, bigSize, bigSize })
	return src, srv, src.Resources(0)[0]
}

// killMidDownload runs a baseline of dest, slowed down, and kills it with
// SIGKILL once at least atLeast bytes of the resource are kept; it returns
// the key of the partial and its meta.
func killMidDownload(t *testing.T, srv *fixtures.Server, dest string, atLeast int64) (string, partialMeta) {
	t.Helper()
	return killMidRun(t, srv, "baseline", dest, atLeast)
}

// killMidRun is killMidDownload for a run of the command verb.
func killMidRun(t *testing.T, srv *fixtures.Server, verb, dest string, atLeast int64) (string, partialMeta) {
	t.Helper()
	p := startProc(t, nil, verb, "--dest", dest, "--bwlimit", "4M", "--progress", "never", srv.URL)
	deadline := time.Now().Add(90 * time.Second)
	for {
		for key, m := range partials(t, dest) {
			if m.Bytes >= atLeast {
				if err := p.cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				p.wait()
				settle(t, srv)
				return key, partials(t, dest)[key]
			}
		}
		if p.exited() {
			t.Fatalf("the baseline ended before %d bytes were kept:\n%s", atLeast, p.stderr.String())
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %d bytes kept in 90 s", atLeast)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// assertResumedClean checks what a run after a partial download leaves:
// the mirror is the Source and no partial is left.
func assertResumedClean(t *testing.T, src *fixtures.Source, dest string) {
	t.Helper()
	assertMirrorIsSource(t, src, dest)
	if left := partials(t, dest); len(left) != 0 {
		t.Errorf("partials left: %v", left)
	}
}

// assertNothingPublished checks that no file of the set is in the tree:
// a download killed part way is never at its final path.
func assertNothingPublished(t *testing.T, dest string) {
	t.Helper()
	filepath.WalkDir(dest, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".resync-dest" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() {
			t.Errorf("%s is in the mirror after the kill", p)
		}
		return nil
	})
}

func TestGuaranteeKill9MidDownloadResumes(t *testing.T) {
	src, srv, big := bigServed(t)
	dest := t.TempDir()
	key, kept := killMidDownload(t, srv, dest, 8<<20)
	assertNothingPublished(t, dest)
	if kept.URL != big.URI || kept.Validator != big.ETag {
		t.Errorf("kept %+v, want the URL %s and the ETag %s", kept, big.URI, big.ETag)
	}
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	c := src.Count(big.Path)
	if c.Bodies != 1 || c.Ranged != 1 {
		t.Errorf("the resume made %d requests for a body, %d of them ranged; want 1 ranged", c.Bodies, c.Ranged)
	}
	if c.Sent > bigSize-kept.Bytes {
		t.Errorf("the resume sent %d bytes, want at most the %d not kept", c.Sent, bigSize-kept.Bytes)
	}
	assertMirrorIsSource(t, src, dest)
	assertNoTempFiles(t, dest)
	if left := partials(t, dest); len(left) != 0 {
		t.Errorf("partials left after the resume: %v (the killed one was %s)", left, key)
	}
}

// A partial of another version: the Source answers the stale If-Range
// with the whole body, and the next run starts from zero.
func TestGuaranteeResumeOfChangedResourceRestarts(t *testing.T) {
	src, srv, big := bigServed(t)
	dest := t.TempDir()
	killMidDownload(t, srv, dest, 4<<20)
	if err := src.Apply(src.At().Add(time.Minute), fixtures.Mutation{Kind: fixtures.Update, Path: big.Path}); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if c := src.Count(big.Path); c.Bodies != 1 || c.Ranged != 0 || c.Sent != bigSize {
		t.Errorf("counts %+v; want one whole body of %d bytes", c, bigSize)
	}
	assertResumedClean(t, src, dest)
}

// Bytes of a partial damaged on disk are caught by the hash over the whole
// file, and the resource is fetched again whole; nothing wrong is
// published.
func TestGuaranteeCorruptPartialIsRefetched(t *testing.T) {
	src, srv, big := bigServed(t)
	dest := t.TempDir()
	key, _ := killMidDownload(t, srv, dest, 4<<20)
	f, err := os.OpenFile(filepath.Join(dest, ".resync-dest", "partial", key), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("damaged"), 1000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if c := src.Count(big.Path); c.Bodies != 2 || c.Ranged != 1 {
		t.Errorf("counts %+v; want a ranged request, then the whole body", c)
	}
	assertResumedClean(t, src, dest)
}

// The partial of a resource the Source deleted is swept by the next
// baseline, which never asks for it.
func TestGuaranteePartialOfDeletedResourceIsSwept(t *testing.T) {
	src, srv, big := bigServed(t)
	dest := t.TempDir()
	killMidDownload(t, srv, dest, 4<<20)
	if err := src.Apply(src.At().Add(time.Minute),
		fixtures.Mutation{Kind: fixtures.Delete, Path: big.Path},
		fixtures.Mutation{Kind: fixtures.Create, Path: "/dataset1/res/000/small.txt", Size: 1000},
	); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if n := src.Requests(big.Path); n != 0 {
		t.Errorf("%d requests for the deleted resource", n)
	}
	assertMirrorIsSource(t, src, dest)
	if left := partials(t, dest); len(left) != 0 {
		t.Errorf("the partial of the deleted resource is left: %v", left)
	}
	if ents, _ := os.ReadDir(filepath.Join(dest, ".resync-dest", "partial")); len(ents) != 0 {
		t.Errorf("files left in .resync-dest/partial: %v", ents)
	}
}

// Within one run, a connection that drops mid-body is continued with
// Range: the bytes received are not asked for again.
func TestGuaranteeDroppedBodyResumesInRun(t *testing.T) {
	src, srv, big := bigServed(t)
	src.SetFault(big.Path, fixtures.Fault{Body: fixtures.Truncate, At: 10 << 20, Times: 1})
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if c := src.Count(big.Path); c.Bodies != 2 || c.Ranged != 1 || c.Sent != bigSize {
		t.Errorf("counts %+v; want two requests, the second ranged, %d bytes in all", c, bigSize)
	}
	assertResumedClean(t, src, dest)
}

// A change deleting a resource drops the partial an earlier run kept of
// it, with or without --delete.
func TestGuaranteeChangeDeletingAResourceDropsItsPartial(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
	dest := t.TempDir()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	const big = "/dataset1/res/000/big.bin"
	if err := src.Apply(src.At().Add(time.Minute), fixtures.Mutation{Kind: fixtures.Create, Path: big, Size: bigSize}); err != nil {
		t.Fatal(err)
	}
	killMidRun(t, srv, "incremental", dest, 4<<20)
	if err := src.Apply(src.At().Add(time.Minute), fixtures.Mutation{Kind: fixtures.Delete, Path: big}); err != nil {
		t.Fatal(err)
	}
	src.ResetCounts()
	runCLI(t, args([]string{"incremental", "--dest", dest}, srv.URL)...).want(t, 0)
	if n := src.Requests(big); n != 0 {
		t.Errorf("%d requests for the deleted resource", n)
	}
	if left := partials(t, dest); len(left) != 0 {
		t.Errorf("the partial of the deleted resource is left: %v", left)
	}
}

// packagePartialMetas reads the metas of the packages kept in dest.
func packagePartialMetas(t *testing.T, dest string) []partialMeta {
	t.Helper()
	metas := partialMetasIn(packagePartials(dest))
	var out []partialMeta
	for _, name := range slices.Sorted(maps.Keys(metas)) {
		out = append(out, metas[name])
	}
	return out
}

// A Resource Dump package killed part way (kill -9 of the real binary) is
// completed by the next run with one Range request for the bytes not
// kept, and its resources come from it, not from the Source.
func TestGuaranteeKill9MidPackageResumes(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources, s.SizeMin, s.SizeMax, s.DumpPackages = 1, bigSize, bigSize, 1 })
	dest := t.TempDir()
	p := startProc(t, nil, "baseline", "--dest", dest, "--via", "dump", "--bwlimit", "4M", "--progress", "never", srv.URL)
	var kept partialMeta
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if ms := packagePartialMetas(t, dest); len(ms) == 1 && ms[0].Bytes >= 4<<20 {
			break
		}
		if p.exited() || time.Now().After(deadline) {
			t.Fatalf("no 4 MiB of the package kept:\n%s", p.stderr.String())
		}
	}
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait()
	settle(t, srv)
	kept = packagePartialMetas(t, dest)[0]
	assertNothingPublished(t, dest)
	u, err := url.Parse(kept.URL)
	if err != nil {
		t.Fatal(err)
	}
	pkgPath := u.Path
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest, "--via", "dump"}, srv.URL)...).want(t, 0)
	c := src.Count(pkgPath)
	if c.Bodies != 1 || c.Ranged != 1 {
		t.Errorf("package %s: %+v; want one ranged request", pkgPath, c)
	}
	if c.Sent > int64(bigSize)+1<<20-kept.Bytes {
		t.Errorf("the resume sent %d bytes of the package, %d were kept", c.Sent, kept.Bytes)
	}
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("%d resources fetched from the Source; the package holds them", n)
	}
	assertMirrorIsSource(t, src, dest)
	if ents, _ := os.ReadDir(packagePartials(dest)); len(ents) != 0 {
		t.Errorf("files left in %s: %v", packagePartials(dest), ents)
	}
}

// SIGTERM twice (stop, then exit at once) mid-download keeps the partial
// too: the next run continues it with one Range request.
func TestGuaranteeSignalMidDownloadResumes(t *testing.T) {
	src, srv, big := bigServed(t)
	dest := t.TempDir()
	p := startProc(t, nil, "baseline", "--dest", dest, "--bwlimit", "4M", "--progress", "never", srv.URL)
	waitUntil(t, "4 MiB are kept", func() bool {
		for _, m := range partials(t, dest) {
			if m.Bytes >= 4<<20 {
				return true
			}
		}
		return p.exited()
	})
	p.cmd.Process.Signal(syscall.SIGTERM)
	waitUntil(t, "the first signal is acknowledged", func() bool {
		return strings.Contains(p.stderr.String(), "send it again") || p.exited()
	})
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.wantExit(t, exitSIGTERM)
	settle(t, srv)
	assertNothingPublished(t, dest)
	var kept partialMeta
	for _, m := range partials(t, dest) {
		kept = m
	}
	if kept.Bytes < 4<<20 {
		t.Fatalf("kept %+v after the signals, want at least 4 MiB", kept)
	}
	src.ResetCounts()
	runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if c := src.Count(big.Path); c.Bodies != 1 || c.Ranged != 1 || c.Sent != bigSize-kept.Bytes {
		t.Errorf("counts %+v; want one ranged request for the %d bytes not kept", c, bigSize-kept.Bytes)
	}
	assertMirrorIsSource(t, src, dest)
}
