package state

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// The child process commits crashBatch(0), crashBatch(1), ... and prints
// "committed N" after each Commit returns, until it is killed.
const crashChildEnv = "RESYNC_DEST_STATE_CRASH_CHILD"

const (
	crashHeld    = 400 // records of each kind per batch, so that a kill
	crashFailed  = 40  // likely lands inside a transaction
	crashChanges = 100
)

var crashBase = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// crashBatch carries its number n in every record: the marker by which the
// parent checks that each batch is there whole or not at all.
func crashBatch(n int) *Batch {
	var b Batch
	m := fmt.Sprintf("b%06d", n)
	for i := range crashHeld {
		b.Held = append(b.Held, resourcesync.Held{
			URI: fmt.Sprintf("http://example.org/%s/r%04d", m, i), Path: fmt.Sprintf("example.org/%s/r%04d", m, i),
			Length: int64(i), ETag: m,
		})
	}
	for i := range crashFailed {
		b.Failed = append(b.Failed, resourcesync.Failure{URI: fmt.Sprintf("http://example.org/%s/f%04d", m, i), Cause: m})
	}
	for i := range crashChanges {
		b.Changes = append(b.Changes, resourcesync.ChangeRecord{
			URI: fmt.Sprintf("http://example.org/%s/c%04d", m, i), Change: resourcesync.ChangeUpdated,
			Time: crashBase.Add(time.Duration(n) * time.Second), List: m, Position: i + 1,
		})
	}
	b.ListsDone = []ListDone{{URL: "http://example.org/" + m + ".xml"}}
	cursor := crashBase.Add(time.Duration(n+1) * time.Second)
	b.Cursor = &cursor
	return &b
}

// TestCrashChild is the child of TestKilledDuringCommits; it does nothing
// in a normal run.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("the child process of TestKilledDuringCommits")
	}
	ctx := context.Background()
	db, err := Open(ctx, Options{Path: path})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	s, err := db.EnsureSet(ctx, capList, "")
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	for n := 0; ; n++ {
		if err := db.Commit(ctx, s.ID, crashBatch(n)); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		fmt.Printf("committed %d\n", n)
	}
}

func TestKilledDuringCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, killAfter := range []int{1, 4, 9} {
		t.Run(strconv.Itoa(killAfter), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.db")
			printed := runAndKill(t, path, killAfter)
			checkWholeBatches(t, path, printed)
		})
	}
}

// runAndKill starts the child on path, SIGKILLs it once it has reported
// killAfter commits, and returns how many it reported.
func runAndKill(t *testing.T, path string, killAfter int) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	printed := 0
	sc := bufio.NewScanner(out)
	for printed < killAfter && sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "error") {
			t.Fatalf("child: %s", line)
		}
		if n, ok := strings.CutPrefix(line, "committed "); ok {
			if got, err := strconv.Atoi(n); err != nil || got != printed {
				t.Fatalf("child said %q, want committed %d", line, printed)
			}
			printed++
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no chance to clean up
		t.Fatal(err)
	}
	// Whatever the child printed before it died counts too.
	for sc.Scan() {
		if _, ok := strings.CutPrefix(sc.Text(), "committed "); ok {
			printed++
		}
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Success() {
		t.Fatalf("child ended with %v, want killed", err)
	}
	if printed < killAfter {
		t.Fatalf("child reported %d commits before it died, want at least %d", printed, killAfter)
	}
	return printed
}

// checkWholeBatches opens what the killed child left and checks that it
// holds batches 0..n-1 whole, for some n at least the number reported, and
// nothing of any other batch.
func checkWholeBatches(t *testing.T, path string, reported int) {
	t.Helper()
	ctx := context.Background()
	db := openAt(t, path)
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	s, ok, err := db.Set(ctx, capList)
	if err != nil || !ok {
		t.Fatalf("Set = %v, %v", ok, err)
	}
	counts := func(query string) map[string]int {
		rows, err := db.read.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		m := map[string]int{}
		for rows.Next() {
			var marker sql.NullString
			var n int
			if err := rows.Scan(&marker, &n); err != nil {
				t.Fatal(err)
			}
			m[marker.String] = n
		}
		return m
	}
	held := counts(`SELECT etag, count(*) FROM resources GROUP BY etag`)
	failed := counts(`SELECT cause, count(*) FROM failures GROUP BY cause`)
	changes := counts(`SELECT list, count(*) FROM changes GROUP BY list`)
	lists := counts(`SELECT substr(url, 20, 7), count(*) FROM lists_done GROUP BY 1`)
	n := len(held)
	if n < reported {
		t.Fatalf("%d batches recorded, but the child reported %d commits", n, reported)
	}
	for b := range n {
		m := fmt.Sprintf("b%06d", b)
		if held[m] != crashHeld || failed[m] != crashFailed || changes[m] != crashChanges || lists[m] != 1 {
			t.Errorf("batch %s partly recorded: %d held, %d failed, %d changes, %d lists done",
				m, held[m], failed[m], changes[m], lists[m])
		}
	}
	for name, m := range map[string]map[string]int{"held": held, "failures": failed, "changes": changes, "lists done": lists} {
		if len(m) != n {
			t.Errorf("%s of %d batches, held of %d: %v", name, len(m), n, m)
		}
	}
	if want := crashBase.Add(time.Duration(n) * time.Second); !s.Cursor.Equal(want) {
		t.Errorf("cursor %v, want %v (that of batch %d)", s.Cursor, want, n-1)
	}
	t.Logf("child reported %d commits; %d whole batches recorded", reported, n)
}
