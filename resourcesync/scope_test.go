package resourcesync

import (
	"errors"
	"net/url"
	"testing"
)

func TestHostPort(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://Example.ORG/x", "example.org:80"},
		{"https://example.org/x", "example.org:443"},
		{"https://example.org:0443/x", "example.org:443"},
		{"https://example.org:443/x", "example.org:443"},
		{"http://example.org:080/", "example.org:80"},
		{"http://example.org:8080/", "example.org:8080"},
		{"HTTPS://example.org/", "example.org:443"},
		{"http://[::1]:08080/", "[::1]:8080"},
		{"https://[::1]/", "[::1]:443"},
		{"http://example.org:99999/", "example.org:99999"}, // no real port: matches nothing real
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := HostPort(u); got != tt.want {
			t.Errorf("HostPort(%s) = %s, want %s", tt.url, got, tt.want)
		}
	}
}

func TestScopeCheck(t *testing.T) {
	s := NewScope([]string{"https://src.example/capabilitylist.xml", "http://docs.example:8080/rl.xml"},
		[]string{"Allowed.example", "pinned.example:0009", "[::1]:8443"})
	tests := []struct {
		uri string
		in  bool
	}{
		{"https://src.example/r/1", true},
		{"https://src.example:443/r/1", true},
		{"https://src.example:0443/r/1", true}, // the same server as :443
		{"https://SRC.example/r/1", true},
		{"http://src.example/r/1", false}, // another port: 80
		{"https://src.example:8443/r/1", false},
		{"http://docs.example:08080/r", true},
		{"http://allowed.example:1234/r", true},
		{"https://allowed.example/r", true},
		{"http://pinned.example:9/r", true},
		{"http://pinned.example:09/r", true},
		{"http://pinned.example:10/r", false},
		{"https://[::1]:8443/r", true},
		{"https://[::1]/r", false},
		{"http://evil.example/r", false},
		{"http://src.example@evil.example/r", false},
		{"file:///etc/passwd", false},
		{"//src.example/r", false},
	}
	for _, tt := range tests {
		err := s.Check(tt.uri)
		if (err == nil) != tt.in {
			t.Errorf("Check(%s) = %v, want in scope %v", tt.uri, err, tt.in)
		}
		if err != nil && !errors.Is(err, ErrOutOfScope) {
			t.Errorf("Check(%s) = %v, not ErrOutOfScope", tt.uri, err)
		}
	}
}
