package transfer

import "testing"

func TestParseDeleteLimit(t *testing.T) {
	tests := []struct {
		in        string
		n, total  int64
		allows    bool
		wantError bool
	}{
		{"10%", 10, 100, true, false},
		{"10%", 11, 100, false, false},
		{"10%", 1, 0, false, false},
		{"100%", 5, 0, true, false},
		{"0", 0, 10, true, false},
		{"0", 1, 10, false, false},
		{"25", 25, 10, true, false},
		{"-1", 0, 0, false, true},
		{"101%", 0, 0, false, true},
		{"x%", 0, 0, false, true},
		{"", 0, 0, false, true},
	}
	for _, tt := range tests {
		l, err := ParseDeleteLimit(tt.in)
		if (err != nil) != tt.wantError {
			t.Errorf("ParseDeleteLimit(%q) error %v", tt.in, err)
			continue
		}
		if err == nil && l.Allows(tt.n, tt.total) != tt.allows {
			t.Errorf("%q allows %d of %d = %v", tt.in, tt.n, tt.total, !tt.allows)
		}
	}
}

func TestDeleteLimitAll(t *testing.T) {
	for in, want := range map[string]bool{"100%": true, "99.9%": false, "10%": false, "0": false, "1000000": false, "0%": false} {
		l, err := ParseDeleteLimit(in)
		if err != nil {
			t.Fatal(err)
		}
		if l.All() != want {
			t.Errorf("%q.All() = %v", in, !want)
		}
		// All promises that no count within its total is refused.
		if l.All() && (!l.Allows(7, 7) || !l.Allows(1, 1)) {
			t.Errorf("%q.All() but refuses n = total", in)
		}
	}
}
