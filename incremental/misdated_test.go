package incremental_test

import (
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/incremental"
)

// Issue 22, item 5a, against an injected clock: a change dated after the
// run's time is applied and counted, and the cursor stops at the run's
// time (the open list's bound), not at the change's date. The next run at
// the same time finds the misdated change already applied.
func TestMisdatedChangesKeepTheCursor(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	rs := h.Src.Resources(0)
	x, y := rs[1], rs[2]
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", rawChangeList("2024-01-01T00:00:00Z",
		rawChange{x.URI, "2024-01-02T00:00:00Z", "updated", md(x)},
		rawChange{y.URI, "9999-01-01T00:00:00Z", "updated", md(y)},
	))
	at := func(o *incremental.Options) { o.Now = func() time.Time { return now } }
	sum := h.mustRun(at)
	if sum.Applied != 2 || sum.Misdated != 1 || sum.ChangesFailed != 0 {
		t.Fatalf("%+v", sum)
	}
	if c := h.state().Cursor; !c.Equal(now) || !sum.Cursor.Equal(now) {
		t.Fatalf("cursor %v (summary %v), want the run's time %v", c, sum.Cursor, now)
	}
	h.assertIdentical()
	again := h.mustRun(at)
	if again.Applied != 0 || again.AlreadyDone != 1 || again.Misdated != 1 {
		t.Errorf("the next run: %+v", again)
	}
	if c := h.state().Cursor; !c.Equal(now) {
		t.Errorf("cursor %v after the next run, want %v", c, now)
	}
}
