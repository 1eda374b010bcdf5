package pgstate

import (
	"time"

	"github.com/resync-dest/resync-dest/state"
)

// Times are stored as the SQLite state stores them (state.FormatTime):
// TEXT, UTC, fixed width, so that comparing the strings compares the
// instants. These adapt its text to pgx's NULLs.

// formatTime is the stored text of t.
func formatTime(t time.Time) string { return state.FormatTime(t) }

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
	if s == nil {
		return time.Time{}, nil
	}
	return state.ParseTimeText(*s)
}
