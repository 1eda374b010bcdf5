package state

import (
	"database/sql"
	"testing"
	"time"
)

func TestFormatTime(t *testing.T) {
	tests := []struct {
		name string
		in   time.Time
		want string
	}{
		{"utc", time.Date(2013, 1, 3, 9, 0, 0, 0, time.UTC), "2013-01-03T09:00:00.000000000Z"},
		{"offset applied", time.Date(2013, 1, 3, 2, 0, 0, 5, time.FixedZone("+02", 7200)), "2013-01-03T00:00:00.000000005Z"},
		{"year 0", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "0000-01-01T00:00:00.000000000Z"},
		{"before year 0 clamps", time.Date(0, 1, 1, 0, 0, 0, 0, time.FixedZone("+14", 14*3600)), "0000-01-01T00:00:00.000000000Z"},
		{"after 9999 clamps", time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("-12", -12*3600)), "9999-12-31T23:59:59.999999999Z"},
	}
	for _, tt := range tests {
		if got := formatTime(tt.in); got != tt.want {
			t.Errorf("%s: formatTime = %q, want %q", tt.name, got, tt.want)
		}
	}
	if nullTime(time.Time{}) != nil || keyTime(time.Time{}) != "" {
		t.Error("zero time is not NULL / empty key")
	}
	for _, s := range []sql.NullString{{}, {Valid: true}} {
		if got, err := parseTime(s); err != nil || !got.IsZero() {
			t.Errorf("parseTime(%+v) = %v, %v; want zero", s, got, err)
		}
	}
	if _, err := parseTime(sql.NullString{String: "yesterday", Valid: true}); err == nil {
		t.Error("parseTime accepted garbage")
	}
}

// Stored text round-trips to the same instant and sorts as the instants do.
func FuzzTimeText(f *testing.F) {
	f.Add(int64(0), int64(0), int64(1), int64(0))
	f.Add(int64(1357174800), int64(999999999), int64(1357174800), int64(1))
	f.Add(int64(-62167219200), int64(0), int64(253402300799), int64(999999999))
	f.Fuzz(func(t *testing.T, s1, n1, s2, n2 int64) {
		a := time.Unix(s1, n1%1e9).UTC()
		b := time.Unix(s2, n2%1e9).UTC()
		if a.Year() < 0 || a.Year() > 9999 || b.Year() < 0 || b.Year() > 9999 {
			t.Skip("outside the representable years (clamped, tested apart)")
		}
		ta, tb := formatTime(a), formatTime(b)
		if len(ta) != len(timeLayout) || len(tb) != len(timeLayout) {
			t.Fatalf("not fixed width: %q %q", ta, tb)
		}
		if want := a.Format(timeLayout); ta != want {
			t.Fatalf("formatTime(%v) = %q, time.Format %q", a, ta, want)
		}
		back, ok := parseFixed(ta)
		if !ok || !back.Equal(a) {
			t.Fatalf("round trip of %v: %v, %v", a, back, ok)
		}
		if (ta < tb) != a.Before(b) || (ta == tb) != a.Equal(b) {
			t.Fatalf("order differs: %v %v -> %q %q", a, b, ta, tb)
		}
	})
}

// What parseFixed accepts, time.Parse(timeLayout, ...) accepts too, as the
// same instant; what parseFixed refuses falls back to time.Parse, which is
// laxer (it takes a signed fraction such as ".-00000000"), so the reverse
// is checked only on the form formatTime writes (FuzzTimeText).
func FuzzParseFixed(f *testing.F) {
	for _, s := range []string{
		"2013-01-03T09:00:00.000000000Z", "0000-01-01T00:00:00.000000000Z", "9999-12-31T23:59:59.999999999Z",
		"2024-02-29T00:00:00.000000000Z", "2023-02-29T00:00:00.000000000Z", "2013-13-03T09:00:00.000000000Z",
		"2013-01-03T24:00:00.000000000Z", "2013-01-03T09:60:00.000000000Z", "2013-01-03T09:00:60.000000000Z",
		"2013-01-00T09:00:00.000000000Z", "2013-01-03 09:00:00.000000000Z", "2013-01-03T09:00:00.00000000Z",
		"2013-01-03T09:00:00.0000000000", "+013-01-03T09:00:00.000000000Z", "2013-01-03T09:00:00.-00000000Z", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast, ok := parseFixed(s)
		slow, err := time.Parse(timeLayout, s)
		if ok && err != nil {
			t.Fatalf("parseFixed(%q) accepted what time.Parse refuses: %v", s, err)
		}
		if ok && !fast.Equal(slow) {
			t.Fatalf("parseFixed(%q) = %v, time.Parse = %v", s, fast, slow)
		}
	})
}
