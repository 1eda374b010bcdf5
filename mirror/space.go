package mirror

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// ErrNoSpace: a file would not fit on the mirror's file system with
// Options.MinFree bytes left free. A per-resource error, checked before a
// body is written (when its length is known) and while it is written: the
// temp file is removed and the previous version stays. Other resources
// may still fit.
var ErrNoSpace = errors.New("not enough free space")

// statfsFree is what an unprivileged process may still write on the file
// system holding dir (statfs(2)).
func statfsFree(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	free := st.Bavail * uint64(st.Bsize)
	if free > math.MaxInt64 {
		return math.MaxInt64, nil
	}
	return int64(free), nil
}

// spaceGuard keeps files from filling the mirror's disk: it measures the
// free space now and then (statfs costs microseconds, too much once per
// small file) and subtracts what writers reserve in between. It is
// measured again when its estimate would fall below the reserve, or a
// second after the last measure (other processes write too). Safe for
// concurrent use.
type spaceGuard struct {
	minFree int64
	measure func() (int64, error)
	now     func() time.Time

	mu   sync.Mutex
	left int64     // free at the last measure, less what was reserved since
	at   time.Time // of the last measure; zero: never measured
}

// reserve takes n bytes from the estimate, or fails with ErrNoSpace when
// they would leave less than minFree. A file system whose free space
// cannot be measured is not guarded: the writes themselves then fail with
// ENOSPC when it is full.
func (g *spaceGuard) reserve(n int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if g.at.IsZero() || now.Sub(g.at) > time.Second || g.left-n < g.minFree {
		free, err := g.measure()
		if err != nil {
			free = math.MaxInt64 / 2
		}
		g.left, g.at = free, now
	}
	if g.left-n < g.minFree {
		return fmt.Errorf("%w: %s more would leave less than %s free (%s free on the mirror's file system)",
			ErrNoSpace, bytesText(n), bytesText(g.minFree), bytesText(g.left))
	}
	g.left -= n
	return nil
}

// release gives back a reservation that was not used (a file discarded).
func (g *spaceGuard) release(n int64) {
	if n <= 0 {
		return
	}
	g.mu.Lock()
	g.left += n
	g.mu.Unlock()
}

// bytesText writes a byte count for a person: 1.5 MiB, 300 B.
func bytesText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}
