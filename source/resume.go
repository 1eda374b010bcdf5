package source

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// resumer is a Sink that can keep what it holds when a download fails, so
// that the download continues where it stopped (Range and If-Range) rather
// than from nothing: at the next attempt of the same Download, and at the
// next run when the sink offers a partial file an earlier one kept (the
// mirror's temp files, a dump package's). Download uses it only for a body
// of at least Options.ResumeAbove bytes that comes with a validator.
type resumer interface {
	// Partial is what the sink offers to continue: the bytes it holds of
	// an earlier download and the validator they were fetched with; n is
	// 0 when it offers nothing. Writing or Reset before Resume drops the
	// offer.
	Partial() (n int64, validator string)
	// Resume continues after the first n bytes held: the next Write
	// appends at n.
	Resume(n int64) error
	// Keep says that the body now written (from its start) is url's,
	// fetched with validator: should the download fail, the sink keeps
	// what was written and offers it. Reset drops it.
	Keep(url, validator string) error
	// ReadAt reads back what is held, so that the verifier covers the
	// whole body, the bytes kept included.
	io.ReaderAt
}

// resumption is the resume bookkeeping of one Download.
type resumption struct {
	sink  resumer // nil: the sink cannot resume
	above int64   // Options.ResumeAbove
	// from is the offset the next attempt asks for (Range), with the
	// validator the bytes before it were fetched with; 0: the whole body.
	from      int64
	validator string
	kept      bool  // the body being written is kept on failure
	held      int64 // what the sink holds after the latest attempt
}

// newResumption sets up the resumption of a Download into dst.
func newResumption(dst any, above int64, length int64, hasLength bool) *resumption {
	r := &resumption{above: above}
	s, ok := dst.(resumer)
	if !ok || above <= 0 {
		return r
	}
	r.sink = s
	n, v := s.Partial()
	if n > 0 && v != "" {
		if hasLength && n >= length {
			n = length - 1 // a complete partial: ask for its last byte, so that the Source confirms its validator
		}
		if n > 0 {
			r.from, r.validator = n, v
		}
	}
	return r
}

// ranged reports whether the next attempt asks for a range.
func (r *resumption) ranged() bool { return r.from > 0 }

// setHeaders puts the range request (or its absence) on h.
func (r *resumption) setHeaders(h http.Header) {
	if !r.ranged() {
		h.Del("Range")
		h.Del("If-Range")
		return
	}
	h.Set("Range", "bytes="+strconv.FormatInt(r.from, 10)+"-")
	h.Set("If-Range", r.validator)
}

// restart makes the next attempt fetch the whole body.
func (r *resumption) restart() {
	r.from, r.validator, r.kept, r.held = 0, "", false, 0
}

// keepOnFailure is told of an attempt whose body failed part way: it
// reports true when the sink keeps what it holds and the next attempt asks
// for the rest.
func (r *resumption) keepOnFailure() bool {
	if r.sink == nil || !r.kept || r.held <= 0 {
		return false
	}
	r.from = r.held
	return true
}

// validatorOf is the validator a response's bytes may be resumed with: a
// strong ETag, else its Last-Modified; "" when it has neither (If-Range
// takes no weak ETag).
func validatorOf(resp *http.Response) string {
	if et := resp.Header.Get("ETag"); et != "" && !strings.HasPrefix(et, "W/") {
		return et
	}
	return resp.Header.Get("Last-Modified")
}

// contentRange parses a 206's "bytes first-last/total" (total may be *,
// then -1).
func contentRange(s string) (first, last, total int64, err error) {
	rest, ok := strings.CutPrefix(s, "bytes ")
	span, tot, ok2 := strings.Cut(rest, "/")
	a, b, ok3 := strings.Cut(span, "-")
	if !ok || !ok2 || !ok3 {
		return 0, 0, 0, fmt.Errorf("malformed Content-Range %q", s)
	}
	if first, err = strconv.ParseInt(a, 10, 64); err != nil {
		return 0, 0, 0, fmt.Errorf("malformed Content-Range %q", s)
	}
	if last, err = strconv.ParseInt(b, 10, 64); err != nil || last < first {
		return 0, 0, 0, fmt.Errorf("malformed Content-Range %q", s)
	}
	total = -1
	if tot != "*" {
		if total, err = strconv.ParseInt(tot, 10, 64); err != nil || total <= last {
			return 0, 0, 0, fmt.Errorf("malformed Content-Range %q", s)
		}
	}
	return first, last, total, nil
}

// restartError is a ranged answer that cannot continue the bytes held (a
// range other than the one asked for, 416): the next attempt fetches the
// whole body.
type restartError struct{ why string }

func (e *restartError) Error() string { return "cannot resume: " + e.why }
