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
