package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// pending is the Sink the fetcher streams a body into.
var _ resourcesync.Sink = (*pending)(nil)

// openLocked opens a mirror in a fresh directory and takes its lock; the
// mirror is closed at the end of the test.
func openLocked(t testing.TB, opts Options) (*Mirror, string) {
	t.Helper()
	dir := t.TempDir()
	return openLockedAt(t, dir, opts), dir
}

func openLockedAt(t testing.TB, dir string, opts Options) *Mirror {
	t.Helper()
	m, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	if _, err := m.Lock(); err != nil {
		t.Fatal(err)
	}
	return m
}

// fillWith is a fill function that writes content and keeps it.
func fillWith(content string) func(resourcesync.Sink) (bool, error) {
	return func(s resourcesync.Sink) (bool, error) {
		_, err := io.WriteString(s, content)
		return err == nil, err
	}
}

// stage writes a whole file through Put and returns its ticket.
func stage(t testing.TB, m *Mirror, rel, content string, mtime time.Time) string {
	t.Helper()
	ticket, err := m.Put(rel, mtime, fillWith(content))
	if err != nil {
		t.Fatal(err)
	}
	if ticket == "" {
		t.Fatalf("Put(%s) kept the file but returned no ticket", rel)
	}
	return ticket
}

// publish publishes tickets and fails on any error.
func publish(t testing.TB, m *Mirror, tickets ...string) {
	t.Helper()
	errs, err := m.Publish(tickets)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != len(tickets) {
		t.Fatalf("Publish returned %d errors for %d tickets", len(errs), len(tickets))
	}
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// put writes a whole file and publishes it.
func put(t testing.TB, m *Mirror, rel, content string, mtime time.Time) {
	t.Helper()
	publish(t, m, stage(t, m, rel, content, mtime))
}

func mustRead(t testing.TB, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tempFiles lists the temp files anywhere below dir.
func tempFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), tempPrefix) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOpenCreatesDirectories(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "a", "b")
	m, err := Open(dest, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !filepath.IsAbs(m.StateDir()) || m.StateDir() != filepath.Join(dest, ".resync-dest") {
		t.Errorf("StateDir() = %q", m.StateDir())
	}
	if fi, err := os.Lstat(m.StateDir()); err != nil || !fi.IsDir() {
		t.Fatalf("state directory: %v, %v", fi, err)
	}
	// Opening writes nothing but the state directory.
	ents, _ := os.ReadDir(m.StateDir())
	if len(ents) != 0 {
		t.Errorf("Open wrote %d entries into the state directory", len(ents))
	}
}

func TestOpenRefusesBadStateDir(t *testing.T) {
	for _, plant := range []func(dir string) error{
		func(dir string) error { return os.WriteFile(filepath.Join(dir, ".resync-dest"), nil, 0o644) },
		func(dir string) error { return os.Symlink(t.TempDir(), filepath.Join(dir, ".resync-dest")) },
	} {
		dir := t.TempDir()
		if err := plant(dir); err != nil {
			t.Fatal(err)
		}
		if m, err := Open(dir, DefaultOptions()); err == nil {
			m.Close()
			t.Errorf("Open accepted a .resync-dest that is not a directory")
		}
	}
	if _, err := Open(t.TempDir(), Options{Maps: []Map{{Prefix: "http://h/", Dir: ".."}}}); err == nil {
		t.Error("Open accepted an invalid map")
	}
}

func TestPutPublish(t *testing.T) {
	now := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	m, dir := openLocked(t, Options{Now: func() time.Time { return now }})
	lastmod := time.Date(2013, 1, 2, 3, 4, 5, 0, time.UTC)
	put(t, m, "h/a/b.txt", "version 1", lastmod)
	if got := mustRead(t, dir, "h/a/b.txt"); got != "version 1" {
		t.Fatalf("content %q", got)
	}
	fi, err := m.Stat("h/a/b.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(lastmod) || fi.Size() != 9 || !fi.Mode().IsRegular() {
		t.Errorf("Stat = mtime %v size %d mode %v; want the Source's lastmod %v, 9 bytes", fi.ModTime(), fi.Size(), fi.Mode(), lastmod)
	}

	ticket := stage(t, m, "h/a/b.txt", "version 2, longer", time.Time{})
	if got := mustRead(t, dir, "h/a/b.txt"); got != "version 1" {
		t.Fatalf("before Publish the target holds %q", got)
	}
	publish(t, m, ticket)
	if got := mustRead(t, dir, "h/a/b.txt"); got != "version 2, longer" {
		t.Fatalf("after Publish the target holds %q", got)
	}
	if fi, _ := m.Stat("h/a/b.txt"); fi.ModTime().Equal(lastmod) {
		t.Error("a zero mtime kept the old modification time")
	}
	errs, err := m.Publish([]string{ticket})
	if err != nil || !errors.Is(errs[0], fs.ErrInvalid) {
		t.Errorf("second Publish of a ticket: %v, %v; want fs.ErrInvalid", errs, err)
	}
	if err := m.Discard(ticket); err != nil {
		t.Errorf("Discard after Publish: %v", err)
	}
	if got := mustRead(t, dir, "h/a/b.txt"); got != "version 2, longer" {
		t.Errorf("Discard after Publish changed the target: %q", got)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

func TestPutKeepFalseAndFillError(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/f", "old", time.Time{})

	// keep=false (a 304 Not Modified): no ticket, no error, nothing changes.
	var sink resourcesync.Sink
	ticket, err := m.Put("h/f", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		sink = s
		io.WriteString(s, "never kept")
		return false, nil
	})
	if ticket != "" || err != nil {
		t.Errorf("keep=false: Put = %q, %v; want \"\", nil", ticket, err)
	}
	if _, err := sink.Write([]byte("late")); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Write after fill returned: %v, want os.ErrClosed", err)
	}
	if err := sink.Reset(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Reset after fill returned: %v, want os.ErrClosed", err)
	}

	// An error from fill comes back as it is, for the caller to classify.
	fetchErr := fmt.Errorf("get http://h/f: %w", resourcesync.ErrNotFound)
	ticket, err = m.Put("h/f", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		io.WriteString(s, "new, unverified")
		return true, fetchErr
	})
	if ticket != "" || err != fetchErr {
		t.Errorf("fill error: Put = %q, %v; want \"\", the fill's error unwrapped", ticket, err)
	}
	if got := mustRead(t, dir, "h/f"); got != "old" {
		t.Errorf("the target holds %q", got)
	}

	// A new file in a new directory: nothing at all appears.
	if ticket, err = m.Put("h/new/g", time.Time{}, func(resourcesync.Sink) (bool, error) { return false, nil }); ticket != "" || err != nil {
		t.Errorf("Put = %q, %v", ticket, err)
	}
	if _, err := m.Stat("h/new/g"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("unkept new file: Stat error %v, want fs.ErrNotExist", err)
	}

	// A fill that panics leaves no temp file either.
	func() {
		defer func() { recover() }()
		m.Put("h/f", time.Time{}, func(s resourcesync.Sink) (bool, error) {
			io.WriteString(s, "half")
			panic("fill failed")
		})
	}()
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".resync-dest", "dirty")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("crash marker left after a clean Close (%v): the pending count leaked", err)
	}
}

func TestReset(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	ticket, err := m.Put("h/r", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		io.WriteString(s, "a first attempt that broke off")
		if err := s.Reset(); err != nil {
			return false, err
		}
		_, err := io.WriteString(s, "retry")
		return true, err
	})
	if err != nil {
		t.Fatal(err)
	}
	publish(t, m, ticket)
	if got := mustRead(t, dir, "h/r"); got != "retry" {
		t.Errorf("content %q, want %q", got, "retry")
	}
}

func TestDiscard(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/f", "old", time.Time{})
	ticket := stage(t, m, "h/f", "new", time.Time{})
	if err := m.Discard(ticket); err != nil {
		t.Fatal(err)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
	errs, err := m.Publish([]string{ticket})
	if err != nil || !errors.Is(errs[0], fs.ErrInvalid) {
		t.Errorf("Publish of a discarded ticket: %v, %v; want fs.ErrInvalid", errs, err)
	}
	if got := mustRead(t, dir, "h/f"); got != "old" {
		t.Errorf("the target holds %q", got)
	}
	for _, tk := range []string{ticket, "", "h/%tmp-0123456789abcdef", "nonsense"} {
		if err := m.Discard(tk); err != nil {
			t.Errorf("Discard(%q): %v", tk, err)
		}
	}
}

func TestWritesNeedTheLock(t *testing.T) {
	m, err := Open(t.TempDir(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	called := false
	fill := func(resourcesync.Sink) (bool, error) { called = true; return true, nil }
	if _, err := m.Put("h/a", time.Time{}, fill); !errors.Is(err, ErrNotLocked) {
		t.Errorf("Put without the lock: %v", err)
	}
	if err := m.Remove("h/a"); !errors.Is(err, ErrNotLocked) {
		t.Errorf("Remove without the lock: %v", err)
	}
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	put(t, m, "h/a", "x", time.Time{})
	staged := stage(t, m, "h/a", "staged when the session ended", time.Time{})
	called = false
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Put("h/b", time.Time{}, fill); !errors.Is(err, ErrNotLocked) {
		t.Errorf("Put after release: %v", err)
	}
	if called {
		t.Error("Put called fill without the lock")
	}
	if err := release(); err != nil {
		t.Errorf("second release: %v", err)
	}
	// The session's staged file was discarded with it: a ticket does not
	// outlive its session, even when a new one begins.
	if _, err := m.Lock(); err != nil {
		t.Fatal(err)
	}
	errs, err := m.Publish([]string{staged})
	if err != nil || !errors.Is(errs[0], fs.ErrInvalid) {
		t.Errorf("Publish of a ticket of an ended session: %v, %v", errs, err)
	}
	if got := mustRead(t, m.dest, "h/a"); got != "x" {
		t.Errorf("h/a holds %q", got)
	}
}

func TestInvalidPaths(t *testing.T) {
	m, _ := openLocked(t, DefaultOptions())
	for _, rel := range []string{
		"", "/abs", "h/../x", "../x", "h//x", "h/x/", "./h", ".", "..", ".resync-dest", ".resync-dest/state.db",
		"h/%tmp-0123456789abcdef", "h/a\x00b",
	} {
		fill := func(resourcesync.Sink) (bool, error) { t.Errorf("Put(%q) called fill", rel); return true, nil }
		if _, err := m.Put(rel, time.Time{}, fill); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Put(%q): %v, want fs.ErrInvalid", rel, err)
		}
		if err := m.Remove(rel); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Remove(%q): %v, want fs.ErrInvalid", rel, err)
		}
		if _, err := m.Stat(rel); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Stat(%q): %v, want fs.ErrInvalid", rel, err)
		}
	}
}

// Names starting with "." are mirror content like any other (a map onto
// the root stores /.htaccess as .htaccess); only .resync-dest is reserved.
func TestDotNamesAreContent(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	for _, rel := range []string{".htaccess", ".well-known/x", ".resync-destx", "h/.resync-dest/x"} {
		tk, err := m.Put(rel, time.Time{}, func(s resourcesync.Sink) (bool, error) {
			_, err := s.Write([]byte(rel))
			return true, err
		})
		if err != nil {
			t.Fatalf("Put(%q): %v", rel, err)
		}
		if errs, err := m.Publish([]string{tk}); err != nil || errs[0] != nil {
			t.Fatalf("Publish(%q): %v %v", rel, errs, err)
		}
		if got := mustRead(t, dir, rel); got != rel {
			t.Errorf("%s holds %q", rel, got)
		}
	}
	var walked []string
	if err := m.Walk("", func(rel string, _ fs.FileInfo) error { walked = append(walked, rel); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{".htaccess", ".resync-destx", ".well-known/x", "h/.resync-dest/x"}; !slices.Equal(walked, want) {
		t.Errorf("Walk = %q, want %q (and never .resync-dest itself)", walked, want)
	}
}

func TestPathConflict(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	mustPath := func(uri string) string {
		p, err := m.Path(uri)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// http://h/a, then http://h/a/b: a is a file.
	put(t, m, mustPath("http://h/a"), "file a", time.Time{})
	_, err := m.Put(mustPath("http://h/a/b"), time.Time{}, fillWith("b"))
	if !errors.Is(err, ErrPathConflict) || !strings.Contains(err.Error(), "h/a/b") || !strings.Contains(err.Error(), "h/a is a file") {
		t.Errorf("Put below a file: %v; want ErrPathConflict naming h/a/b and h/a", err)
	}
	if got := mustRead(t, dir, "h/a"); got != "file a" {
		t.Errorf("the first file changed: %q", got)
	}

	// http://h/d/x, then http://h/d/ and http://h/d: d is a directory.
	put(t, m, mustPath("http://h/d/x"), "x", time.Time{})
	put(t, m, mustPath("http://h/d/"), "index", time.Time{})
	if _, err := m.Put(mustPath("http://h/d"), time.Time{}, fillWith("d")); !errors.Is(err, ErrPathConflict) || !strings.Contains(err.Error(), "h/d is a directory") {
		t.Errorf("Put over a directory: %v", err)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
	// A directory that appears after Put: TestPublishConflict.
}

func TestRemovePrunes(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/a/b/c/f", "f", time.Time{})
	put(t, m, "h/a/g", "g", time.Time{})
	put(t, m, "top/only", "o", time.Time{})
	if err := m.Remove("h/a/b/c/f"); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"h/a/b/c/f", "h/a/b/c", "h/a/b"} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s still there (%v)", gone, err)
		}
	}
	if got := mustRead(t, dir, "h/a/g"); got != "g" {
		t.Errorf("sibling changed: %q", got)
	}
	if err := m.Remove("h/a/g"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "h/a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("h/a not pruned (%v)", err)
	}
	if err := m.Remove("top/only"); err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{"h", "top"} {
		if fi, err := os.Lstat(filepath.Join(dir, kept)); err != nil || !fi.IsDir() {
			t.Errorf("top-level directory %s was pruned (%v)", kept, err)
		}
	}
	if err := m.Remove("h/missing"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "h/missing") {
		t.Errorf("Remove of a missing file: %v", err)
	}
	put(t, m, "h/d/x", "x", time.Time{})
	if err := m.Remove("h/d"); !errors.Is(err, ErrPathConflict) {
		t.Errorf("Remove of a directory: %v", err)
	}
	if err := m.SyncDirs(); err != nil {
		t.Errorf("SyncDirs after pruning: %v", err)
	}
}

func TestHashFileAndStat(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	put(t, m, "h/f", "hello", time.Time{})
	sums, n, err := m.HashFile("h/f", []string{"md5", "sha256"})
	if err != nil {
		t.Fatal(err)
	}
	want := "md5:5d41402abc4b2a76b9719d911017c592 sha-256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
	if sums.String() != want || n != 5 {
		t.Errorf("HashFile = %s, %d; want %s, 5", sums, n, want)
	}
	if _, _, err := m.HashFile("h/f", []string{"crc32"}); err == nil || !strings.Contains(err.Error(), "crc32") {
		t.Errorf("unknown algorithm: %v", err)
	}
	if _, _, err := m.HashFile("h/missing", []string{"md5"}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "h/link")); err != nil {
		t.Fatal(err)
	}
	fi, err := m.Stat("h/link")
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Stat of a symlink = %v, %v; want the link itself", fi, err)
	}
	if _, _, err := m.HashFile("h/link", []string{"md5"}); err == nil {
		t.Error("HashFile followed a symlink")
	}
}

// groupCommit publishes, until tickets is closed, whatever tickets
// accumulated while the previous Publish ran, as a state writer does,
// reports each error on errs, and returns how many Publish calls it made.
func groupCommit(m *Mirror, tickets <-chan string, errs chan<- error) int {
	var batch []string
	calls := 0
	for t := range tickets {
		batch = append(batch[:0], t)
	more:
		for {
			select {
			case t, ok := <-tickets:
				if !ok {
					break more
				}
				batch = append(batch, t)
			default:
				break more
			}
		}
		calls++
		perTicket, err := m.Publish(batch)
		if err != nil {
			errs <- err
		}
		for _, err := range perTicket {
			if err != nil {
				errs <- err
			}
		}
	}
	return calls
}

func TestConcurrentPutPublish(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	const workers, perWorker = 8, 100
	tickets := make(chan string, workers)
	errs := make(chan error, workers*perWorker+1)
	published := make(chan struct{})
	go func() {
		defer close(published)
		groupCommit(m, tickets, errs)
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				// Workers share directories, so they race to make them;
				// a Remove now and then races with the publisher.
				rel := fmt.Sprintf("h/d%d/e%d/f-%d-%d", i%7, i%3, w, i)
				ticket, err := m.Put(rel, time.Time{}, fillWith(rel))
				if err != nil {
					errs <- err
					return
				}
				tickets <- ticket
				if i%10 == 9 {
					gone := fmt.Sprintf("h/gone/%d/%d", w, i)
					if err := m.Remove(gone); !errors.Is(err, fs.ErrNotExist) {
						errs <- fmt.Errorf("Remove(%s) = %v, want fs.ErrNotExist", gone, err)
					}
				}
			}
		})
	}
	wg.Wait()
	close(tickets)
	<-published
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n := 0
	err := m.Walk("", func(rel string, info fs.FileInfo) error {
		n++
		if got := mustRead(t, dir, rel); got != rel {
			t.Errorf("%s holds %q", rel, got)
		}
		return nil
	})
	if err != nil || n != workers*perWorker {
		t.Errorf("Walk found %d files (%v), want %d", n, err, workers*perWorker)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %d", len(tf))
	}
}

func TestCloseReleasesAndClearsMarker(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Lock(); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, ".resync-dest", "dirty")
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("Lock set no crash marker: %v", err)
	}
	put(t, m, "h/a", "a", time.Time{})
	staged := stage(t, m, "h/a", "staged, never published", time.Time{})
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("Close left the staged file: %v", tf)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Close left the crash marker (%v)", err)
	}
	m2 := openLockedAt(t, dir, DefaultOptions()) // the lock is free again
	if got, _ := os.ReadFile(filepath.Join(dir, "h/a")); !bytes.Equal(got, []byte("a")) {
		t.Errorf("content %q", got)
	}
	if errs, err := m2.Publish([]string{staged}); err != nil || !errors.Is(errs[0], fs.ErrInvalid) {
		t.Errorf("a ticket staged before Close: Publish = %v, %v; want fs.ErrInvalid", errs, err)
	}
	m2.Close()
}

// A directory removed from outside during a run (rm -rf by hand) does not
// fail the files that come to it later: the mirror makes it again, rather
// than write into the removed directory it still had open.
func TestDirectoryRemovedBehindOurBack(t *testing.T) {
	m, dir := openLocked(t, Options{})
	put(t, m, "h/a/b/1.txt", "one", time.Time{})
	put(t, m, "h/a/2.txt", "two", time.Time{})
	if err := os.RemoveAll(filepath.Join(dir, "h", "a")); err != nil {
		t.Fatal(err)
	}
	put(t, m, "h/a/b/3.txt", "three", time.Time{})
	put(t, m, "h/a/4.txt", "four", time.Time{})
	for rel, want := range map[string]string{"h/a/b/3.txt": "three", "h/a/4.txt": "four"} {
		if got := mustRead(t, dir, rel); got != want {
			t.Errorf("%s holds %q, want %q", rel, got, want)
		}
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
}

// A directory moved out of the mirror from outside during a run neither
// takes the mirror's later files nor loses files to its deletions: the
// files fail to publish (and are fetched again next time), and nothing in
// the moved directory is removed.
func TestDirectoryMovedAwayBehindOurBack(t *testing.T) {
	m, dir := openLocked(t, Options{})
	put(t, m, "h/a/1.txt", "one", time.Time{})
	put(t, m, "h/a/2.txt", "two", time.Time{})
	away := filepath.Join(t.TempDir(), "away")
	if err := os.Rename(filepath.Join(dir, "h", "a"), away); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "h", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	ticket := stage(t, m, "h/a/3.txt", "three", time.Time{})
	errs, err := m.Publish([]string{ticket})
	if err != nil {
		t.Fatal(err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "h", "a", "3.txt")); errs[0] == nil && serr != nil {
		t.Errorf("published 3.txt, but the mirror does not hold it: %v", serr)
	}
	if _, err := os.Stat(filepath.Join(away, "3.txt")); err == nil {
		t.Error("the moved directory took a file published after the move")
	}
	if err := m.Remove("h/a/1.txt"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if got := mustRead(t, away, "1.txt"); got != "one" {
		t.Errorf("the moved directory's 1.txt holds %q", got)
	}
}
