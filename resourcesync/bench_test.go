package resourcesync

import (
	"bytes"
	"encoding/xml"
	"io"
	"runtime"
	"testing"
)

// BenchmarkReader50k and BenchmarkReader500k parse a generated Resource List
// (loc, lastmod, rs:md with md5 and sha-256 hashes, length, type) and report
// entries/s and the bytes and allocations per entry; the two sizes show
// that the cost per entry does not grow with the list.
func BenchmarkReader50k(b *testing.B)  { benchmarkReader(b, 50_000) }
func BenchmarkReader500k(b *testing.B) { benchmarkReader(b, 500_000) }

func benchmarkReader(b *testing.B, n int) {
	doc := genList(n)
	b.SetBytes(int64(len(doc)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	loops := 0
	for b.Loop() {
		loops++
		r := NewReader(bytes.NewReader(doc), "bench.xml", Limits{})
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if r.Count() != int64(n) {
			b.Fatalf("read %d entries, want %d", r.Count(), n)
		}
	}
	elapsed := b.Elapsed()
	runtime.ReadMemStats(&after)
	entries := float64(n) * float64(loops)
	b.ReportMetric(entries/elapsed.Seconds(), "entries/s")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/entries, "B/entry")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/entries, "allocs/entry")
}

// BenchmarkStdlibTokens50k is the reference point: encoding/xml merely
// tokenizing the same list (RawToken, no entries built). Compare it with
// BenchmarkReader50k in one run (-bench 'Reader50k|Stdlib'), never across
// runs.
func BenchmarkStdlibTokens50k(b *testing.B) {
	const n = 50_000
	doc := genList(n)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		d := xml.NewDecoder(bytes.NewReader(doc))
		for {
			_, err := d.RawToken()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
