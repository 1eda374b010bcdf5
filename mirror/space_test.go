package mirror

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// TestFreeSpaceIsKept is issue 22, item 4 at the mirror: on a small disk
// (1 MiB kept free, 300 KiB more), a file whose length is known is refused
// before a byte is written when it would not fit, a file of unknown length
// is refused as it grows past what fits, and either way no temp file is
// left and the previous version stays. What fits is written.
func TestFreeSpaceIsKept(t *testing.T) {
	dir := t.TempDir()
	disk := fixtures.SmallDisk{Dir: dir, Capacity: 1<<20 + 300<<10}
	m := openLockedAt(t, dir, Options{Now: time.Now, MinFree: 1 << 20, FreeSpace: disk.Free})
	put(t, m, "h/old", "previous version", time.Time{})

	big := strings.Repeat("x", 200<<10)
	put(t, m, "h/first", big, time.Time{}) // fits: 300 KiB free above the reserve

	wrote := 0
	_, err := m.Put("h/known", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		if err := s.(interface{ Reserve(int64) error }).Reserve(int64(len(big))); err != nil {
			return false, err
		}
		n, err := s.Write([]byte(big))
		wrote += n
		return err == nil, err
	})
	if !errors.Is(err, ErrNoSpace) || wrote != 0 {
		t.Errorf("a known length that does not fit: %v after writing %d bytes, want ErrNoSpace before any", err, wrote)
	}
	if err != nil && (!strings.Contains(err.Error(), "h/known") || !strings.Contains(err.Error(), "1.0 MiB free")) {
		t.Errorf("error %q should name the file and the reserve", err)
	}

	_, err = m.Put("h/old", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		for range 4 { // 4 x 64 KiB
			if _, err := s.Write([]byte(big[:64<<10])); err != nil {
				return false, err
			}
		}
		return true, nil
	})
	if !errors.Is(err, ErrNoSpace) {
		t.Errorf("an unknown length growing past the free space: %v, want ErrNoSpace", err)
	}
	if got := mustRead(t, dir, "h/old"); got != "previous version" {
		t.Errorf("the previous version became %d bytes", len(got))
	}
	if left := tempFiles(t, dir); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
	put(t, m, "h/small", "still fits", time.Time{})
}

// TestSpaceGuardMeasures checks when the free space is measured: once for
// many small reservations, again when the estimate runs low, and a
// reservation released (a discarded file) is given back.
func TestSpaceGuardMeasures(t *testing.T) {
	measures, free := 0, int64(1000)
	now := time.Unix(0, 0)
	g := spaceGuard{minFree: 100, now: func() time.Time { return now }, measure: func() (int64, error) {
		measures++
		return free, nil
	}}
	for range 8 {
		if err := g.reserve(100); err != nil {
			t.Fatal(err)
		}
	}
	if measures != 1 {
		t.Errorf("%d measures for 8 small reservations, want 1", measures)
	}
	free = 250 // the estimate (200) would fall below the floor, so the disk is asked
	if err := g.reserve(150); err != nil || measures != 2 {
		t.Fatalf("reserve near the floor: %v after %d measures", err, measures)
	}
	free = 150 // others wrote meanwhile
	if err := g.reserve(100); !errors.Is(err, ErrNoSpace) || measures != 3 {
		t.Fatalf("reserve past the floor: %v after %d measures", err, measures)
	}
	g.release(100)
	if err := g.reserve(100); err != nil || measures != 3 {
		t.Fatalf("a released reservation was not given back: %v after %d measures", err, measures)
	}
	now = now.Add(2 * time.Second)
	free = 10_000
	if err := g.reserve(100); err != nil || measures != 4 {
		t.Errorf("a second later: %v after %d measures, want a new measure", err, measures)
	}
}
