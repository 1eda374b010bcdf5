package mirror

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// resumable is what the Source's client asks of a sink that can resume
// (source's resumer).
type resumable interface {
	resourcesync.Sink
	Reserve(n int64) error
	Partial() (int64, string)
	Resume(n int64) error
	Keep(url, validator string) error
	io.ReaderAt
}

var _ resumable = (*pending)(nil)

var errCut = errors.New("connection cut")

// keepAndCut is a fill that keeps the download, writes body and fails.
func keepAndCut(body []byte) func(resourcesync.Sink) (bool, error) {
	return func(s resourcesync.Sink) (bool, error) {
		r := s.(resumable)
		if err := r.Keep("http://127.0.0.1/big", `"v1"`); err != nil {
			return false, err
		}
		if _, err := r.Write(body); err != nil {
			return false, err
		}
		return false, errCut
	}
}

func TestPartialIsKeptAndResumed(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 300<<10) // 4.7 MiB
	cut := 3 << 20
	m, dir := openLocked(t, DefaultOptions())
	if _, err := m.Put("a/big", time.Time{}, keepAndCut(body[:cut])); !errors.Is(err, errCut) {
		t.Fatalf("Put: %v, want the fill's error", err)
	}
	ps, err := m.Partials()
	if err != nil || len(ps) != 1 || ps[0].Path != "a/big" || ps[0].Bytes != int64(cut) {
		t.Fatalf("Partials = %+v, %v; want a/big with %d bytes", ps, err, cut)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Fatalf("temp files left in the tree: %v", tf)
	}
	// The next run: the lock taken again after the previous one ended.
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m = openLockedAt(t, dir, DefaultOptions())
	ticket, err := m.Put("a/big", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		r := s.(resumable)
		n, v := r.Partial()
		if n != int64(cut) || v != `"v1"` {
			t.Errorf("Partial() = %d, %q; want %d, \"v1\"", n, v, cut)
		}
		if err := r.Resume(n); err != nil {
			return false, err
		}
		prefix := make([]byte, n)
		if _, err := r.ReadAt(prefix, 0); err != nil || !bytes.Equal(prefix, body[:n]) {
			t.Errorf("ReadAt: %v, or the bytes read back differ", err)
		}
		_, err := r.Write(body[n:])
		return err == nil, err
	})
	if err != nil {
		t.Fatal(err)
	}
	publish(t, m, ticket)
	if got := mustRead(t, dir, "a/big"); got != string(body) {
		t.Errorf("published %d bytes, not the body", len(got))
	}
	if ps, _ := m.Partials(); len(ps) != 0 {
		t.Errorf("partials left after the publish: %+v", ps)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, partialDir)); len(ents) != 0 {
		t.Errorf("files left in %s: %v", partialDir, ents)
	}
}

// A fetcher that knows nothing of partials (a dump member) writes from
// zero: the partial is dropped, not appended to.
func TestPartialNotResumedIsDropped(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	if _, err := m.Put("big", time.Time{}, keepAndCut(bytes.Repeat([]byte("x"), 2<<20))); !errors.Is(err, errCut) {
		t.Fatal(err)
	}
	put(t, m, "big", "whole", time.Time{})
	if got := mustRead(t, dir, "big"); got != "whole" {
		t.Errorf("published %q, want %q", got, "whole")
	}
	if ps, _ := m.Partials(); len(ps) != 0 {
		t.Errorf("partials left: %+v", ps)
	}
}

func TestPartialsAreSwept(t *testing.T) {
	m, _ := openLocked(t, DefaultOptions())
	for _, rel := range []string{"gone", "wanted", "deleted"} {
		if _, err := m.Put(rel, time.Time{}, keepAndCut(bytes.Repeat([]byte("x"), 1<<20))); !errors.Is(err, errCut) {
			t.Fatal(err)
		}
	}
	if err := m.DropPartial("deleted"); err != nil {
		t.Fatal(err)
	}
	n, err := m.SweepPartials(func(rel string) (bool, error) { return rel == "wanted", nil })
	if err != nil || n != 1 {
		t.Fatalf("SweepPartials = %d, %v; want 1 swept", n, err)
	}
	ps, _ := m.Partials()
	if len(ps) != 1 || ps[0].Path != "wanted" {
		t.Errorf("partials left: %+v, want only wanted's", ps)
	}
}

// After a crash, what a partial left half made (a meta being replaced, a
// file without its meta) is swept; the partials themselves stay.
func TestCrashSweepKeepsPartials(t *testing.T) {
	m, dir := openLocked(t, DefaultOptions())
	if _, err := m.Put("kept", time.Time{}, keepAndCut(bytes.Repeat([]byte("x"), 1<<20))); !errors.Is(err, errCut) {
		t.Fatal(err)
	}
	pdir := filepath.Join(dir, partialDir)
	for _, name := range []string{"0123456789abcdef", "fedcba9876543210.json", "0000000000000000.json.tmp"} {
		if err := os.WriteFile(filepath.Join(pdir, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	// A crash: the marker a run sets stays.
	if err := os.WriteFile(filepath.Join(dir, markerName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m = openLockedAt(t, dir, DefaultOptions())
	ents, _ := os.ReadDir(pdir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := []string{partialKey("kept"), partialKey("kept") + ".json"}
	if len(names) != 2 || names[0] != want[0] || names[1] != want[1] {
		t.Errorf("after the crash sweep %s holds %v, want %v", partialDir, names, want)
	}
}

// The bytes a partial holds are on the disk already: resuming it reserves
// only the rest.
func TestPartialCountsAgainstFreeSpace(t *testing.T) {
	free := int64(6 << 20)
	o := DefaultOptions()
	o.MinFree = 1 << 20
	o.FreeSpace = func() (int64, error) { return free, nil }
	m, _ := openLocked(t, o)
	if _, err := m.Put("big", time.Time{}, keepAndCut(bytes.Repeat([]byte("x"), 3<<20))); !errors.Is(err, errCut) {
		t.Fatal(err)
	}
	free = 3 << 20 // 2 MiB usable: not the 5 MiB of the file, enough for its rest
	_, err := m.Put("big", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		r := s.(resumable)
		if err := r.Reserve(5 << 20); err != nil {
			return false, err
		}
		n, _ := r.Partial()
		if err := r.Resume(n); err != nil {
			return false, err
		}
		_, err := r.Write(bytes.Repeat([]byte("y"), 2<<20))
		return err == nil, err
	})
	if err != nil {
		t.Fatalf("resuming a partial of 3 MiB of a 5 MiB file with 2 MiB free: %v", err)
	}
	free = 1 << 20
	_, err = m.Put("other", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		return false, s.(resumable).Reserve(5 << 20)
	})
	if !errors.Is(err, ErrNoSpace) {
		t.Errorf("a fresh 5 MiB file with 2 MiB free: %v, want ErrNoSpace", err)
	}
}

// A run whose request fails before a byte arrives (the Source down) keeps
// the partial it was offered, whole.
func TestPartialSurvivesAFailureBeforeResume(t *testing.T) {
	m, _ := openLocked(t, DefaultOptions())
	if _, err := m.Put("big", time.Time{}, keepAndCut(bytes.Repeat([]byte("x"), 2<<20))); !errors.Is(err, errCut) {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := m.Put("big", time.Time{}, func(resourcesync.Sink) (bool, error) { return false, errCut }); !errors.Is(err, errCut) {
			t.Fatal(err)
		}
	}
	ps, _ := m.Partials()
	if len(ps) != 1 || ps[0].Bytes != 2<<20 {
		t.Fatalf("partials %+v, want big's 2 MiB", ps)
	}
	_, err := m.Put("big", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		if n, _ := s.(resumable).Partial(); n != 2<<20 {
			t.Errorf("offered %d bytes, want 2 MiB", n)
		}
		return false, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
