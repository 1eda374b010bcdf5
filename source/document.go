package source

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// OpenDocument GETs a document (a ResourceSync document, robots.txt, an
// HTML page) and returns the URL that answered after redirects, the
// response header and the body.
//
// The body is downloaded in full before OpenDocument returns, so a failure
// mid-body is retried like a failed connection; it is held in memory up to
// Options.SpoolMemory and in a temporary file in Options.TempDir beyond.
// It is decoded: a gzip Content-Encoding, and a body that is itself a gzip
// file (sitemap.xml.gz), are inflated. Decoding stops with ErrTooLarge
// once Options.MaxDocumentBytes decoded bytes are exceeded, so a
// compression bomb fails early and small. When the body was inflated the
// header no longer carries Content-Encoding or Content-Length. Closing the
// body removes any temporary file.
//
// A document not read within Options.MaxDocumentTime, retries included,
// fails with ErrTooSlow (and resourcesync.ErrUnavailable), whatever rate it
// keeps: an endless document streamed slowly cannot hold a run.
//
// Errors name the URL and the cause and match resourcesync.ErrNotFound (404,
// 410), resourcesync.ErrUnavailable (429, 5xx or connection failures once
// every attempt is spent), ErrTLS, ErrRedirect, ErrUnsupportedURL,
// ErrTooLarge or ErrTooSlow; a *StatusError carries the status. OpenDocument is safe for
// concurrent use.
func (c *Client) OpenDocument(ctx context.Context, url string) (finalURL string, header http.Header, body io.ReadCloser, err error) {
	if d := c.opts.MaxDocumentTime; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, fmt.Errorf("%w: %w: not read within %s", resourcesync.ErrUnavailable, ErrTooSlow, d))
		defer cancel()
	}
	sp := newSpool(c.opts.SpoolMemory, c.opts.TempDir)
	x := &exchange{
		c:   c,
		ctx: ctx,
		url: url,
		// Ask for gzip ourselves rather than let net/http do it: its
		// transparent decoding would not be bounded by MaxDocumentBytes.
		header: http.Header{"Accept-Encoding": {"gzip"}},
		reset:  sp.reset,
		read: func(resp *http.Response) error {
			decoded, err := c.readDocument(resp, sp)
			if err != nil {
				return err
			}
			finalURL, header = responseURL(resp), resp.Header
			if decoded {
				header.Del("Content-Encoding")
				header.Del("Content-Length")
			}
			return nil
		},
	}
	if err := x.run(); err != nil {
		sp.discard()
		return "", nil, nil, err
	}
	body, err = sp.open()
	if err != nil {
		return "", nil, nil, fmt.Errorf("get %s: %w", url, err)
	}
	return finalURL, header, body, nil
}

// readDocument decodes resp's body into sp, at most MaxDocumentBytes
// decoded bytes, and reports whether it inflated anything. At most two
// gzip layers are undone: the Content-Encoding and a gzip file under it.
func (c *Client) readDocument(resp *http.Response, sp *spool) (decoded bool, err error) {
	limit := c.opts.MaxDocumentBytes
	var r io.Reader = resp.Body
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		if resp.ContentLength > limit {
			return false, tooLarge(limit)
		}
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return false, gzipError(err)
		}
		r, decoded = zr, true
	default:
		return false, fmt.Errorf("unsupported Content-Encoding %q", enc)
	}
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false, gzipError(err)
		}
		r, decoded = zr, true
	} else {
		r = br
	}
	bp := c.getBuf()
	defer c.putBuf(bp)
	n, err := io.CopyBuffer(sp, io.LimitReader(r, limit+1), *bp)
	if errors.As(err, new(*spoolError)) {
		return false, err
	}
	if err != nil {
		return false, gzipError(err)
	}
	if n > limit {
		return false, tooLarge(limit)
	}
	return decoded, nil
}

func tooLarge(limit int64) error {
	return fmt.Errorf("document %w: more than %d bytes decoded (the standard allows 50 MB)", ErrTooLarge, limit)
}

// gzipError passes network failures through (they are retried) and names
// a decoding failure. A gzip stream cut short is treated as a network
// failure: a close-delimited body that ended early looks just like it.
func gzipError(err error) error {
	if errors.As(err, new(*bodyError)) {
		return err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &bodyError{err: fmt.Errorf("gzip stream cut short: %w", err)}
	}
	return fmt.Errorf("decode gzip body: %w", err)
}
