package resourcesync

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// ErrOutOfScope is wrapped by Scope.Check: a resource the Destination will
// not fetch (another host, another scheme).
var ErrOutOfScope = errors.New("out of scope")

// Scope decides which resource URIs a Destination fetches: http and https
// only, on the Source's own hosts or on hosts the user allowed. A Source
// that lists resources on a host it does not control cannot make the
// Destination fetch (or write) them. Scope is immutable and safe for
// concurrent use.
type Scope struct {
	hostPorts map[string]bool // "host:port" of the Source's documents and allowed host:port
	hosts     map[string]bool // allowed host names, any port
}

// NewScope returns the scope of a Source whose documents were read from
// sourceURLs, widened by allowHosts ("host" for any port, "host:port" for
// one).
func NewScope(sourceURLs []string, allowHosts []string) Scope {
	s := Scope{hostPorts: map[string]bool{}, hosts: map[string]bool{}}
	for _, su := range sourceURLs {
		if u, err := url.Parse(su); err == nil && u.Host != "" {
			s.hostPorts[HostPort(u)] = true
		}
	}
	for _, h := range allowHosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		if host, port, err := net.SplitHostPort(h); err == nil {
			s.hostPorts[net.JoinHostPort(host, normalPort(port))] = true
		} else {
			s.hosts[strings.Trim(h, "[]")] = true
		}
	}
	return s
}

// Check returns nil when uri may be fetched, else an error wrapping
// ErrOutOfScope that says why.
func (s Scope) Check(uri string) error {
	u, err := url.Parse(uri)
	if err != nil {
		return fmt.Errorf("%w: %q is not a URI: %v", ErrOutOfScope, uri, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: %s: only http and https resources are fetched", ErrOutOfScope, uri)
	}
	if u.Host == "" {
		return fmt.Errorf("%w: %s has no host", ErrOutOfScope, uri)
	}
	if s.hostPorts[HostPort(u)] || s.hosts[strings.ToLower(u.Hostname())] {
		return nil
	}
	return fmt.Errorf("%w: %s is on %s, not on the Source's host (allow it with --allow-host %s)",
		ErrOutOfScope, uri, u.Host, u.Hostname())
}

// HostPort names the server a URL talks to: the lower-case host and the
// effective port as a plain number - the scheme's default when the URL
// names none, and "443" for ":0443". It is the one normalisation every
// same-host decision uses (the scope here, the per-host limits and the
// origins of extra headers in the HTTP client), so that they cannot
// disagree about a URL.
func HostPort(u *url.URL) string {
	return net.JoinHostPort(strings.ToLower(u.Hostname()), Port(u))
}

// Port is u's effective port as a plain number: the scheme's default (80
// for http, 443 for https) when u names none.
func Port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return normalPort(p)
	}
	return DefaultPort(u.Scheme)
}

// DefaultPort is the port a URL of scheme names when it names none: 443
// for https, else 80.
func DefaultPort(scheme string) string {
	if strings.EqualFold(scheme, "https") {
		return "443"
	}
	return "80"
}

// normalPort drops leading zeros from a port number; anything else (too
// large to be a port) is kept as it is, so it matches nothing real.
func normalPort(p string) string {
	if n, err := strconv.ParseUint(p, 10, 16); err == nil {
		return strconv.FormatUint(n, 10)
	}
	return p
}
