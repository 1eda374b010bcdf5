package resourcesync

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
)

// Generated documents for the benchmarks and the memory tests.

const genHeader = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2013-01-03T09:00:00Z" completed="2013-01-03T09:01:00Z"/>
`

const genFooter = "</urlset>\n"

// appendGenEntry appends a realistic Resource List entry: loc, lastmod and
// rs:md with an md5 and a sha-256 hash, a length and a type.
func appendGenEntry(b []byte, i int) []byte {
	id := strconv.Itoa(i)
	m := md5.Sum([]byte(id))
	s := sha256.Sum256([]byte(id))
	b = append(b, "  <url>\n    <loc>http://example.com/dataset1/resources/res"...)
	b = append(b, id...)
	b = append(b, ".html</loc>\n    <lastmod>2013-01-02T13:"...)
	b = append(b, byte('0'+i/10%6), byte('0'+i%10))
	b = append(b, ":00Z</lastmod>\n    <rs:md hash=\"md5:"...)
	b = hex.AppendEncode(b, m[:])
	b = append(b, " sha-256:"...)
	b = hex.AppendEncode(b, s[:])
	b = append(b, "\" length=\""...)
	b = strconv.AppendInt(b, int64(1000+i%90000), 10)
	b = append(b, "\" type=\"text/html\"/>\n  </url>\n"...)
	return b
}

// genList returns a Resource List of n entries.
func genList(n int) []byte {
	b := append([]byte(nil), genHeader...)
	for i := range n {
		b = appendGenEntry(b, i)
	}
	return append(b, genFooter...)
}

// genListReader generates a Resource List of n entries as it is read, in
// constant memory.
type genListReader struct {
	n, i    int
	buf     []byte
	off     int // read so far of buf
	started bool
	done    bool
}

func newGenListReader(n int) *genListReader { return &genListReader{n: n} }

func (g *genListReader) Read(p []byte) (int, error) {
	for g.off == len(g.buf) {
		g.off = 0
		switch {
		case !g.started:
			g.started = true
			g.buf = append(g.buf[:0], genHeader...)
		case g.i < g.n:
			g.buf = g.buf[:0]
			for ; g.i < g.n && len(g.buf) < 32<<10; g.i++ {
				g.buf = appendGenEntry(g.buf, g.i)
			}
		case !g.done:
			g.done = true
			g.buf = append(g.buf[:0], genFooter...)
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, g.buf[g.off:])
	g.off += n
	return n, nil
}
