package source

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Issue 22, item 4 at the client: a bitstream whose Fetch gives no length
// is capped by MaxResourceBytes - refused from its Content-Length before
// it is read, cut as it passes the cap when it has none - and the failure
// is final (one request). A listed length is the cap otherwise, so a
// listed resource larger than MaxResourceBytes is fetched.
func TestMaxResourceBytes(t *testing.T) {
	body := pattern(5000)
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chunked" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.Write(body)
	})
	c := newClient(t, func(o *Options) { o.MaxResourceBytes = 1000 })
	for _, p := range []string{"/sized", "/chunked"} {
		sink := &memSink{}
		before := n.get()
		_, err := c.Download(context.Background(), resourcesync.Fetch{URL: srv.URL + p}, sink)
		wantIs(t, err, ErrTooLarge)
		wantNotIs(t, err, resourcesync.ErrUnavailable)
		if !strings.Contains(err.Error(), srv.URL+p) || !strings.Contains(err.Error(), "--max-size") {
			t.Errorf("%s: error %q should name the URL and the flag", p, err)
		}
		if sink.maxSize > 1000 {
			t.Errorf("%s: the sink received %d bytes, past the cap", p, sink.maxSize)
		}
		if got := n.get() - before; got != 1 {
			t.Errorf("%s: %d requests, want 1", p, got)
		}
	}
	got, err := c.Download(context.Background(), fetchOf(srv.URL+"/sized", body), &memSink{})
	if err != nil || got.Bytes != 5000 {
		t.Errorf("a listed length past the cap: %d bytes, %v", got.Bytes, err)
	}
}

// reservingSink is a memSink that refuses reservations past room.
type reservingSink struct {
	memSink
	room     int64
	reserved []int64
}

var errFull = errors.New("no room")

func (s *reservingSink) Reserve(n int64) error {
	s.reserved = append(s.reserved, n)
	if n > s.room {
		return errFull
	}
	return nil
}

// A sink that can reserve space is asked for the listed length before the
// request is made, or for the Content-Length before a byte of the body is
// read; its refusal ends the download at once, unretried, with nothing
// written.
func TestDownloadReservesBeforeWriting(t *testing.T) {
	body := pattern(3000)
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
	sink := &reservingSink{room: 2000}
	_, err := c(t).Download(context.Background(), fetchOf(srv.URL, body), sink)
	if !errors.Is(err, errFull) || sink.maxSize != 0 || n.get() != 0 {
		t.Fatalf("refused reservation of a listed length: %v, %d bytes written, %d requests", err, sink.maxSize, n.get())
	}
	_, err = c(t).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, sink)
	if !errors.Is(err, errFull) || sink.maxSize != 0 || n.get() != 1 {
		t.Fatalf("refused reservation of a Content-Length: %v, %d bytes written, %d requests", err, sink.maxSize, n.get())
	}
	sink = &reservingSink{room: 4000}
	if _, err := c(t).Download(context.Background(), resourcesync.Fetch{URL: srv.URL}, sink); err != nil {
		t.Fatal(err)
	}
	if len(sink.reserved) != 1 || sink.reserved[0] != 3000 {
		t.Errorf("reserved %v, want the Content-Length %d once", sink.reserved, len(body))
	}
}

func c(t *testing.T) *Client { return newClient(t, nil) }

// An entry whose hash attribute was malformed (issue 22, item 11) cannot
// be verified: Download fails with its error without asking the Source.
func TestMalformedHashIsNotFetched(t *testing.T) {
	srv, n := serve(t, content([]byte("abc")))
	_, err := c(t).Download(context.Background(), resourcesync.Fetch{URL: srv.URL, Hash: resourcesync.MalformedFixity("md5:")}, &memSink{})
	wantIs(t, err, resourcesync.ErrHash)
	if !strings.Contains(err.Error(), srv.URL) || n.get() != 0 {
		t.Errorf("error %q after %d requests, want the URL named and no request", err, n.get())
	}
}
