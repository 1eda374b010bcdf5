package state

import (
	"database/sql"
	"fmt"
	"time"
)

// timeLayout is how every time is stored: TEXT, UTC, fixed width, so that
// comparing the strings compares the instants (indexes and range queries
// rely on it).
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// formatTime is the stored text of t. Instants before year 0 or after 9999
// (reachable only through a W3C datetime offset applied at the very ends of
// its range) are clamped to the nearest one the fixed-width text can
// express, so that a hostile lastmod cannot break the ordering.
func formatTime(t time.Time) string {
	t = t.UTC()
	switch {
	case t.Year() < 0:
		t = time.Date(0, time.January, 1, 0, 0, 0, 0, time.UTC)
	case t.Year() > 9999:
		t = time.Date(9999, time.December, 31, 23, 59, 59, 999999999, time.UTC)
	}
	// Written digit by digit, as parseFixed reads it: every record a
	// commit writes formats two or three times, and time.Format, which
	// interprets its layout each call, was a twentieth of a commit's CPU.
	var b [len(timeLayout)]byte
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	for _, f := range [...]struct{ at, width, v int }{
		{0, 4, year}, {5, 2, int(month)}, {8, 2, day}, {11, 2, hour}, {14, 2, minute}, {17, 2, sec}, {20, 9, t.Nanosecond()},
	} {
		v := f.v
		for i := f.at + f.width - 1; i >= f.at; i-- {
			b[i] = byte('0' + v%10)
			v /= 10
		}
	}
	b[4], b[7], b[10], b[13], b[16], b[19], b[29] = '-', '-', 'T', ':', ':', '.', 'Z'
	return string(b[:])
}

// nullTime is the column value of t: NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

// keyTime is the value of a time that is part of a primary key, where NULL
// is not allowed: "" for the zero time, which sorts before every instant as
// the zero time does.
func keyTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

// parseTime reads a stored time; NULL and "" are the zero time.
func parseTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return ParseTimeText(s.String)
}

// FormatTime is the stored text of t, for the other state adapter
// (pgstate), so that both store every time alike.
func FormatTime(t time.Time) string { return formatTime(t) }

// ParseTimeText reads the stored text of a time; "" is the zero time.
func ParseTimeText(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, ok := parseFixed(s); ok {
		return t, nil
	}
	// Only time.Parse says well why the text is not a stored time.
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

// parseFixed is time.Parse(timeLayout, s) without its generality: every
// Held lookup reads two times, and this is several times faster. It
// reports false for anything it does not accept, and parseTime then asks
// time.Parse (FuzzParseFixed checks that they agree where both accept).
func parseFixed(s string) (time.Time, bool) {
	if len(s) != len(timeLayout) || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
		s[13] != ':' || s[16] != ':' || s[19] != '.' || s[29] != 'Z' {
		return time.Time{}, false
	}
	ok := true
	num := func(i, j int) int {
		n := 0
		for _, c := range []byte(s[i:j]) {
			if c < '0' || c > '9' {
				ok = false
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	year, month, day := num(0, 4), num(5, 7), num(8, 10)
	hour, minute, sec, nsec := num(11, 13), num(14, 16), num(17, 19), num(20, 29)
	if !ok || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // February 30th and the like roll over
		return time.Time{}, false
	}
	return t, true
}
