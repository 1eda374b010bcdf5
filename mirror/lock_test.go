package mirror

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// The subprocess tests re-run this test binary with MIRROR_HELPER set;
// TestHelperProcess then plays the other process and is killed.
const helperEnv = "MIRROR_HELPER"

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("the other process of the subprocess tests")
	}
	dir := os.Getenv(helperEnv + "_DIR")
	m, err := Open(dir, DefaultOptions())
	if err == nil {
		_, err = m.Lock()
	}
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	switch mode {
	case "lock":
		fmt.Println("ready")
	case "crash":
		err = stageThenDieMidWrite(m)
	default:
		err = fmt.Errorf("unknown mode %q", mode)
	}
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	io.Copy(io.Discard, os.Stdin) // until killed
	os.Exit(0)
}

// stageThenDieMidWrite publishes h/done and the first version of h/f,
// stages a second version of h/f, then says ready in the middle of
// writing h/partial - where the test kills it, as a run killed
// mid-download with a batch not yet published.
func stageThenDieMidWrite(m *Mirror) error {
	var tickets []string
	for _, f := range []struct{ rel, content string }{{"h/done", "published"}, {"h/f", "old"}} {
		t, err := m.Put(f.rel, time.Time{}, fillWith(f.content))
		if err != nil {
			return err
		}
		tickets = append(tickets, t)
	}
	errs, err := m.Publish(tickets)
	if err = errors.Join(append(errs, err)...); err != nil {
		return err
	}
	if _, err := m.Put("h/f", time.Time{}, fillWith("new, staged")); err != nil {
		return err
	}
	_, err = m.Put("h/partial", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		if _, err := s.Write([]byte("half a bo")); err != nil {
			return false, err
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin) // until killed
		return false, errors.New("not killed")
	})
	return err
}

// startHelper runs the helper in mode on dir and waits until it is ready.
func startHelper(t *testing.T, mode, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperEnv+"_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("helper said %q (%v)", line, err)
	}
	return cmd
}

func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() // "signal: killed" is the point
}

func TestLockInProcess(t *testing.T) {
	dir := t.TempDir()
	m1, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m1.Close()
	release, err := m1.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m1.Lock(); !errors.Is(err, ErrLocked) {
		t.Errorf("second Lock on the same Mirror: %v", err)
	}
	m2, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	_, err = m2.Lock()
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Lock of a second Mirror in the same process: %v, want ErrLocked", err)
	}
	if want := fmt.Sprintf("(pid %d on host ", os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("ErrLocked message %q does not name the holder %s", err, want)
	}
	// m2's failed Lock must not have disturbed m1's session.
	put(t, m1, "h/a", "a", time.Time{})
	if err := release(); err != nil {
		t.Fatal(err)
	}
	release2, err := m2.Lock()
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	// A stale release of m1's finished session does not touch m2's.
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, err := m1.Lock(); !errors.Is(err, ErrLocked) {
		t.Errorf("m1 locked while m2 holds the lock: %v", err)
	}
	release2()
}

func TestLockSubprocess(t *testing.T) {
	dir := t.TempDir()
	cmd := startHelper(t, "lock", dir)
	m, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, err = m.Lock()
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Lock while another process holds it: %v, want ErrLocked", err)
	}
	if want := fmt.Sprintf("(pid %d on host ", cmd.Process.Pid); !strings.Contains(err.Error(), want) {
		t.Errorf("ErrLocked message %q does not name the holder %s", err, want)
	}
	kill(t, cmd)
	// A killed holder leaves no stale lock.
	if _, err := m.Lock(); err != nil {
		t.Fatalf("Lock after the holder was killed: %v", err)
	}
}

func TestCrashSweep(t *testing.T) {
	dir := t.TempDir()
	kill(t, startHelper(t, "crash", dir))

	left := tempFiles(t, dir)
	if len(left) != 2 {
		t.Fatalf("the killed run left temp files %v, want two (staged and half written)", left)
	}
	if _, err := os.Stat(filepath.Join(dir, ".resync-dest", "dirty")); err != nil {
		t.Fatalf("the killed run left no crash marker: %v", err)
	}
	// Things that look a little like temp files are not temp files.
	keep := map[string]string{
		"h/%tmp-notatempfile":                "user",
		"h/%tmp-0123456789ABCDEF":            "upper-case hex",
		"h/%tmp-0123456789abcdef0":           "one digit more",
		"h/%tmp-0123456789abcdef/inner":      "inside a directory",
		".resync-dest/%tmp-0123456789abcdef": "in the state directory",
	}
	for rel, content := range keep {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	m := openLockedAt(t, dir, DefaultOptions())
	for _, tf := range left {
		if _, err := os.Lstat(tf); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the sweep left %s (%v)", tf, err)
		}
	}
	if got := mustRead(t, dir, "h/done"); got != "published" {
		t.Errorf("the published file holds %q", got)
	}
	if got := mustRead(t, dir, "h/f"); got != "old" {
		t.Errorf("h/f holds %q, want the old version: the staged one was never published", got)
	}
	for rel, content := range keep {
		if got := mustRead(t, dir, rel); got != content {
			t.Errorf("%s holds %q, want %q", rel, got, content)
		}
	}
	if _, err := m.Stat("h/partial"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the half-written file appeared at its target (%v)", err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".resync-dest", "dirty")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a clean Close left the crash marker (%v)", err)
	}
}

// In one process: a session released while a Put is writing keeps the
// marker (the temp file might have been left), the Put fails with
// ErrNotLocked and removes its temp file, and the next session sweeps.
func TestReleaseDuringPut(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(dir, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	ticket, err := m.Put("h/x", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		s.Write([]byte("unfinished"))
		if err := release(); err != nil {
			t.Error(err)
		}
		return true, nil
	})
	if ticket != "" || !errors.Is(err, ErrNotLocked) {
		t.Errorf("Put across a release = %q, %v; want ErrNotLocked", ticket, err)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Errorf("temp files left: %v", tf)
	}
	if _, err := os.Stat(filepath.Join(dir, ".resync-dest", "dirty")); err != nil {
		t.Errorf("the release with a Put in flight cleared the marker: %v", err)
	}
	m2 := openLockedAt(t, dir, DefaultOptions())
	if _, err := m2.Stat("h/x"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("h/x exists (%v)", err)
	}
}

// WriteHolder tells a write run holding the lock (with its pid, host and
// start) from none, without disturbing either; the lock file of an older
// version (the pid alone) still names its pid.
func TestWriteHolder(t *testing.T) {
	dest := t.TempDir()
	open := func(ro bool) *Mirror {
		o := DefaultOptions()
		o.ReadOnly = ro
		m, err := Open(dest, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return m
	}
	probe := open(true)
	if _, held, err := probe.WriteHolder(); held || err != nil {
		t.Fatalf("a mirror never locked: held %v, %v", held, err)
	}
	w := open(false)
	before := time.Now().Add(-time.Second)
	release, err := w.Lock()
	if err != nil {
		t.Fatal(err)
	}
	probe = open(true)
	h, held, err := probe.WriteHolder()
	host, _ := os.Hostname()
	if !held || err != nil || h.PID != os.Getpid() || h.Host != host || h.Started.Before(before) {
		t.Errorf("during a write run: %+v, held %v, %v", h, held, err)
	}
	// The probe let nothing go: a second writer is still locked out.
	if _, err := open(false).Lock(); !errors.Is(err, ErrLocked) {
		t.Errorf("a second writer beside the first: %v", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, held, err := probe.WriteHolder(); held || err != nil {
		t.Errorf("after the run: held %v, %v", held, err)
	}
	// The probe does not lock a writer out either.
	release, err = open(false).Lock()
	if err != nil {
		t.Fatalf("a writer after the probe: %v", err)
	}
	release()

	for _, tc := range []struct {
		in   string
		want Holder
		ok   bool
	}{
		{"4242\n", Holder{PID: 4242}, true},
		{"pid 7\nhost h\nstarted 2026-11-24T20:00:00.5Z\n", Holder{PID: 7, Host: "h", Started: time.Date(2026, 11, 24, 20, 0, 0, 5e8, time.UTC)}, true},
		{"", Holder{}, false},
		{"garbage\n", Holder{}, false},
	} {
		got, ok := parseHolder([]byte(tc.in))
		if ok != tc.ok || got.PID != tc.want.PID || got.Host != tc.want.Host || !got.Started.Equal(tc.want.Started) {
			t.Errorf("parseHolder(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
