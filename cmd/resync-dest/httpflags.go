package main

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
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
		envBool(&cli.BoolFlag{Name: "insecure-skip-tls-verify", Usage: "do not verify the Source's TLS certificate (warned on every run)", EnvVars: []string{"RESYNC_DEST_INSECURE_SKIP_TLS_VERIFY"}}),
		&cli.DurationFlag{Name: "max-retry-wait", Value: 60 * time.Second, Usage: "longest wait between retries, Retry-After included", EnvVars: []string{"RESYNC_DEST_MAX_RETRY_WAIT"}},
		&cli.StringFlag{Name: "min-rate", Value: "1K", Usage: "abort (and retry) a transfer slower than `RATE` bytes per second over --min-rate-window of waiting (K, M: powers of 1024; 0: no floor)", EnvVars: []string{"RESYNC_DEST_MIN_RATE"}},
		&cli.DurationFlag{Name: "min-rate-window", Value: 60 * time.Second, Usage: "the time over which --min-rate is measured", EnvVars: []string{"RESYNC_DEST_MIN_RATE_WINDOW"}},
		&cli.StringFlag{Name: "max-document-size", Value: "256MiB", Usage: "refuse a document (or index part) that decodes to more than `SIZE` (the standard allows 50 MB)", EnvVars: []string{"RESYNC_DEST_MAX_DOCUMENT_SIZE"}},
		&cli.IntFlag{Name: "max-document-entries", Value: int(resourcesync.DefaultLimits().MaxEntries), Usage: "refuse a document (or index part) with more entries (the standard allows 50,000)", EnvVars: []string{"RESYNC_DEST_MAX_DOCUMENT_ENTRIES"}},
		&cli.DurationFlag{Name: "max-document-time", Value: source.DefaultOptions().MaxDocumentTime, Usage: "give up a document (or index part) not read within this time, retries included (0: no bound)", EnvVars: []string{"RESYNC_DEST_MAX_DOCUMENT_TIME"}},
		&cli.StringFlag{Name: "tpslimit", Value: "0", Usage: "at most `N` requests per second to each host, across all workers, documents included (0: no limit)", EnvVars: []string{"RESYNC_DEST_TPSLIMIT"}},
		&cli.IntFlag{Name: "tpslimit-burst", Value: 1, Usage: "requests --tpslimit lets through at once", EnvVars: []string{"RESYNC_DEST_TPSLIMIT_BURST"}},
		&cli.StringFlag{Name: "bwlimit", Value: "0", Usage: "read at most `RATE` bytes per second in all, such as 1M or 500K (0: no limit)", EnvVars: []string{"RESYNC_DEST_BWLIMIT"}},
		&cli.StringFlag{Name: "resume-above", Value: "8MiB", Usage: "keep a download of at least `SIZE` (a resource or a dump package) that fails part way, and continue it with Range in this run and the next (0: never)", EnvVars: []string{"RESYNC_DEST_RESUME_ABOVE"}},
		&cli.StringFlag{Name: "user-agent", Value: defaultUserAgent(), Usage: "the User-Agent of every request", EnvVars: []string{"RESYNC_DEST_USER_AGENT"}},
	}
}

// projectURL is where a Source's operator reads what resync-dest is; the
// default User-Agent names it.
const projectURL = "https://github.com/resync-dest/resync-dest"

// defaultUserAgent is resync-dest/<version> (+<project URL>), so that a
// Source can tell who is fetching and where to read about it.
func defaultUserAgent() string { return userAgent() + " (+" + projectURL + ")" }

// politePerHost is the requests in flight per host when --tpslimit or
// --bwlimit is set: at most 4, --workers and the whole requests per second
// allowed (at least 1), so that a limit meant to spare a small server is
// not undone by a crowd of connections.
func politePerHost(workers int, tps float64) int {
	n := 4
	if workers > 0 {
		n = min(n, workers)
	}
	if tps > 0 {
		n = min(n, max(1, int(math.Ceil(tps))))
	}
	return n
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
	// The bounds on slow and large transfers: --min-rate (bytes per
	// second, 0 for none) over --min-rate-window, and a document's size,
	// entries and time.
	minRate         int64
	minRateWindow   time.Duration
	maxDocSize      int64
	maxDocEntries   int64
	maxDocumentTime time.Duration
	// maxSize (--max-size) caps a resource whose list gives no length; 0
	// keeps the client's default.
	maxSize int64
	// Politeness: --tpslimit (0: none) with --tpslimit-burst, --bwlimit
	// (bytes per second, 0: none), --user-agent ("" keeps the default).
	tpsLimit  float64
	tpsBurst  int
	bwLimit   int64
	userAgent string
	// resumeAbove (--resume-above) is the size from which a download is
	// resumed rather than restarted; 0: never.
	resumeAbove int64
}

// limits bound the parse of every document: the size and entries of
// --max-document-size and --max-document-entries, the rest as defaults.
func (o httpOptions) limits() resourcesync.Limits {
	return resourcesync.Limits{MaxBytes: o.maxDocSize, MaxEntries: o.maxDocEntries}
}

// discoverOptions bound discovery by the same document limits.
func (o httpOptions) discoverOptions() agent.DiscoverOptions {
	do := agent.DefaultDiscoverOptions()
	do.Limits = o.limits()
	return do
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
	var err error
	if o.minRate, err = parseSize(c.String("min-rate")); err != nil {
		return o, usageErrorf("--min-rate %q: want a rate in bytes per second such as 1K or 0", c.String("min-rate"))
	}
	if o.minRateWindow = c.Duration("min-rate-window"); o.minRateWindow <= 0 {
		return o, usageErrorf("--min-rate-window must be positive")
	}
	if o.maxDocSize, err = parseSize(c.String("max-document-size")); err != nil || o.maxDocSize < 1 {
		return o, usageErrorf("--max-document-size %q: want a positive size such as 256MiB", c.String("max-document-size"))
	}
	if o.maxDocEntries = int64(c.Int("max-document-entries")); o.maxDocEntries < 1 {
		return o, usageErrorf("--max-document-entries must be positive")
	}
	if o.maxDocumentTime = c.Duration("max-document-time"); o.maxDocumentTime < 0 {
		return o, usageErrorf("--max-document-time must not be negative")
	}
	if o.tpsLimit, err = strconv.ParseFloat(strings.TrimSpace(c.String("tpslimit")), 64); err != nil || o.tpsLimit < 0 || math.IsInf(o.tpsLimit, 0) || math.IsNaN(o.tpsLimit) {
		return o, usageErrorf("--tpslimit %q: want a number of requests per second such as 10 or 0.5 (0: no limit)", c.String("tpslimit"))
	}
	if o.tpsBurst = c.Int("tpslimit-burst"); o.tpsBurst < 1 {
		return o, usageErrorf("--tpslimit-burst must be at least 1")
	}
	if o.bwLimit, err = parseSize(c.String("bwlimit")); err != nil {
		return o, usageErrorf("--bwlimit %q: want a rate in bytes per second such as 1M or 500K (0: no limit)", c.String("bwlimit"))
	}
	if o.resumeAbove, err = parseSize(c.String("resume-above")); err != nil || o.resumeAbove < 0 {
		return o, usageErrorf("--resume-above %q: want a size such as 8MiB (0: never resume)", c.String("resume-above"))
	}
	if o.userAgent = strings.TrimSpace(c.String("user-agent")); o.userAgent == "" || strings.ContainsFunc(o.userAgent, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
		return o, usageErrorf("--user-agent %q: want one line of text", c.String("user-agent"))
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
	so.UserAgent = cmp.Or(o.userAgent, defaultUserAgent())
	so.Headers = o.headers
	so.HeaderOrigins = []string{u.Scheme + "://" + u.Host}
	so.Hosts = resourcesync.NewScope([]string{start}, o.allowHosts)
	so.CACertFile = o.caCert
	so.InsecureSkipVerify = o.insecure
	so.MaxRetryWait = o.maxRetryWait
	so.PerHost = max(so.PerHost, o.perHost)
	so.TPSLimit, so.TPSBurst, so.BWLimit = o.tpsLimit, o.tpsBurst, o.bwLimit
	if o.tpsLimit > 0 || o.bwLimit > 0 {
		so.PerHost = politePerHost(o.perHost, o.tpsLimit)
	}
	so.MinRetryWait = min(so.MinRetryWait, so.MaxRetryWait)
	so.MinRate, so.MinRateWindow = o.minRate, o.minRateWindow
	so.MaxDocumentTime = o.maxDocumentTime
	if o.maxDocSize > 0 {
		so.MaxDocumentBytes = o.maxDocSize
	}
	if o.maxSize > 0 {
		so.MaxResourceBytes = o.maxSize
	}
	so.ResumeAbove = o.resumeAbove
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
	disc, err := agent.Discover(ctx, e.client, o.url, o.http.discoverOptions())
	if err != nil {
		return nil, err
	}
	e.client = e.client.WithHosts(disc.Scope(o.allowHosts))
	return disc, nil
}
