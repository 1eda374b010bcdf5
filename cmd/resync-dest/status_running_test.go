package main

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

// While a run holds the mirror, status says it is running now, with the
// holder's pid, host and start from the lock, and a second run's lock
// message names them too; once the run is killed, status says it died
// without recording an end.
func TestStatusTellsRunningFromDied(t *testing.T) {
	_, srv, dest, holder := stalledHolder(t)
	host, _ := os.Hostname()
	who := fmt.Sprintf("pid %d on host %s since ", holder.cmd.Process.Pid, host)

	r := runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout, "baseline  ", "running now ("+who)
	var doc struct {
		Writer *struct {
			PID  int    `json:"pid"`
			Host string `json:"host"`
		} `json:"writer"`
		Runs []struct {
			Running bool `json:"running"`
		} `json:"runs"`
	}
	r = runCLI(t, "status", "--dest", dest, "--json").want(t, 0)
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Writer == nil || doc.Writer.PID != holder.cmd.Process.Pid || doc.Writer.Host != host || len(doc.Runs) < 2 || !doc.Runs[0].Running || doc.Runs[1].Running {
		t.Errorf("status --json during a run: %+v\n%s", doc, r.stdout)
	}
	// The locked-out run names the holder.
	r = runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, exitLocked)
	contains(t, r.stderr, who, "nothing was done")

	holder.cmd.Process.Kill()
	if _, sig := holder.wait(); sig != syscall.SIGKILL {
		t.Fatalf("the holder ended before the kill (signal %v):\n%s", sig, holder.stderr.String())
	}
	settle(t, srv)
	r = runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout, "died without recording an end")
	r = runCLI(t, "status", "--dest", dest, "--json").want(t, 0)
	doc.Writer = nil
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Writer != nil || doc.Runs[0].Running {
		t.Errorf("status --json after the run died: %+v", doc)
	}
}
