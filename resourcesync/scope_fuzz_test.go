package resourcesync

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// FuzzScopeCheck feeds Scope.Check the locs a hostile list may carry
// (README "Guarantees", out-of-authority resources): whatever the string,
// Check does not panic, refuses with ErrOutOfScope, or accepts only an
// http(s) URI whose host and effective port are the Source's or allowed -
// userinfo, case, default ports and odd escapes cannot smuggle another
// host in. Seeds: testdata/fuzz/FuzzScopeCheck.
func FuzzScopeCheck(f *testing.F) {
	for _, s := range []string{
		"http://src.example:8080/a", "http://src.example:08080/a", "https://allowed.example/x", "http://pinned.example:9/",
		"http://pinned.example:10/", "http://src.example/", "file:///etc/passwd", "//evil.example/x",
		"http://src.example:8080@evil.example/", "http://evil.example#@src.example:8080/",
		"http://src.example%2f@evil.example/", "http://[::1]:8080/", "", ":", "http://",
	} {
		f.Add(s)
	}
	scope := NewScope([]string{"http://src.example:8080/capabilitylist.xml"}, []string{"Allowed.example", "pinned.example:9"})
	f.Fuzz(func(t *testing.T, uri string) {
		err := scope.Check(uri)
		if err != nil {
			if !errors.Is(err, ErrOutOfScope) {
				t.Fatalf("Check(%q) = %v, not ErrOutOfScope", uri, err)
			}
			return
		}
		u, perr := url.Parse(uri)
		if perr != nil {
			t.Fatalf("Check accepted %q, which does not parse: %v", uri, perr)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("Check accepted %q with scheme %q", uri, u.Scheme)
		}
		host, port := strings.ToLower(u.Hostname()), u.Port()
		if port == "" {
			port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
		}
		if n, err := strconv.Atoi(port); err == nil {
			port = strconv.Itoa(n) // ":08080" is port 8080
		}
		if !(host == "src.example" && port == "8080") && host != "allowed.example" && !(host == "pinned.example" && port == "9") {
			t.Fatalf("Check accepted %q: host %q port %s is neither the Source's nor allowed", uri, host, port)
		}
	})
}
