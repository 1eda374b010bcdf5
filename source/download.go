package source

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Download GETs the bitstream f.URL into dst and verifies it against f:
// its length, when given, and every hash f.Hash gives that
// resourcesync.Verifier can compute, plus f.ExtraAlgs for the returned
// Sums. The bytes are those the Source serves (Accept-Encoding: identity;
// nothing is inflated).
//
// With f.ETag or f.LastModified it sends a conditional GET; a 304 returns
// Fetched{NotModified: true} with nothing written. A body that fails
// mid-transfer is fetched again from the start (dst.Reset first) within
// Options.MaxAttempts; a body that grows past f.Length is cut off at once.
// Bytes that do not match f are fetched once more, and a second mismatch
// returns the *resourcesync.MismatchError (matches resourcesync.ErrMismatch)
// wrapped with the URL. After any error dst may hold rejected bytes; the
// caller discards them and keeps its old copy.
//
// With f.Once a single request is made: no retry, and no re-fetch after
// a mismatch. With f.Anonymous no hop of the download carries Options.Headers, even
// to one of HeaderOrigins (a mirror's copy is fetched without the
// credentials given for the Source).
//
// A Fetch whose Hash is a resourcesync.MalformedFixity fails at once with
// its error (resourcesync.ErrHash), without a request.
//
// A Fetch without a length is capped by Options.MaxResourceBytes
// (ErrTooLarge, not retried). When dst can Reserve space (the mirror's
// temp files), it is asked for the listed length before the request, else
// for the Content-Length before the body is read; a refusal ends the
// download with nothing written.
//
// Errors name the URL and the cause, and match as OpenDocument's do; a
// failure of dst itself ends the download at once, without a retry.
// Download is safe for concurrent use (with distinct sinks).
func (c *Client) Download(ctx context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	if err := f.Hash.Err(); err != nil {
		// A malformed hash attribute: whatever came, it could not be
		// verified, so nothing is asked for.
		return resourcesync.Fetched{}, fmt.Errorf("get %s: %w", f.URL, err)
	}
	var out resourcesync.Fetched
	header := http.Header{"Accept-Encoding": {"identity"}}
	if f.ETag != "" {
		header.Set("If-None-Match", f.ETag)
	}
	if f.LastModified != "" {
		header.Set("If-Modified-Since", f.LastModified)
	}
	above := c.opts.ResumeAbove
	if f.Anonymous {
		ctx = context.WithValue(ctx, anonymousKey{}, true)
	}
	if f.Anonymous || f.Once {
		// A mirror's or a patch's fetch neither resumes nor keeps a
		// partial: the one a sink offers was kept from another origin (its
		// validator is not this URL's), and a single request has no next
		// attempt to continue it.
		above = 0
	}
	rs := newResumption(dst, above, f.Length, f.HasLength)
	rs.setHeaders(header)
	x := &exchange{
		c:           c,
		ctx:         ctx,
		url:         f.URL,
		header:      header,
		conditional: f.ETag != "" || f.LastModified != "",
		resume:      rs,
		once:        f.Once,
		reset:       dst.Reset,
		read: func(resp *http.Response) (err error) {
			out, err = c.readBitstream(resp, f, dst, rs)
			return err
		},
	}
	if r, ok := dst.(reserver); ok && f.HasLength && f.Length > 0 {
		// Before the request: what cannot fit is not fetched at all. A
		// sink that holds a partial counts only what it lacks.
		if err := r.Reserve(f.Length); err != nil {
			return resourcesync.Fetched{}, fmt.Errorf("get %s: %w", f.URL, &sinkError{op: "reserve space in", err: err})
		}
	}
	if err := x.run(); err != nil {
		if rs.kept && errors.Is(err, resourcesync.ErrMismatch) {
			_ = dst.Reset() // bytes known wrong are not kept for the next run
		}
		return resourcesync.Fetched{}, err
	}
	return out, nil
}

// readBitstream streams one accepted response into dst through a Verifier.
func (c *Client) readBitstream(resp *http.Response, f resourcesync.Fetch, dst resourcesync.Sink, rs *resumption) (resourcesync.Fetched, error) {
	got := resourcesync.Fetched{
		FinalURL:     responseURL(resp),
		ETag:         resp.Header.Get("ETag"),
		LastModified: resp.Header.Get("Last-Modified"),
		ContentType:  resp.Header.Get("Content-Type"),
	}
	if resp.StatusCode == http.StatusNotModified {
		// A 304 may omit validators that still hold.
		got.NotModified = true
		got.ETag = cmp.Or(got.ETag, f.ETag)
		got.LastModified = cmp.Or(got.LastModified, f.LastModified)
		return got, nil
	}
	offset, err := c.startBody(resp, f, dst, rs)
	if err != nil {
		return got, err
	}
	got.Resumed = offset
	if f.HasLength && resp.ContentLength >= 0 && resp.ContentLength != f.Length-offset {
		// No need to read what is known to be wrong.
		return got, &resourcesync.MismatchError{Mismatches: []resourcesync.Mismatch{{
			Alg: "length", Want: fmt.Sprint(f.Length), Got: fmt.Sprintf("%d (Content-Length)", offset+resp.ContentLength),
		}}}
	}
	// Without a listed length nothing but our cap bounds the body.
	limit := int64(-1)
	if !f.HasLength && c.opts.MaxResourceBytes > 0 {
		limit = c.opts.MaxResourceBytes
		if offset+resp.ContentLength > limit {
			return got, resourceTooLarge(limit, fmt.Sprintf(" (Content-Length %d)", offset+resp.ContentLength))
		}
	}
	if r, ok := dst.(reserver); ok && !f.HasLength && resp.ContentLength > 0 {
		if err := r.Reserve(offset + resp.ContentLength); err != nil {
			return got, &sinkError{op: "reserve space in", err: err}
		}
	}
	v := resourcesync.NewVerifier(f.Hash, f.Length, f.HasLength, f.ExtraAlgs...)
	if offset > 0 {
		// The bytes kept are verified with the rest: read back, not
		// trusted.
		if _, err := io.Copy(v, io.NewSectionReader(rs.sink, 0, offset)); err != nil {
			if errors.Is(err, resourcesync.ErrMismatch) {
				return got, err
			}
			return got, &sinkError{op: "read back the bytes kept in", err: err}
		}
	}
	defer func() { rs.held = v.Written() }()
	bp := c.getBuf()
	defer c.putBuf(bp)
	buf := *bp
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if limit >= 0 && v.Written()+int64(n) > limit {
				return got, resourceTooLarge(limit, "")
			}
			// The Verifier goes first: a write past the length fails there,
			// before the sink sees a byte of it.
			if _, err := v.Write(buf[:n]); err != nil {
				return got, err
			}
			if m, err := dst.Write(buf[:n]); err != nil || m != n {
				if err == nil {
					err = io.ErrShortWrite
				}
				return got, &sinkError{op: "write", err: err}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return got, rerr
		}
	}
	if err := v.Verify(); err != nil {
		return got, err
	}
	got.Bytes = v.Written()
	got.Sums = v.Sums()
	return got, nil
}

// reserver is a Sink that can refuse a body before it is written: the
// mirror checks that n bytes fit on its disk. Download asks it with the
// listed length, else the Content-Length.
type reserver interface {
	Reserve(n int64) error
}

// resourceTooLarge is the error of a bitstream without a listed length
// that passes Options.MaxResourceBytes.
func resourceTooLarge(limit int64, detail string) error {
	return fmt.Errorf("resource %w: more than %d bytes%s, the cap (--max-size) for a resource whose list gives no length", ErrTooLarge, limit, detail)
}

// startBody prepares dst for an accepted response's body and returns the
// offset the body starts at: after the bytes dst keeps for a 206, else 0
// (a partial dst offered is dropped). A body that may be resumed is marked
// kept.
func (c *Client) startBody(resp *http.Response, f resourcesync.Fetch, dst resourcesync.Sink, rs *resumption) (int64, error) {
	if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		return 0, &restartError{why: "the Source refused the range (HTTP 416)"}
	}
	if resp.StatusCode == http.StatusPartialContent {
		first, _, total, err := contentRange(resp.Header.Get("Content-Range"))
		switch {
		case err != nil:
			return 0, &restartError{why: err.Error()}
		case first != rs.from:
			return 0, &restartError{why: fmt.Sprintf("asked for the bytes from %d, got them from %d", rs.from, first)}
		case f.HasLength && total >= 0 && total != f.Length:
			return 0, &restartError{why: fmt.Sprintf("the Source gives %d bytes in all, the list %d", total, f.Length)}
		case changed(resp, rs.validator):
			return 0, &restartError{why: "the validator changed"}
		}
		if err := rs.sink.Resume(rs.from); err != nil {
			return 0, &sinkError{op: "resume", err: err}
		}
		rs.kept = true
		c.opts.Logger.Debug().Str("url", f.URL).Int64("bytes", rs.from).Msg("resuming a download")
		return rs.from, nil
	}
	if rs.ranged() {
		// 200: the bytes held are of another version, or the Source
		// ignores ranges.
		c.opts.Logger.Info().Str("url", f.URL).Int64("bytes", rs.from).Msg("the Source sent the whole body; the download starts again from zero")
		rs.restart()
		if err := dst.Reset(); err != nil {
			return 0, &sinkError{op: "reset", err: err}
		}
	}
	size := resp.ContentLength
	if f.HasLength {
		size = f.Length
	}
	if val := validatorOf(resp); rs.sink != nil && size >= rs.above && val != "" {
		if err := rs.sink.Keep(f.URL, val); err != nil {
			return 0, &sinkError{op: "keep", err: err}
		}
		rs.kept, rs.validator = true, val
	}
	return 0, nil
}

// changed reports whether a 206 names a validator other than the one its
// If-Range gave (a Source that ignores If-Range).
func changed(resp *http.Response, validator string) bool {
	if strings.HasPrefix(validator, `"`) {
		et := resp.Header.Get("ETag")
		return et != "" && et != validator
	}
	lm := resp.Header.Get("Last-Modified")
	return lm != "" && lm != validator
}
