package incremental_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// Issue 16, a Change List without from: where the history starts is
// unknown, so the list's own changes must reach back to the cursor;
// otherwise it is a gap, and nothing is changed.
func TestChangeListWithoutFrom(t *testing.T) {
	date := resourcesync.FormatDatetime
	for _, tc := range []struct {
		name string
		at   time.Duration // of the list's one change, after the cursor; <0: no change
		gap  bool
	}{
		{"its changes reach back to the cursor", 0, false},
		{"its changes start after the cursor", time.Hour, true},
		{"it lists no change", -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.baseline()
			x := h.Src.Resources(0)[1]
			cursor := h.state().Cursor
			var entries []rawChange
			if tc.at >= 0 {
				entries = append(entries, rawChange{x.URI, date(cursor.Add(tc.at)), "updated", md(x)})
			}
			doc := bytes.Replace(rawChangeList("X", entries...), []byte(` from="X"`), nil, 1)
			h.Src.SetRaw("/dataset1/changelist.xml", "application/xml", doc)
			sum, err := h.run(nil)
			if !sum.HistoryUnknown {
				t.Errorf("history_unknown not said: %+v", sum)
			}
			gap, isGap := errors.AsType[*incremental.GapError](err)
			if isGap != tc.gap || (isGap && (!gap.NoFrom || !errors.Is(err, resourcesync.ErrSafetyStop))) {
				t.Fatalf("err = %v, want a gap %v", err, tc.gap)
			}
			if tc.gap && (sum.Applied != 0 || !h.state().Cursor.Equal(cursor)) {
				t.Errorf("a gap changed something: %+v", sum)
			}
		})
	}
}
