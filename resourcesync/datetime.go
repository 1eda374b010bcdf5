package resourcesync

import (
	"errors"
	"fmt"
	"time"
)

// ErrDatetime is wrapped by every error about a malformed W3C datetime.
var ErrDatetime = errors.New("bad datetime")

// ParseDatetime parses a W3C datetime (https://www.w3.org/TR/NOTE-datetime)
// in any of its six forms:
//
//	YYYY
//	YYYY-MM
//	YYYY-MM-DD
//	YYYY-MM-DDThh:mmTZD
//	YYYY-MM-DDThh:mm:ssTZD
//	YYYY-MM-DDThh:mm:ss.sTZD   (one or more fraction digits)
//
// TZD is "Z" or "+hh:mm" / "-hh:mm"; the offset is applied, so the result is
// the instant in UTC (2013-01-03T02:00:00+02:00 is 2013-01-03T00:00:00Z).
// The date-only forms carry no time zone; they mean the start of that year,
// month or day in UTC. Fractions are kept to the nanosecond; further digits
// are dropped. An instant outside the years 0000-9999 in UTC (which an
// offset can make of 9999-12-31 or 0000-01-01) is refused, since it could
// not be written back. Every error wraps ErrDatetime and quotes s.
//
// What the profile leaves open is decided as RFC 3339 (the Internet
// profile of ISO 8601 the W3C note follows) does: "t" and "z" may be lower
// case, and a leap second, hh:mm:60, is accepted where one can occur - at
// 23:59:60 UTC, offsets applied - as the last nanosecond of that minute
// (23:59:59.999999999Z), which keeps it in order with its neighbours. Every
// year from 0000 is accepted; the first instant of year 1
// (0001-01-01T00:00:00Z, and 0001, 0001-01, 0001-01-01) is read as one
// nanosecond later, because Go's zero time, which it is, means "no time"
// throughout resync-dest (an absent lastmod): read as itself, a copy with
// that lastmod would never be found in step.
func ParseDatetime(s string) (time.Time, error) {
	return parseDatetimeOf(s)
}

// parseDatetimeOf is ParseDatetime for strings and byte slices alike, so that
// the Reader parses lastmod straight from its buffer without copying it into
// a string first.
func parseDatetimeOf[T ~string | ~[]byte](s T) (time.Time, error) {
	t, err := parseDatetime(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w %q: %s", ErrDatetime, string(s), err.Error())
	}
	return t, nil
}

type dtErr string

func (e dtErr) Error() string { return string(e) }

func parseDatetime[T ~string | ~[]byte](s T) (time.Time, error) {
	p := dtParser[T]{s: s}
	year := p.digits(4, "year")
	month, day := 1, 1
	if p.err == nil && p.more() {
		p.expect('-', "'-' after the year")
		month = p.digits(2, "month")
		if p.err == nil && p.more() {
			p.expect('-', "'-' after the month")
			day = p.digits(2, "day")
		}
	}
	hour, min, sec, nsec := 0, 0, 0, 0
	offset := 0
	if p.err == nil && p.more() {
		if p.peek() == 't' {
			p.i++ // RFC 3339 §5.6: "T" may be lower case
		} else {
			p.expect('T', "'T' before the time")
		}
		hour = p.digits(2, "hour")
		p.expect(':', "':' after the hour")
		min = p.digits(2, "minute")
		if p.err == nil && p.peek() == ':' {
			p.i++
			sec = p.digits(2, "second")
			if p.err == nil && p.peek() == '.' {
				p.i++
				nsec = p.fraction()
			}
		}
		offset = p.zone()
		if p.err == nil && p.more() {
			p.err = dtErr(fmt.Sprintf("unexpected %q after the time zone", string(s[p.i:])))
		}
	}
	if p.err != nil {
		return time.Time{}, p.err
	}
	switch {
	case month < 1 || month > 12:
		return time.Time{}, dtErr("month out of range")
	case day < 1 || day > daysIn(month, year):
		return time.Time{}, dtErr("day out of range")
	case hour > 23:
		return time.Time{}, dtErr("hour out of range")
	case min > 59:
		return time.Time{}, dtErr("minute out of range")
	case sec > 60:
		return time.Time{}, dtErr("second out of range")
	}
	leap := sec == 60
	if leap {
		sec, nsec = 59, 999_999_999
	}
	t := time.Date(year, time.Month(month), day, hour, min, sec, nsec, time.UTC)
	t = t.Add(-time.Duration(offset) * time.Second)
	if leap && (t.Hour() != 23 || t.Minute() != 59) {
		return time.Time{}, dtErr("second out of range (60 is a leap second, only at 23:59:60 UTC)")
	}
	if y := t.Year(); y < 0 || y > 9999 {
		// An offset can push 0000-01-01 or 9999-12-31 out of the
		// four-digit years: such an instant could not be written back.
		return time.Time{}, dtErr("outside the years 0000-9999 in UTC")
	}
	if t.IsZero() {
		t = t.Add(time.Nanosecond) // see ParseDatetime: zero means "no time"
	}
	return t, nil
}

type dtParser[T ~string | ~[]byte] struct {
	s   T
	i   int
	err error
}

func (p *dtParser[T]) more() bool { return p.i < len(p.s) }

func (p *dtParser[T]) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *dtParser[T]) expect(c byte, what string) {
	if p.err != nil {
		return
	}
	if p.peek() != c {
		p.err = dtErr("expected " + what)
		return
	}
	p.i++
}

func (p *dtParser[T]) digits(n int, what string) int {
	if p.err != nil {
		return 0
	}
	v := 0
	for k := 0; k < n; k++ {
		c := p.peek()
		if c < '0' || c > '9' {
			p.err = dtErr(fmt.Sprintf("%s needs %d digits", what, n))
			return 0
		}
		v = v*10 + int(c-'0')
		p.i++
	}
	return v
}

func (p *dtParser[T]) fraction() int {
	start := p.i
	ns, scale := 0, 100000000
	for p.more() && p.peek() >= '0' && p.peek() <= '9' {
		if scale > 0 {
			ns += int(p.peek()-'0') * scale
			scale /= 10
		}
		p.i++
	}
	if p.i == start {
		p.err = dtErr("fraction of a second needs at least one digit")
	}
	return ns
}

// zone parses TZD and returns the offset east of UTC in seconds.
func (p *dtParser[T]) zone() int {
	if p.err != nil {
		return 0
	}
	switch c := p.peek(); c {
	case 'Z', 'z': // RFC 3339 §5.6: "Z" may be lower case
		p.i++
		return 0
	case '+', '-':
		p.i++
		h := p.digits(2, "time zone hour")
		p.expect(':', "':' in the time zone")
		m := p.digits(2, "time zone minute")
		if p.err != nil {
			return 0
		}
		if h > 23 || m > 59 {
			p.err = dtErr("time zone offset out of range")
			return 0
		}
		off := h*3600 + m*60
		if c == '-' {
			off = -off
		}
		return off
	case 0:
		p.err = dtErr("a time needs a time zone (Z or ±hh:mm)")
	default:
		p.err = dtErr("expected a time zone (Z or ±hh:mm)")
	}
	return 0
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// FormatDatetime writes t as a complete W3C datetime in UTC, the form the
// standard recommends: YYYY-MM-DDThh:mm:ss[.s]Z, with the fraction only as
// long as t needs.
func FormatDatetime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.999999999Z")
}
