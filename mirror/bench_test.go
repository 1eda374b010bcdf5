package mirror

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const (
	benchFiles   = 10_000
	benchDirs    = 100
	benchWorkers = 8
)

// BenchmarkPut10k writes 10,000 files of 4 KiB (with an mtime) into 100
// directories of a fresh mirror with 8 workers, then closes it; one op is
// the whole run, and files/s is the figure for the performance budget.
// Two ways of making the files durable run alternately, in one process,
// since only a comparison within one run means anything on shared
// machines (BENCHMARKING.md):
//
//   - publish=group, the write path: the workers Put, and one goroutine
//     Publishes whatever tickets accumulated while its previous Publish
//     ran (group commit: two syncfs per batch);
//   - fsync=per-file, the write path this replaced, as the baseline: each
//     worker fsyncs its temp file before renaming it, and the directories
//     are fsynced every 256 files.
//
// Run it once per sub-benchmark:
//
//	go test -run '^$' -bench Put10k -benchtime 1x ./mirror/
func BenchmarkPut10k(b *testing.B) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 256)
	lastmod := time.Date(2013, 1, 2, 3, 4, 5, 0, time.UTC)
	// Removed only at the end: deleting a big tree slows the creation of
	// files that follows for minutes (BENCHMARKING.md).
	base := b.TempDir()
	run := 0
	for round := 1; round <= 3; round++ {
		for _, mode := range []string{"publish=group", "fsync=per-file"} {
			b.Run(fmt.Sprintf("%s/round=%d", mode, round), func(b *testing.B) {
				publishes := 0
				for range b.N {
					// Each run starts with nothing dirty, so that neither
					// mode pays for flushing what an earlier one (or
					// another program) left in the page cache.
					b.StopTimer()
					syscall.Sync()
					run++
					b.StartTimer()
					n, err := benchRun(filepath.Join(base, strconv.Itoa(run)), mode, body, lastmod)
					if err != nil {
						b.Fatal(err)
					}
					publishes += n
				}
				b.ReportMetric(float64(benchFiles*b.N)/b.Elapsed().Seconds(), "files/s")
				if publishes > 0 {
					b.ReportMetric(float64(benchFiles*b.N)/float64(publishes), "files/publish")
				}
			})
		}
	}
}

// benchRun writes the files into a new mirror at dest and returns how many
// Publish calls it made.
func benchRun(dest, mode string, body []byte, mtime time.Time) (int, error) {
	m, err := Open(dest, DefaultOptions())
	if err != nil {
		return 0, err
	}
	defer m.Close()
	if _, err := m.Lock(); err != nil {
		return 0, err
	}
	errs := make(chan error, benchFiles+benchWorkers+1)
	tickets := make(chan string, benchFiles)
	publishes := 0
	published := make(chan struct{})
	if mode == "publish=group" {
		go func() {
			defer close(published)
			publishes = groupCommit(m, tickets, errs)
		}()
	} else {
		m.noSyncFS.Store(true) // SyncDirs fsyncs each directory, as it did
		close(published)
	}
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range benchWorkers {
		wg.Go(func() {
			for {
				n := next.Add(1) - 1
				if n >= benchFiles {
					return
				}
				rel := fmt.Sprintf("example.org/d%03d/f%05d.html", n%benchDirs, n)
				if mode == "fsync=per-file" {
					err := putFsyncEach(m, rel, body, mtime)
					if err == nil && done.Add(1)%256 == 0 {
						err = m.SyncDirs()
					}
					if err != nil {
						errs <- err
						return
					}
					continue
				}
				ticket, err := m.Put(rel, mtime, fillWith(string(body)))
				if err != nil {
					errs <- err
					return
				}
				tickets <- ticket
			}
		})
	}
	wg.Wait()
	close(tickets)
	<-published
	if err := m.SyncDirs(); err != nil {
		return 0, err
	}
	close(errs)
	for err := range errs {
		return 0, err
	}
	return publishes, m.Close()
}

// putFsyncEach is the write path before staging: write, set the mtime,
// fsync, close, rename.
func putFsyncEach(m *Mirror, rel string, body []byte, mtime time.Time) error {
	p, _, err := m.create(rel)
	if err != nil {
		return err
	}
	defer p.discard()
	if _, err := p.Write(body); err != nil {
		return err
	}
	if err := m.fsys.Chtimes(p.tmp, m.now(), mtime); err != nil {
		return err
	}
	if err := p.f.Sync(); err != nil {
		return err
	}
	f := p.f
	p.f = nil
	if err := f.Close(); err != nil {
		return err
	}
	if err := m.fsys.Rename(p.tmp, rel); err != nil {
		return err
	}
	p.tmp = "" // renamed: nothing to discard
	m.pending.Add(-1)
	m.markDirty(path.Dir(rel))
	return nil
}

// BenchmarkMapperPath maps typical URIs (the fixture's ASCII names, and
// names with spaces and UTF-8) with the current naming rules and, as the
// peer, with version 1's: the mapping runs once per listed resource.
func BenchmarkMapperPath(b *testing.B) {
	m, err := NewMapper(nil)
	if err != nil {
		b.Fatal(err)
	}
	var uris []string
	for i := range 1000 {
		uris = append(uris, fmt.Sprintf("http://127.0.0.1:8080/dataset1/res/%03d/r%06d.txt", i/100, i))
		uris = append(uris, fmt.Sprintf("http://127.0.0.1:8080/dataset1/res/dir%%20%d/Pi%%C3%%B1a%%20%d.txt", i/100, i))
	}
	for _, v := range []int{MappingVersion, 1} {
		b.Run(fmt.Sprintf("version%d", v), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := m.PathIn(v, uris[i%len(uris)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPlaceReplacing5k renames 5,000 new versions of 4 KiB files
// over the ones an earlier session wrote (the updates of an apply), with
// the Sync that makes the renames durable; staging them is not timed. One
// op is the whole batch. On ext4 without a journal, mounted with discard,
// freeing each old file within its rename waits for the device (see
// Place). Compare builds by running their test binaries alternately:
//
//	go test -run '^$' -bench PlaceReplacing5k -benchtime 3x ./mirror/
func BenchmarkPlaceReplacing5k(b *testing.B) {
	const files = 5000
	body := string(bytes.Repeat([]byte("0123456789abcdef"), 256))
	base := b.TempDir() // removed only at the end (see BenchmarkPut10k)
	rel := func(k int) string { return fmt.Sprintf("h/%d/%d", k%50, k) }
	for i := range b.N {
		b.StopTimer()
		dest := filepath.Join(base, strconv.Itoa(i))
		m := openLockedAt(b, dest, Options{})
		old := make([]string, files)
		for k := range files {
			old[k] = stage(b, m, rel(k), body, time.Time{})
		}
		publish(b, m, old...)
		if err := m.Close(); err != nil {
			b.Fatal(err)
		}
		m = openLockedAt(b, dest, Options{})
		tickets := make([]string, files)
		for k := range files {
			tickets[k] = stage(b, m, rel(k), body+"new", time.Time{})
		}
		if err := m.Sync(); err != nil {
			b.Fatal(err)
		}
		syscall.Sync()
		b.StartTimer()
		for _, err := range m.Place(tickets) {
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := m.Sync(); err != nil {
			b.Fatal(err)
		}
		if err := m.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(files*b.N), "µs/file")
}
