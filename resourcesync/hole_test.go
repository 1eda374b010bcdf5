package resourcesync

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Issue 22, item 5b: each list of an index must reach back to where the
// lists before it end; the standard's own legitimate shapes are not holes.
func TestHistoryHoles(t *testing.T) {
	const (
		jan1  = `from="2013-01-01T00:00:00Z" until="2013-01-02T00:00:00Z"`
		jan2  = `from="2013-01-02T00:00:00Z" until="2013-01-03T00:00:00Z"`
		jan5  = `from="2013-01-05T00:00:00Z" until="2013-01-06T00:00:00Z"`
		open3 = `from="2013-01-03T00:00:00Z"`
		open6 = `from="2013-01-06T00:00:00Z"`
	)
	jan := func(d, h, m, s int) time.Time { return time.Date(2013, 1, d, h, m, s, 0, time.UTC) }
	for _, tc := range []struct {
		name  string
		parts []string // md of cl1.xml, cl2.xml, ... in index order
		since time.Time
		hole  string // "before after" lists of the hole; "" for none
	}{
		{"lists meet at one instant", []string{jan1, jan2, open3}, jan(1, 0, 0, 0), ""},
		{"a list closed at 23:59:59, the next from 00:00:00 (§12.2's example)",
			[]string{`from="2013-01-01T00:00:00Z" until="2013-01-01T23:59:59Z"`, jan2}, jan(1, 0, 0, 0), ""},
		{"overlapping lists", []string{`from="2013-01-01T00:00:00Z" until="2013-01-04T00:00:00Z"`, jan2, open3}, jan(1, 0, 0, 0), ""},
		{"listed out of order", []string{open3, jan2, jan1}, jan(1, 0, 0, 0), ""},
		{"an open list is the last", []string{jan1, jan2, open3}, jan(2, 12, 0, 0), ""},
		{"three days lost", []string{jan1, jan5, open6}, jan(1, 0, 0, 0), "cl1 cl2"},
		{"three days lost, listed out of order", []string{open6, jan5, jan1}, jan(1, 0, 0, 0), "cl3 cl2"},
		{"a lost list later in the history", []string{jan1, jan2, open6}, jan(1, 0, 0, 0), "cl2 cl3"},
		{"a hole before the cursor is history", []string{jan1, jan5, open6}, jan(5, 12, 0, 0), ""},
		{"a hole ending after the cursor", []string{jan1, jan5, open6}, jan(3, 0, 0, 0), "cl1 cl2"},
		{"a list whose index gives no interval is not judged",
			[]string{jan1, `lastmod="2013-01-09T00:00:00Z"`, open6}, jan(1, 0, 0, 0), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &docs{m: map[string]string{}}
			var refs []string
			for i, md := range tc.parts {
				u := "http://e/cl" + string(rune('1'+i)) + ".xml"
				refs = append(refs, part(u, md))
				d.m[u] = changeList(md)
			}
			d.m["http://e/cl.xml"] = index(`from="2013-01-01T00:00:00Z"`, refs...)
			_, parts, err := readAllHistory(t, d, "http://e/cl.xml", HistoryOptions{Since: tc.since})
			var hole *HoleError
			if tc.hole == "" {
				if err != nil {
					t.Fatal(err)
				}
				for i := 1; i < len(parts); i++ {
					if !parts[i-1].From.IsZero() && !parts[i].From.IsZero() && parts[i].From.Before(parts[i-1].From) {
						t.Errorf("lists read out of order: %s before %s", parts[i-1].URL, parts[i].URL)
					}
				}
				return
			}
			if !errors.As(err, &hole) || !errors.Is(err, ErrSafetyStop) {
				t.Fatalf("err %v, want a hole (a safety stop)", err)
			}
			want := strings.Fields(tc.hole)
			if hole.Before != "http://e/"+want[0]+".xml" || hole.After != "http://e/"+want[1]+".xml" {
				t.Errorf("hole between %s and %s, want %v", hole.Before, hole.After, want)
			}
			for _, s := range []string{hole.Before, hole.After, FormatDatetime(hole.Until), FormatDatetime(hole.From), "in no list"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not name %s", err, s)
				}
			}
			if len(d.opened) != 1 {
				t.Errorf("lists read before the hole was found: %v", d.opened)
			}
		})
	}
}
