package resourcesync

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// datetimeCases are W3C datetimes and what they mean (RFC 3339 in UTC), or
// the message they fail with.
var datetimeCases = []struct {
	in   string
	want string // RFC 3339 with nanoseconds, UTC; empty for an error
	err  string // part of the error message
}{
	// The six forms.
	{in: "2013", want: "2013-01-01T00:00:00Z"},
	{in: "2013-07", want: "2013-07-01T00:00:00Z"},
	{in: "2013-07-16", want: "2013-07-16T00:00:00Z"},
	{in: "2013-07-16T19:20Z", want: "2013-07-16T19:20:00Z"},
	{in: "2013-07-16T19:20:30Z", want: "2013-07-16T19:20:30Z"},
	{in: "2013-07-16T19:20:30.45Z", want: "2013-07-16T19:20:30.45Z"},
	// Offsets of both signs are applied.
	{in: "2013-01-03T02:00:00+02:00", want: "2013-01-03T00:00:00Z"},
	{in: "2013-01-03T02:00+02:00", want: "2013-01-03T00:00:00Z"},
	{in: "2013-01-02T19:00:00-05:00", want: "2013-01-03T00:00:00Z"},
	{in: "2013-01-03T00:15:00+05:30", want: "2013-01-02T18:45:00Z"},
	{in: "2013-01-03T00:00:00-00:00", want: "2013-01-03T00:00:00Z"},
	{in: "2013-12-31T23:30:00-01:00", want: "2014-01-01T00:30:00Z"},
	// Sub-second precision is kept to the nanosecond.
	{in: "2013-01-03T09:00:00.1Z", want: "2013-01-03T09:00:00.1Z"},
	{in: "2013-01-03T09:00:00.123456789Z", want: "2013-01-03T09:00:00.123456789Z"},
	{in: "2013-01-03T09:00:00.1234567891Z", want: "2013-01-03T09:00:00.123456789Z"},
	{in: "2013-01-03T09:00:00.000001+01:00", want: "2013-01-03T08:00:00.000001Z"},
	// Leap years.
	{in: "2012-02-29", want: "2012-02-29T00:00:00Z"},
	{in: "2000-02-29", want: "2000-02-29T00:00:00Z"},
	{in: "1900-02-29", err: "day out of range"},
	{in: "2013-02-29", err: "day out of range"},
	// Invalid forms.
	{in: "", err: "year needs 4 digits"},
	{in: "13-01-01", err: "year needs 4 digits"},
	{in: "2013-1-01", err: "month needs 2 digits"},
	{in: "2013-13-01", err: "month out of range"},
	{in: "2013-00-01", err: "month out of range"},
	{in: "2013-04-31", err: "day out of range"},
	{in: "2013-01-00", err: "day out of range"},
	{in: "2013/01/01", err: "'-' after the year"},
	{in: "2013-01-03 10:00:00Z", err: "'T' before the time"},
	{in: "2013-01-03Z", err: "'T' before the time"},
	{in: "2013-01-03T10Z", err: "':' after the hour"},
	{in: "2013-01-03T24:00:00Z", err: "hour out of range"},
	{in: "2013-01-03T10:60Z", err: "minute out of range"},
	{in: "2013-01-03T10:00:60Z", err: "60 is a leap second, only at 23:59:60 UTC"},
	{in: "2013-01-03T10:00:61Z", err: "second out of range"},
	{in: "2013-01-03T23:59:61Z", err: "second out of range"},
	// Leap seconds where they can occur: the last nanosecond of the minute.
	{in: "2016-12-31T23:59:60Z", want: "2016-12-31T23:59:59.999999999Z"},
	{in: "2016-12-31T23:59:60.5Z", want: "2016-12-31T23:59:59.999999999Z"},
	{in: "2017-01-01T00:59:60+01:00", want: "2016-12-31T23:59:59.999999999Z"},
	{in: "2016-12-31T23:59:60+01:00", err: "only at 23:59:60 UTC"},
	// Lower-case t and z (RFC 3339 §5.6).
	{in: "2013-07-16t19:20:30z", want: "2013-07-16T19:20:30Z"},
	{in: "2013-07-16T19:20z", want: "2013-07-16T19:20:00Z"},
	// The first instant of year 1 is Go's zero time, which means "no
	// time": it is read one nanosecond later.
	{in: "0001-01-01T00:00:00Z", want: "0001-01-01T00:00:00.000000001Z"},
	{in: "0001", want: "0001-01-01T00:00:00.000000001Z"},
	{in: "0001-01-01T00:00:00.000000001Z", want: "0001-01-01T00:00:00.000000001Z"},
	{in: "0001-01-01T00:00:01Z", want: "0001-01-01T00:00:01Z"},
	{in: "2013-01-03T10:00:00", err: "needs a time zone"},
	{in: "2013-01-03T10:00:00+0200", err: "':' in the time zone"},
	{in: "2013-01-03T10:00:00+24:00", err: "time zone offset out of range"},
	{in: "2013-01-03T10:00:00.Z", err: "at least one digit"},
	{in: "2013-01-03T10:00:00ZZ", err: `unexpected "Z" after the time zone`},
	{in: "2013-01-03T10:00:00 Z", err: "expected a time zone"},
	{in: "2013-01-03x10:00:00Z", err: "'T' before the time"},
	{in: "2013-01-03T10:00:00Zz", err: `unexpected "z" after the time zone`},
	{in: "yesterday", err: "year needs 4 digits"},
	{in: "9999-12-31T23:00:00-01:00", err: "outside the years 0000-9999"},
	{in: "0000-01-01T00:00:00+00:01", err: "outside the years 0000-9999"},
	{in: "0000-01-01T00:00:00Z", want: "0000-01-01T00:00:00Z"},
	{in: "9999-12-31T23:59:59.999999999Z", want: "9999-12-31T23:59:59.999999999Z"},
}

func TestParseDatetime(t *testing.T) {
	for _, tc := range datetimeCases {
		got, err := ParseDatetime(tc.in)
		if tc.err != "" {
			if err == nil {
				t.Errorf("ParseDatetime(%q) = %v, want an error with %q", tc.in, got, tc.err)
			} else if !errors.Is(err, ErrDatetime) || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), `"`+tc.in+`"`) {
				t.Errorf("ParseDatetime(%q) error %q, want ErrDatetime naming the input and %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseDatetime(%q): %v", tc.in, err)
			continue
		}
		if s := got.Format(time.RFC3339Nano); s != tc.want || got.Location() != time.UTC {
			t.Errorf("ParseDatetime(%q) = %s (%v), want %s in UTC", tc.in, s, got.Location(), tc.want)
		}
		// The []byte path the Reader uses agrees.
		if b, err := parseDatetimeOf([]byte(tc.in)); err != nil || !b.Equal(got) {
			t.Errorf("parseDatetimeOf([]byte(%q)) = %v, %v; want %v", tc.in, b, err, got)
		}
	}
}

func TestParseDatetimeOrder(t *testing.T) {
	for _, tc := range []struct{ earlier, later string }{
		{"2013-01-03T02:00+02:00", "2013-01-03T01:30Z"},
		{"2013-01-03T01:30Z", "2013-01-02T21:00-05:00"},
		{"2013-01-03T09:00:00.1Z", "2013-01-03T09:00:00.2Z"},
		{"2013-01-03", "2013-01-03T00:00:00.000000001Z"},
	} {
		a, err1 := ParseDatetime(tc.earlier)
		b, err2 := ParseDatetime(tc.later)
		if err1 != nil || err2 != nil {
			t.Fatalf("%v %v", err1, err2)
		}
		if !a.Before(b) {
			t.Errorf("%s (%v) is not before %s (%v)", tc.earlier, a, tc.later, b)
		}
	}
	a, _ := ParseDatetime("2013-01-03T02:00:00+02:00")
	b, _ := ParseDatetime("2013-01-03T00:00:00Z")
	if !a.Equal(b) || a != b {
		t.Errorf("2013-01-03T02:00:00+02:00 = %v, want the same time.Time as 2013-01-03T00:00:00Z = %v", a, b)
	}
}

func TestFormatDatetime(t *testing.T) {
	plus2 := time.FixedZone("", 2*3600)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2013, 1, 3, 9, 0, 0, 0, time.UTC), "2013-01-03T09:00:00Z"},
		{time.Date(2013, 1, 3, 2, 0, 0, 0, plus2), "2013-01-03T00:00:00Z"},
		{time.Date(2013, 1, 3, 9, 0, 0, 500_000_000, time.UTC), "2013-01-03T09:00:00.5Z"},
		{time.Date(2013, 1, 3, 9, 0, 0, 1, time.UTC), "2013-01-03T09:00:00.000000001Z"},
		{time.Date(2013, 1, 1, 0, 30, 0, 0, time.FixedZone("", -3600)), "2013-01-01T01:30:00Z"},
	} {
		if got := FormatDatetime(tc.t); got != tc.want {
			t.Errorf("FormatDatetime(%v) = %s, want %s", tc.t, got, tc.want)
		}
		back, err := ParseDatetime(FormatDatetime(tc.t))
		if err != nil || !back.Equal(tc.t) {
			t.Errorf("ParseDatetime(FormatDatetime(%v)) = %v, %v", tc.t, back, err)
		}
	}
}
