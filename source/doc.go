// Package source is resync-dest's only HTTP adapter: it fetches a Source's
// documents and bitstreams over http and https.
//
// It owns everything that touches the network: retries with exponential
// backoff and jitter (go-retryablehttp underneath), the mapping of statuses
// and transport failures to the errors the workers classify
// (resourcesync.ErrNotFound, resourcesync.ErrUnavailable, ErrTLS, ...),
// verification of a bitstream's length and hashes inside the retry loop,
// bounded decoding and spooling of documents, and politeness: a per-host
// limit on requests in flight, a User-Agent, extra headers sent only to the
// origins they are meant for, redirects followed only to the hosts the run
// may fetch from, conditional GETs and keep-alive reuse.
//
// Timeouts bound each phase of an attempt (connect, TLS handshake, response
// headers, and an idle-read watchdog on the body) rather than the whole
// transfer, so a large download that keeps flowing is never cut off.
package source
