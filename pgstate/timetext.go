package pgstate

import (
	"fmt"
	"time"
)

// timeLayout is how every time is stored (as in the SQLite state): TEXT,
// UTC, fixed width, so that comparing the strings compares the instants.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// formatTime is the stored text of t, clamped to years 0-9999.
func formatTime(t time.Time) string {
	t = t.UTC()
	switch {
	case t.Year() < 0:
		t = time.Date(0, time.January, 1, 0, 0, 0, 0, time.UTC)
	case t.Year() > 9999:
		t = time.Date(9999, time.December, 31, 23, 59, 59, 999999999, time.UTC)
	}
	return t.Format(timeLayout)
}

// nullTime is the column value of t: NULL for the zero time.
func nullTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := formatTime(t)
	return &s
}

// keyTime is a time in a primary key: "" for the zero time.
func keyTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

// parseTime reads a stored time; NULL and "" are the zero time.
func parseTime(s *string) (time.Time, error) {
	if s == nil || *s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(timeLayout, *s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", *s, err)
	}
	return t, nil
}
