package source

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// defaultPort is the port a scheme implies when a URL names none.
func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// hostKey names the server a URL talks to: lower-case host and explicit
// port, so that http://Example.org/ and http://example.org:80/ share a
// per-host limit.
func hostKey(u *url.URL) string {
	return net.JoinHostPort(strings.ToLower(u.Hostname()), urlPort(u))
}

// urlPort is u's port as a plain number, the scheme's default if u names
// none.
func urlPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		return defaultPort(u.Scheme)
	}
	if n, err := strconv.Atoi(port); err == nil {
		return strconv.Itoa(n)
	}
	return port
}

// authHost is one entry of Options.AuthHosts. An empty port stands for the
// default port of whatever scheme the request uses.
type authHost struct {
	host string
	port string
}

// parseAuthHost reads "host", "host:port", "[v6]", "[v6]:port" or a bare
// IPv6 address.
func parseAuthHost(s string) (authHost, error) {
	in := s
	if strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@ \t") || s == "" {
		return authHost{}, fmt.Errorf("auth host %q: want host or host:port", in)
	}
	var h authHost
	hasPort := false
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return authHost{}, fmt.Errorf("auth host %q: unclosed [", in)
		}
		h.host, s = s[1:end], s[end+1:]
		if s != "" {
			if !strings.HasPrefix(s, ":") {
				return authHost{}, fmt.Errorf("auth host %q: want host or host:port", in)
			}
			h.port, hasPort = s[1:], true
		}
	case strings.Count(s, ":") > 1: // a bare IPv6 address
		h.host = s
	default:
		h.host, h.port, hasPort = strings.Cut(s, ":")
	}
	if h.host == "" {
		return authHost{}, fmt.Errorf("auth host %q: empty host", in)
	}
	if hasPort {
		n, err := strconv.Atoi(h.port)
		if err != nil || n < 1 || n > 65535 {
			return authHost{}, fmt.Errorf("auth host %q: bad port", in)
		}
		h.port = strconv.Itoa(n) // "0443" and "443" are one port
	}
	h.host = strings.ToLower(h.host)
	return h, nil
}

// matches reports whether u is on this host.
func (h authHost) matches(u *url.URL) bool {
	if strings.ToLower(u.Hostname()) != h.host {
		return false
	}
	port := urlPort(u)
	if h.port == "" {
		return port == defaultPort(u.Scheme)
	}
	return port == h.port
}

// hostLimiter bounds the requests in flight per host. Semaphores are
// created on first use and kept: a run talks to few hosts.
type hostLimiter struct {
	per  int
	mu   sync.Mutex
	sems map[string]chan struct{}
}

func newHostLimiter(per int) *hostLimiter {
	return &hostLimiter{per: per, sems: make(map[string]chan struct{})}
}

// acquire waits for a slot for host and returns its release function
// (idempotent). It fails only when ctx is done first.
func (l *hostLimiter) acquire(ctx context.Context, host string) (func(), error) {
	l.mu.Lock()
	sem, ok := l.sems[host]
	if !ok {
		sem = make(chan struct{}, l.per)
		l.sems[host] = sem
	}
	l.mu.Unlock()
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var once sync.Once
	return func() { once.Do(func() { <-sem }) }, nil
}
