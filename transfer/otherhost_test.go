package transfer

import "testing"

// The credentials follow a memento only to the resource's own server, as
// resourcesync.HostPort names it: a default port written out or with
// leading zeros is the same server, another scheme or port is not.
func TestOtherHost(t *testing.T) {
	for _, c := range []struct {
		href, uri string
		other     bool
	}{
		{"https://s.example/m/1", "https://s.example/r", false},
		{"https://S.example:443/m/1", "https://s.example/r", false},
		{"https://s.example:0443/m/1", "https://s.example/r", false},
		{"http://s.example/m/1", "https://s.example/r", true},
		{"https://s.example:8443/m/1", "https://s.example/r", true},
		{"https://archive.example/m/1", "https://s.example/r", true},
		{"://bad", "https://s.example/r", true},
	} {
		if got := otherHost(c.href, c.uri); got != c.other {
			t.Errorf("otherHost(%q, %q) = %v, want %v", c.href, c.uri, got, c.other)
		}
	}
}
