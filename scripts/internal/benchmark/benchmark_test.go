package benchmark

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestRoundRatios(t *testing.T) {
	s := time.Second
	tests := []struct {
		a, b []time.Duration
		want string
	}{
		{[]time.Duration{9 * s, 12 * s, 10 * s}, []time.Duration{10 * s, 10 * s, 10 * s}, "0.90 1.20 1.00 (median 1.00)"},
		{[]time.Duration{7 * s, 8 * s}, []time.Duration{10 * s, 10 * s}, "0.70 0.80 (median 0.80)"},
		{[]time.Duration{5 * s, 6 * s}, []time.Duration{10 * s}, "0.50 (median 0.50)"}, // a round cut short
		{nil, nil, "none"},
	}
	for _, tt := range tests {
		if got := RoundRatios(tt.a, tt.b); got != tt.want {
			t.Errorf("RoundRatios(%v, %v) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

// A run after a deletion starts no sooner than Wait after it (a lower
// bound only: the machine may always be slower).
func TestQuietWaitsAfterADeletion(t *testing.T) {
	q := Quiet{Wait: 2 * time.Second} // well past Settle's own pause
	q.Deleted()
	start := time.Now()
	q.Before()
	if d := time.Since(start); d < q.Wait-50*time.Millisecond {
		t.Errorf("Before returned %s after the deletion, want at least %s", d, q.Wait)
	}
}

// A removal recorded by an earlier invocation (LastRemoval) holds the
// first run back as a run's own deletion does, and an older one recorded
// after it does not shorten the wait.
func TestQuietWaitsFromAnEarlierRemoval(t *testing.T) {
	q := Quiet{Wait: 2 * time.Second}
	removed := time.Now().Add(-500 * time.Millisecond)
	q.DeletedAt(removed)
	q.DeletedAt(time.Time{})
	q.DeletedAt(removed.Add(-time.Minute))
	q.Before()
	if d := time.Since(removed); d < q.Wait-50*time.Millisecond {
		t.Errorf("Before returned %s after the removal, want at least %s", d, q.Wait)
	}
}

// Removing a work directory leaves its time beside it for the next
// invocation, except on tmpfs, where a removal slows nothing after it.
func TestWorkDirRemovalIsStamped(t *testing.T) {
	parent := t.TempDir()
	if !LastRemoval(parent).IsZero() {
		t.Fatalf("LastRemoval of a directory where nothing was removed = %s, want the zero time", LastRemoval(parent))
	}
	_, remove, err := WorkDir(parent, "bench-x-")
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	remove()
	after := time.Now()
	got := LastRemoval(parent)
	if onTmpfs(parent) {
		if !got.IsZero() {
			t.Errorf("LastRemoval on tmpfs = %s, want the zero time", got)
		}
		return
	}
	if got.Before(before.Add(-time.Millisecond)) || got.After(after) {
		t.Errorf("LastRemoval = %s, want between %s and %s", got, before, after)
	}
	if err := os.WriteFile(filepath.Join(parent, removalStamp), []byte("not a time\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := LastRemoval(parent); !got.IsZero() {
		t.Errorf("LastRemoval of an unreadable stamp = %s, want the zero time", got)
	}
}

// A benchmark started while another still removes its work directory
// waits for that removal to end and returns its end; a removal started
// longer than maxRemoval ago (its invocation killed part way) is not
// waited for.
func TestLastRemovalWaitsForARemovalInProgress(t *testing.T) {
	parent := t.TempDir()
	if onTmpfs(parent) {
		t.Skip("no removal is stamped on tmpfs")
	}
	stampRemoval(parent, removingPrefix)
	if _, removing := readRemovalStamp(parent); !removing {
		t.Fatal("the stamp of a removal that started does not say so")
	}
	ended := make(chan time.Time, 1)
	go func() {
		time.Sleep(3 * removalPoll)
		stampRemoval(parent, "")
		end, _ := readRemovalStamp(parent)
		ended <- end
	}()
	got := LastRemoval(parent)
	if want := <-ended; !got.Equal(want) {
		t.Errorf("LastRemoval during a removal = %s, want its end %s", got, want)
	}

	old := time.Now().Add(-maxRemoval - time.Minute).UTC().Round(0)
	if err := os.WriteFile(filepath.Join(parent, removalStamp), []byte(removingPrefix+old.Format(time.RFC3339Nano)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := LastRemoval(parent); !got.Equal(old) {
		t.Errorf("LastRemoval of a removal started %s ago = %s, want its start %s", maxRemoval+time.Minute, got, old)
	}
}

// Each invocation works in a new, empty directory of its own inside the
// one given, and leaves nothing behind: a run directory of an earlier,
// killed invocation must never be taken for a fresh one.
func TestWorkDirIsNewAndRemoved(t *testing.T) {
	parent := t.TempDir()
	left := filepath.Join(parent, "bench-x-old")
	if err := os.MkdirAll(filepath.Join(left, "resync-dest-0"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, remove, err := WorkDir(parent, "bench-x-")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != parent || dir == left {
		t.Fatalf("WorkDir(%s) = %s, want a new directory in it", parent, dir)
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("work directory %s: %d entries, %v; want empty", dir, len(ents), err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s after remove: %v, want it gone", dir, err)
	}
	if _, err := os.Stat(left); err != nil {
		t.Errorf("what was in the parent before: %v", err)
	}
}

// The child's CPU figure comes from the kernel's accounting: work done
// shows in an ended child (this process's: cputime.TestSelfCountsWorkDone).
func TestChildCPUCountsWorkDone(t *testing.T) {
	cmd := exec.Command("sh", "-c", `i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done`)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if cpu := ChildCPU(cmd.ProcessState); cpu <= 0 {
		t.Errorf("ChildCPU of a shell that counted to 100,000 = %s, want more than 0", cpu)
	}
}

// Measure reports a child's wall-clock and CPU time and its peak RSS, and
// fails with the child.
func TestMeasure(t *testing.T) {
	m, err := Measure(exec.Command("sh", "-c", `i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done`))
	if err != nil || m.Wall <= 0 || m.CPU <= 0 || m.RSS <= 0 {
		t.Errorf("Measure of a shell that counted to 100,000 = %+v, %v; want wall, CPU and RSS above 0", m, err)
	}
	var r Runs
	r.Add(m)
	r.Add(Measured{Wall: time.Second, CPU: 2 * time.Second, Source: 3 * time.Second, RSS: 4})
	if len(r.Wall) != 2 || r.Machine[1] != 5*time.Second || r.RSS[1] != 4 {
		t.Errorf("Runs after two Add = %+v", r)
	}
	if _, err := Measure(exec.Command("sh", "-c", "exit 3")); err == nil {
		t.Error("Measure of a child that exits 3 = nil error")
	}
}
