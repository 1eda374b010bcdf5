package main

import (
	"context"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
)

// httpFlags are the flags of every command that talks to a Source.
func httpFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "header", Usage: "extra request header `'Name: value'` sent only to the scheme, host and port of URL (repeatable)"},
		&cli.StringFlag{Name: "ca-cert", Usage: "PEM `FILE` of certificate authorities trusted besides the system's", EnvVars: []string{"RESYNC_DEST_CA_CERT"}},
		&cli.BoolFlag{Name: "insecure-skip-tls-verify", Usage: "do not verify the Source's TLS certificate (warned on every run)", EnvVars: []string{"RESYNC_DEST_INSECURE_SKIP_TLS_VERIFY"}},
		&cli.DurationFlag{Name: "max-retry-wait", Value: 60 * time.Second, Usage: "longest wait between retries, Retry-After included", EnvVars: []string{"RESYNC_DEST_MAX_RETRY_WAIT"}},
	}
}

// httpOptions are the parsed HTTP flags.
type httpOptions struct {
	headers      http.Header
	caCert       string
	insecure     bool
	maxRetryWait time.Duration
	// perHost bounds the requests in flight to one host; 0 means the
	// client's default (8). The sync commands raise it to --workers, so
	// that --workers 16 means 16 fetches against a Source on one host.
	perHost int
	// allowHosts (--allow-host) are hosts redirects may lead to besides
	// the Source's own.
	allowHosts []string
}

func parseHTTPFlags(c flagValues) (httpOptions, error) {
	o := httpOptions{
		headers: http.Header{}, caCert: c.String("ca-cert"),
		insecure: c.Bool("insecure-skip-tls-verify"), maxRetryWait: c.Duration("max-retry-wait"),
	}
	for _, h := range c.StringSlice("header") {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return o, usageErrorf("--header %q: want 'Name: value'", h)
		}
		o.headers.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
	}
	if o.maxRetryWait <= 0 {
		return o, usageErrorf("--max-retry-wait must be positive")
	}
	return o, nil
}

// newClient builds the HTTP adapter for a Source reached through start: the
// --header values go to start's origin only (its scheme, host and port),
// and redirects may lead to start's host and the --allow-host ones until
// discovery has found the Source's own (widenClient).
func newClient(start string, o httpOptions, d *deps) (*source.Client, error) {
	u, err := url.Parse(start)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, usageErrorf("%q is not an http or https URL", start)
	}
	so := source.DefaultOptions()
	so.UserAgent = userAgent()
	so.Headers = o.headers
	so.HeaderOrigins = []string{u.Scheme + "://" + u.Host}
	so.Hosts = resourcesync.NewScope([]string{start}, o.allowHosts)
	so.CACertFile = o.caCert
	so.InsecureSkipVerify = o.insecure
	so.MaxRetryWait = o.maxRetryWait
	so.PerHost = max(so.PerHost, o.perHost)
	so.MinRetryWait = min(so.MinRetryWait, so.MaxRetryWait)
	so.Logger = d.log.With().Str("component", "http").Logger()
	c, err := source.New(so)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("configure HTTP: %w", err)}
	}
	return c, nil
}

// discoverSource runs discovery with e's client, then widens the client so
// that redirects may lead to every host of the Source found (and the
// --allow-host ones): the same hosts its resources may be on.
func discoverSource(ctx context.Context, e *env, o syncOptions) (*agent.Discovery, error) {
	disc, err := agent.Discover(ctx, e.client, o.url, agent.DefaultDiscoverOptions())
	if err != nil {
		return nil, err
	}
	e.client = e.client.WithHosts(disc.Scope(o.allowHosts))
	return disc, nil
}
