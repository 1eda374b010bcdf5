package transfer

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// newTestTally returns a Tally over fresh figures, logging to logs and, for
// a dry run, planning to plan.
func newTestTally(dryRun bool, logs, plan *bytes.Buffer) (*Tally, *resourcesync.Counts, *int64, *[]resourcesync.Failure) {
	o := DefaultRunOptions()
	o.DryRun, o.Plan = dryRun, plan
	o.Progress = &resourcesync.Progress{}
	o.Now = func() time.Time { return time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC) }
	var c resourcesync.Counts
	var would int64
	var failures []resourcesync.Failure
	return NewTally(o, zerolog.New(logs), &c, &would, &failures), &c, &would, &failures
}

func TestTallyAdd(t *testing.T) {
	cause := errors.New("md5 mismatch")
	for _, tc := range []struct {
		o         Outcome
		want      resourcesync.Counts
		would     int64
		failures  int
		plan, log string
	}{
		{o: Unchanged, want: resourcesync.Counts{Unchanged: 1}},
		{o: Created, want: resourcesync.Counts{Created: 1, Bytes: 7}, plan: "create d/r <- http://s/r\n"},
		{o: Updated, want: resourcesync.Counts{Updated: 1, Bytes: 7}, plan: "update d/r <- http://s/r\n"},
		{o: Deleted, want: resourcesync.Counts{Deleted: 1}, plan: "delete d/r (http://s/r)\n", log: `"message":"deleted"`},
		{o: Kept, want: resourcesync.Counts{Skipped: 1}, would: 1, log: "kept locally"},
		{o: Skipped, want: resourcesync.Counts{Skipped: 1}, log: `"message":"skipped"`},
		{o: Failed, want: resourcesync.Counts{Failed: 1}, failures: 1, log: "md5 mismatch"},
	} {
		t.Run(fmt.Sprint(tc.o), func(t *testing.T) {
			for _, dryRun := range []bool{false, true} {
				var logs, plan bytes.Buffer
				tl, c, would, failures := newTestTally(dryRun, &logs, &plan)
				tl.Add(tc.o, "http://s/r", "d/r", 7, cause)
				if *c != tc.want || *would != tc.would || len(*failures) != tc.failures {
					t.Errorf("dry run %v: counts %+v, would delete %d, %d failures; want %+v, %d, %d",
						dryRun, *c, *would, len(*failures), tc.want, tc.would, tc.failures)
				}
				if got, _, _ := tl.Progress.Snapshot(); got != tc.want {
					t.Errorf("dry run %v: progress %+v, want %+v", dryRun, got, tc.want)
				}
				wantPlan := ""
				if dryRun {
					wantPlan = tc.plan
				}
				if plan.String() != wantPlan {
					t.Errorf("dry run %v: plan %q, want %q", dryRun, plan.String(), wantPlan)
				}
				if !strings.Contains(logs.String(), tc.log) {
					t.Errorf("dry run %v: log %q lacks %q", dryRun, logs.String(), tc.log)
				}
			}
		})
	}
}

// A summary carries the first MaxReportedFailures failures; every one is
// counted.
func TestTallyCapsReportedFailures(t *testing.T) {
	var logs bytes.Buffer
	tl, c, _, failures := newTestTally(false, &logs, nil)
	for i := range MaxReportedFailures + 5 {
		tl.Add(Failed, fmt.Sprintf("http://s/%d", i), fmt.Sprint(i), 0, errors.New("gone"))
	}
	if c.Failed != MaxReportedFailures+5 || len(*failures) != MaxReportedFailures {
		t.Fatalf("%d failed, %d reported; want %d and %d", c.Failed, len(*failures), MaxReportedFailures+5, MaxReportedFailures)
	}
	if f := (*failures)[0]; f.URI != "http://s/0" || f.Cause != "gone" || f.At.IsZero() {
		t.Errorf("first failure %+v", f)
	}
}

// With OutOfScope set, an entry skipped as out of scope goes to it and to
// the debug log, never to a warning line per entry; a skip for another
// cause still warns.
func TestTallyOutOfScope(t *testing.T) {
	var logs bytes.Buffer
	tl, c, _, _ := newTestTally(false, &logs, nil)
	tl.Log = zerolog.New(&logs).Level(zerolog.InfoLevel)
	var got []string
	tl.OutOfScope = func(uri string, cause error) { got = append(got, uri+": "+cause.Error()) }
	out := fmt.Errorf("%w: on another host", resourcesync.ErrOutOfScope)
	for i := range 3 {
		tl.Add(Skipped, fmt.Sprintf("http://other/%d", i), "", 0, out)
	}
	if len(got) != 3 || got[0] != "http://other/0: out of scope: on another host" || c.Skipped != 3 {
		t.Errorf("told %q, counted %d", got, c.Skipped)
	}
	if logs.Len() != 0 {
		t.Errorf("logged at info or above: %s", logs.String())
	}
	tl.Add(Skipped, "http://s/x", "", 0, errors.New("another cause"))
	if len(got) != 3 || !strings.Contains(logs.String(), `"level":"warn"`) {
		t.Errorf("another cause: told %d, log %s", len(got), logs.String())
	}
}

// A dry run's plan counts each unit once, under the action its outcome
// stands for, with the listed length of what would be downloaded (or the
// unit counted as of unknown length); a real run has no plan.
func TestTallyPlanned(t *testing.T) {
	sized := resourcesync.Version{Length: 7, HasLength: true}
	for _, tc := range []struct {
		o           Outcome
		want        resourcesync.Version
		conditional bool
		cause       error
		plan        resourcesync.Plan
	}{
		{o: Unchanged, plan: resourcesync.Plan{Considered: 1, InStep: 1}},
		{o: Created, want: sized, plan: resourcesync.Plan{Considered: 1, Fetch: 1, Bytes: 7}},
		{o: Created, plan: resourcesync.Plan{Considered: 1, Fetch: 1, UnknownLength: 1}},
		{o: Updated, want: sized, plan: resourcesync.Plan{Considered: 1, Update: 1, Bytes: 7}},
		{o: Updated, want: sized, conditional: true, plan: resourcesync.Plan{Considered: 1, Update: 1, Conditional: 1, Bytes: 7}},
		{o: Deleted, plan: resourcesync.Plan{Considered: 1, Delete: 1}},
		{o: Kept, plan: resourcesync.Plan{Considered: 1, Keep: 1}},
		{o: Skipped, plan: resourcesync.Plan{Considered: 1, OutOfScope: 1}},
		{o: Skipped, cause: resourcesync.ErrLeftOut, plan: resourcesync.Plan{Considered: 1, LeftOut: 1}},
		{o: Failed, plan: resourcesync.Plan{Considered: 1, Fail: 1}},
	} {
		var logs bytes.Buffer
		tl, _, _, _ := newTestTally(true, &logs, nil)
		tl.Planned = &resourcesync.Plan{}
		tl.planned(tc.o, tc.want, tc.conditional, tc.cause)
		if *tl.Planned != tc.plan || tl.Planned.Actions() != tl.Planned.Considered {
			t.Errorf("%v %+v: plan %+v, want %+v", tc.o, tc.want, *tl.Planned, tc.plan)
		}
	}
	var logs bytes.Buffer
	live, _, _, _ := newTestTally(false, &logs, nil)
	live.planned(Created, sized, false, nil) // no plan: nothing to count, no panic
}

// A resource the filters left out is counted apart (LeftOut, not
// Skipped), is not out of scope, and is not warned about: the user asked.
func TestTallyLeftOut(t *testing.T) {
	var logs bytes.Buffer
	tl, c, _, _ := newTestTally(false, &logs, nil)
	tl.Log = zerolog.New(&logs).Level(zerolog.InfoLevel)
	told := 0
	tl.OutOfScope = func(string, error) { told++ }
	f, err := resourcesync.ParseFilter(nil, []string{`\.tmp$`})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		uri := fmt.Sprintf("http://s/%d.tmp", i)
		tl.Add(Skipped, uri, "", 0, f.Check(uri))
	}
	if c.LeftOut != 3 || c.Skipped != 0 || told != 0 || logs.Len() != 0 {
		t.Errorf("left out %d, skipped %d, told %d, logged %q", c.LeftOut, c.Skipped, told, logs.String())
	}
}
