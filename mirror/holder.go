package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Holder is who holds a mirror's write lock, as the holder wrote it in the
// lock file: for the message a locked-out run shows, and for status to
// tell a run in progress from one that died.
type Holder struct {
	PID     int
	Host    string    // "" when unknown
	Started time.Time // when it took the lock; zero when unknown
}

// String is "pid 123 on host h since 2026-11-24T20:00:00Z", leaving out
// what is unknown.
func (h Holder) String() string {
	s := "pid " + strconv.Itoa(h.PID)
	if h.Host != "" {
		s += " on host " + h.Host
	}
	if !h.Started.IsZero() {
		s += " since " + h.Started.UTC().Format(time.RFC3339)
	}
	return s
}

// encodeHolder is the lock file's content: "pid N", "host H" and
// "started T" lines.
func encodeHolder(h Holder) []byte {
	return fmt.Appendf(nil, "pid %d\nhost %s\nstarted %s\n", h.PID, h.Host, h.Started.UTC().Format(time.RFC3339Nano))
}

// parseHolder reads a lock file's content; the bare pid that versions
// before wrote is read too. ok is false when it names no pid.
func parseHolder(b []byte) (h Holder, ok bool) {
	for i, line := range strings.Split(string(b), "\n") {
		key, value, _ := strings.Cut(strings.TrimSpace(line), " ")
		if i == 0 && value == "" {
			key, value = "pid", key // an older lock file: the pid alone
		}
		switch key {
		case "pid":
			h.PID, _ = strconv.Atoi(value)
		case "host":
			h.Host = value
		case "started":
			h.Started, _ = time.Parse(time.RFC3339Nano, value)
		}
	}
	return h, h.PID > 0
}

// thisHolder describes this process, now.
func thisHolder() Holder {
	host, _ := os.Hostname()
	return Holder{PID: os.Getpid(), Host: host, Started: time.Now()}
}

// WriteHolder reports the write run that holds the mirror's lock now, if
// any: held is false when no write run does (none started, or the last one
// ended or died, the kernel having dropped its lock). It probes the lock
// with a shared flock that it releases at once; a writer starting in that
// instant waits for it (see lockExclusive). It never writes.
func (m *Mirror) WriteHolder() (h Holder, held bool, err error) {
	if m.root == nil {
		return Holder{}, false, nil // the mirror does not exist
	}
	f, err := m.root.OpenFile(lockName, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return Holder{}, false, nil
	}
	if err != nil {
		return Holder{}, false, fmt.Errorf("open the lock: %w", err)
	}
	defer f.Close()
	err = flock(f, syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		return Holder{}, false, nil // closing f releases the probe
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return Holder{}, false, fmt.Errorf("probe the lock: %w", err)
	}
	b, err := m.root.ReadFile(lockName)
	if err != nil {
		return Holder{}, true, fmt.Errorf("read the lock: %w", err)
	}
	h, _ = parseHolder(b)
	return h, true, nil
}
