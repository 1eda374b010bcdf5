package source

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// The two benchmarks below do the same work, 10,000 GETs of a 4 KiB
// resource from a loopback server with 16 goroutines, checking length and
// md5: one through Client.Download, one through a bare net/http client.
// Their ratio is the cost of this package's machinery. Run them alternately
// (see BENCHMARKING.md): go test -run '^$' -bench 'Download10k' -benchtime 3x

const (
	benchResources = 10_000
	benchWorkers   = 16
)

func benchServer(b *testing.B) (*httptest.Server, []byte) {
	body := pattern(4096)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv, body
}

// runBench calls get for every resource from benchWorkers goroutines.
func runBench(b *testing.B, get func(i int) error) {
	b.Helper()
	for range b.N {
		var next atomic.Int64
		var wg sync.WaitGroup
		var failed atomic.Pointer[error]
		for range benchWorkers {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= benchResources {
						return
					}
					if err := get(i); err != nil {
						failed.CompareAndSwap(nil, &err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := failed.Load(); err != nil {
			b.Fatal(*err)
		}
	}
	b.ReportMetric(float64(b.N*benchResources)/b.Elapsed().Seconds(), "resources/s")
}

type discardSink struct{}

func (discardSink) Write(p []byte) (int, error) { return len(p), nil }
func (discardSink) Reset() error                { return nil }

func BenchmarkDownload10kClient(b *testing.B) {
	srv, body := benchServer(b)
	c := newClient(b, func(o *Options) { o.PerHost = benchWorkers })
	f := fetchOf("", body)
	f.Hash = f.Hash[:1] // md5, as the bare client checks
	b.ResetTimer()
	runBench(b, func(i int) error {
		f := f
		f.URL = fmt.Sprintf("%s/r/%d", srv.URL, i)
		_, err := c.Download(context.Background(), f, discardSink{})
		return err
	})
}

func BenchmarkDownload10kBareNetHTTP(b *testing.B) {
	srv, body := benchServer(b)
	sum := md5.Sum(body)
	want := hex.EncodeToString(sum[:])
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchWorkers}}
	b.Cleanup(client.CloseIdleConnections)
	bufs := sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}
	b.ResetTimer()
	runBench(b, func(i int) error {
		url := fmt.Sprintf("%s/r/%d", srv.URL, i)
		resp, err := client.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %s", url, resp.Status)
		}
		h := md5.New()
		buf := bufs.Get().(*[]byte)
		defer bufs.Put(buf)
		n, err := io.CopyBuffer(io.MultiWriter(h, io.Discard), resp.Body, *buf)
		if err != nil {
			return err
		}
		if n != int64(len(body)) || hex.EncodeToString(h.Sum(nil)) != want {
			return fmt.Errorf("%s: %w", url, resourcesync.ErrMismatch)
		}
		return nil
	})
}
