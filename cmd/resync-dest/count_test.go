package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
)

// discover --count reads each set's Resource List (an index's parts too)
// and gives its number of resources and the sum of the listed lengths,
// entries without a length counted apart; text and --json.
func TestDiscoverCount(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2; s.ListMax = 7 }) // 20 per set: indexes of 3 parts
	var sizes [2]int64
	for k := range sizes {
		for _, r := range src.Resources(k) {
			sizes[k] += r.Size
		}
	}
	// The second set's list, replaced: two entries without a length.
	second := src.Resources(1)
	src.SetRaw("/dataset2/resourcelist.xml", "application/xml", hostileList([]string{second[0].URI, second[1].URI}))

	r := runCLI(t, "discover", "--count", srv.URL).want(t, 0)
	contains(t, r.stdout, "Size, as the Resource Lists give it",
		fmt.Sprintf("20 resources, %s listed", humanBytes(sizes[0])),
		"2 resources, 0 B listed (and 2 of unknown length)",
		"total", fmt.Sprintf("22 resources, %s listed (and 2 of unknown length)", humanBytes(sizes[0])))

	r = runCLI(t, "discover", "--count", "--json", srv.URL).want(t, 0)
	var doc struct {
		Sets   []json.RawMessage `json:"sets"`
		Counts []setCount        `json:"counts"`
	}
	if err := resultOf(r.stdout, &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(doc.Sets) != 2 || len(doc.Counts) != 2 {
		t.Fatalf("%d sets, %d counts:\n%s", len(doc.Sets), len(doc.Counts), r.stdout)
	}
	if c := doc.Counts[0]; c.Resources != 20 || c.Bytes != sizes[0] || c.UnknownLength != 0 || c.Error != "" || c.ResourceList == "" {
		t.Errorf("first set %+v, want 20 resources, %d bytes", c, sizes[0])
	}
	if c := doc.Counts[1]; c.Resources != 2 || c.Bytes != 0 || c.UnknownLength != 2 {
		t.Errorf("second set %+v", c)
	}

	// Without --count, nothing is read beyond discovery.
	src.ResetCounts()
	r = runCLI(t, "discover", "--json", srv.URL).want(t, 0)
	if n := src.Requests("/dataset1/resourcelist.xml"); n != 0 {
		t.Errorf("discover without --count read the Resource List %d times", n)
	}
	var plain map[string]json.RawMessage
	if err := resultOf(r.stdout, &plain); err != nil || plain["counts"] != nil || plain["sets"] == nil {
		t.Errorf("without --count: %s, %v", r.stdout, err)
	}

	// A list that cannot be read: its set says why, exit 1.
	src.SetNotFound("/dataset2/resourcelist.xml")
	r = runCLI(t, "discover", "--count", "--max-retry-wait", "5ms", srv.URL).want(t, exitFatal)
	contains(t, r.stdout, "cannot count", "404")
}
