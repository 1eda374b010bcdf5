package source

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// hostKey names the server a URL talks to (resourcesync.HostPort), so
// that http://Example.org/ and http://example.org:80/ share a per-host
// limit, and the scope and the header check agree about every URL.
func hostKey(u *url.URL) string { return resourcesync.HostPort(u) }

// origin is one entry of Options.HeaderOrigins: a scheme, a host and a
// port (RFC 6454). A header given for an origin goes to that origin only:
// not to the same host over http when it was given for https, not to
// another port.
type origin struct {
	scheme   string // lower case
	hostPort string // resourcesync.HostPort
}

// parseOrigin reads "scheme://host[:port]" with an optional "/": the
// origin of a URL, with nothing else (no user, path, query or fragment).
func parseOrigin(s string) (origin, error) {
	u, err := url.Parse(s)
	if err != nil {
		return origin{}, fmt.Errorf("header origin %q: %w", s, err)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "http" && scheme != "https":
		return origin{}, fmt.Errorf("header origin %q: want http://host[:port] or https://host[:port]", s)
	case u.Host == "" || u.Hostname() == "" || u.Opaque != "":
		return origin{}, fmt.Errorf("header origin %q: no host", s)
	case u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return origin{}, fmt.Errorf("header origin %q: want scheme://host[:port] only", s)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return origin{}, fmt.Errorf("header origin %q: bad port", s)
		}
	}
	return origin{scheme: scheme, hostPort: resourcesync.HostPort(u)}, nil
}

// matches reports whether u is of this origin.
func (o origin) matches(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, o.scheme) && resourcesync.HostPort(u) == o.hostPort
}

// sameServerOrUpgrade reports whether a redirect from a to b stays on a's
// server: the same scheme, host and port, or http on its default port
// moving to https on its default port of the same host (the usual
// "always https" redirect).
func sameServerOrUpgrade(a, b *url.URL) bool {
	if !strings.EqualFold(a.Hostname(), b.Hostname()) {
		return false
	}
	if strings.EqualFold(a.Scheme, b.Scheme) && resourcesync.Port(a) == resourcesync.Port(b) {
		return true
	}
	return strings.EqualFold(a.Scheme, "http") && strings.EqualFold(b.Scheme, "https") &&
		resourcesync.Port(a) == "80" && resourcesync.Port(b) == "443"
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
