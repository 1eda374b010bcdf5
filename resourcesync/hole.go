package resourcesync

import (
	"fmt"
	"slices"
	"time"
)

// Span is the interval a Change List (or a Change Dump package) covers, as
// the index naming it says: From, and Until for a closed one (zero for an
// open one or one whose index does not say).
type Span struct {
	URL         string
	From, Until time.Time
}

// HoleError is a hole in a change history: a closed list ends at Until of
// Before, and the next one starts later, at From of After, so the changes
// made in between are in no list. It matches ErrSafetyStop.
type HoleError struct {
	Index         string // the Change List Index (or Change Dump) naming both
	Before, After string // the list that ends, the list that starts later
	Until, From   time.Time
}

func (e *HoleError) Error() string {
	return fmt.Sprintf("%v: %s lists %s up to %s and then %s from %s: the changes from %s to %s are in no list",
		ErrSafetyStop, e.Index, e.Before, FormatDatetime(e.Until), e.After, FormatDatetime(e.From),
		FormatDatetime(e.Until), FormatDatetime(e.From))
}

// Unwrap makes a HoleError match ErrSafetyStop.
func (e *HoleError) Unwrap() error { return ErrSafetyStop }

// holeSlack is the step a list may leave between its until and the next
// list's from: the standard's own example closes a list at 23:59:59 and
// opens the next at 00:00:00 (§12.2), and datetimes are published to the
// second.
const holeSlack = time.Second

// SortSpans puts spans in forward chronological order by From, which §12.2
// and §13.2 ask of an index but a Source may break; spans without a From
// cannot be placed, and then the index's order is kept.
func SortSpans[T any](items []T, span func(T) Span) {
	if slices.ContainsFunc(items, func(x T) bool { return span(x).From.IsZero() }) {
		return
	}
	slices.SortStableFunc(items, func(a, b T) int { return span(a).From.Compare(span(b).From) })
}

// FindHole returns the first hole of a history whose lists are spans, in
// order, that ends after since (a hole wholly before since cannot hide a
// change still to process), or nil. The lists before each one must reach
// its from: lists may overlap or meet at one instant (within a second).
// After a list whose until is unknown (an open list, an index that does
// not say) nothing is judged, nor is a list whose from is unknown.
func FindHole(index string, spans []Span, since time.Time) *HoleError {
	if len(spans) == 0 {
		return nil
	}
	reach, last := spans[0].Until, spans[0].URL // how far the lists so far reach
	for _, next := range spans[1:] {
		if reach.IsZero() {
			return nil
		}
		if !next.From.IsZero() && next.From.After(since) && next.From.Sub(reach) > holeSlack {
			return &HoleError{Index: index, Before: last, After: next.URL, Until: reach, From: next.From}
		}
		switch {
		case next.Until.IsZero():
			reach = time.Time{}
		case next.Until.After(reach):
			reach, last = next.Until, next.URL
		}
	}
	return nil
}
