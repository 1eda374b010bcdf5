package mirror

import (
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
)

// fuzzMaps are the maps the fuzz targets run with, so that matching and the
// "would map into a --map directory" rule are fuzzed too.
var fuzzMaps = []Map{
	{Prefix: "http://example.org/data/", Dir: "mirror/data"},
	{Prefix: "https://example.org/data/deep/", Dir: "deep"},
	{Prefix: "http://h:8080/", Dir: "h"},
}

// fuzzRoot is a map onto the mirror's root.
var fuzzRoot = []Map{{Prefix: "http://h/data/", Dir: "."}}

var fuzzSeeds = []string{
	"http://h/a", "http://h/a/", "http://h", "http://h/a//b", "http://h/a?x=1", "http://h/a%3Fx=1",
	"http://h/a?", "http://h/a/?x", "http://H:80/%7E", "https://h:443/~", "http://h:443/x",
	"http://[::1]:8080/x", "http://.resync-dest/state.db", "http://h/%2E%2E/x", "http://h/../x",
	"http://h/a%2Fb", "http://h/a%2Fb c", "http://h/%25index", "http://h/caf%C3%A9", "http://h/e%CC%81",
	"http://example.org/data/x", "https://example.org/data/deep/y", "http://mirror/data/z",
	"http://h:8080/a", "http://h/" + strings.Repeat("%C3%A9", 40), "http://h/a#f", "http://h/a?b/c?d",
	"http://h/with space.txt", "http://h/Pi%C3%B1a.txt", "http://h/a%09%7F%C2%85", "http://h/%FF%C3",
	"http://h/what%3F", "http://h/data/.resync-dest/x", "http://h/data/%2Eresync-dest", "http://h/data/.htaccess",
	"http://h/data/a b/%25tmp-0123456789abcdef", "http://h/" + strings.Repeat("é", 120), "http://h/a?q=é?x",
}

// fuzzMappers are the mappers the fuzz targets check: no maps, ordinary
// maps, and a map onto the root.
func fuzzMappers(tb testing.TB) []*Mapper {
	var out []*Mapper
	for _, maps := range [][]Map{nil, fuzzMaps, fuzzRoot} {
		m, err := NewMapper(maps)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// FuzzMapperSafe checks that every path Path returns is safe to use below
// the mirror root, whatever the URI and whatever the maps - and so is
// every path of the version-1 rules that Rename moves files from.
func FuzzMapperSafe(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	mappers := fuzzMappers(f)
	f.Fuzz(func(t *testing.T, uri string) {
		for _, m := range mappers {
			for v := 1; v <= MappingVersion; v++ {
				p, err := m.PathIn(v, uri)
				if err != nil {
					continue
				}
				if reason := unsafePath(p); reason != "" {
					t.Fatalf("PathIn(%d, %q) = %q: %s", v, uri, p, reason)
				}
			}
		}
	})
}

// FuzzMapperInjective checks that two URIs share a path only when they are
// the same resource under the mapping's equivalence (MAPPING.md): scheme
// http/https, host case, default port, fragment, and percent-encoding inside
// path segments do not matter; "/" versus %2F and the query's bytes do. It
// also inverts each default path back to that equivalence class - a path
// that can be decoded to its URI's class cannot be shared by another class
// -, checks that Mapper.URI gives back a URI of the class with the same
// path, and that no version-1 path of one resource is the current path of
// another (which Rename relies on).
func FuzzMapperInjective(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+1)%len(fuzzSeeds)])
	}
	f.Add("http://h/a", "https://H:443/%61")
	f.Add("http://h/a?x", "http://h/a%3Fx")
	f.Add("http://h/a;b", "http://h/a%3Bb")
	f.Add("http://h/with space.txt", "http://h/with%20space.txt")
	f.Add("http://h/a%2520b", "http://h/a%20b")
	f.Add("http://h/data/x", "http://h/data/x?")
	mappers := fuzzMappers(f)
	plain := mappers[0]
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, m := range mappers {
			pa, errA := m.Path(a)
			pb, errB := m.Path(b)
			if errA == nil && errB == nil && pa == pb && equivKey(a) != equivKey(b) {
				t.Fatalf("%q and %q share path %q but differ:\n%s\n%s", a, b, pa, equivKey(a), equivKey(b))
			}
			old, errOld := m.PathIn(1, a)
			if errOld == nil && errB == nil && old == pb && equivKey(a) != equivKey(b) {
				t.Fatalf("the version-1 path of %q is the path of %q: %q", a, b, old)
			}
			for _, u := range []string{a, b} {
				checkURI(t, m, u)
			}
		}
		for _, u := range []string{a, b} {
			p, err := plain.Path(u)
			if err != nil || strings.Contains(p, longMark) {
				continue // a shortened name keeps a hash, not the whole name
			}
			if got, want := unmapKey(t, p), equivKey(u); got != want {
				t.Fatalf("Path(%q) = %q decodes to\n%s\nwant\n%s", u, p, got, want)
			}
		}
	})
}

// unsafePath says what is wrong with a mapped path, or "".
func unsafePath(p string) string {
	switch {
	case p == "":
		return "empty"
	case path.IsAbs(p) || path.Clean(p) != p:
		return "not clean and relative"
	case p == stateDir || strings.HasPrefix(p, stateDir+"/"):
		return "is or lies in .resync-dest"
	case strings.IndexByte(p, 0) >= 0:
		return "contains NUL"
	case len(p) > maxPathLen:
		return "too long"
	}
	for _, e := range strings.Split(p, "/") {
		switch {
		case e == "" || e == "." || e == "..":
			return fmt.Sprintf("element %q", e)
		case len(e) > 255:
			return fmt.Sprintf("element of %d bytes", len(e))
		case isTempName(e):
			return "element looks like a temp file"
		}
	}
	return ""
}

// equivKey is the equivalence class of a URI that Path accepted, computed
// with net/url and without the mapping's code.
func equivKey(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "unparsable: " + err.Error()
	}
	port := u.Port()
	if port != "" {
		n, _ := strconv.Atoi(port)
		if u.Scheme == "http" && n == 80 || u.Scheme == "https" && n == 443 {
			port = ""
		} else {
			port = strconv.Itoa(n)
		}
	}
	noFrag, _, _ := strings.Cut(s, "#")
	beforeQ, query, hasQuery := strings.Cut(noFrag, "?")
	afterSlashes := beforeQ[strings.Index(beforeQ, "//")+2:]
	rawPath := "/"
	if i := strings.IndexByte(afterSlashes, '/'); i >= 0 {
		rawPath = afterSlashes[i:]
	}
	var segs []string
	for _, seg := range strings.Split(rawPath[1:], "/") {
		d, err := url.PathUnescape(seg)
		if err != nil {
			return "bad segment: " + err.Error()
		}
		segs = append(segs, d)
	}
	host := []byte(u.Hostname())
	for i, c := range host {
		if 'A' <= c && c <= 'Z' {
			host[i] = c + 32
		}
	}
	return key(string(host), port, strings.HasPrefix(u.Host, "["), segs, hasQuery, query)
}

func key(host, port string, bracketed bool, segs []string, hasQuery bool, query string) string {
	return fmt.Sprintf("host=%q port=%q ipv6=%v segs=%q query=%v,%q", host, port, bracketed, segs, hasQuery, query)
}

// unmapKey decodes a default-mapped path (no maps, no shortened names) back
// to the equivalence class of its URI.
func unmapKey(t *testing.T, p string) string {
	t.Helper()
	unescape := func(s string) string {
		d, err := url.PathUnescape(s)
		if err != nil {
			t.Fatalf("path %q: name %q does not decode: %v", p, s, err)
		}
		return d
	}
	names := strings.Split(p, "/")
	auth, bracketed, port := names[0], false, ""
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		auth, port, bracketed = auth[1:end], strings.TrimPrefix(auth[end+1:], ":"), true
	} else if i := strings.LastIndexByte(auth, ':'); i >= 0 {
		auth, port = auth[:i], auth[i+1:]
	}
	last := names[len(names)-1]
	name, query, hasQuery := strings.Cut(last, "?")
	names[len(names)-1] = name
	var segs []string
	for i, n := range names[1:] {
		switch {
		case n == "%index" && i == len(names)-2, n == "%empty" && i < len(names)-2:
			segs = append(segs, "")
		case strings.HasPrefix(n, "%") && !isHex(n[1]):
			t.Fatalf("path %q: unknown marker %q", p, n)
		default:
			segs = append(segs, unescape(n))
		}
	}
	return key(unescape(auth), port, bracketed, segs, hasQuery, unescape(query))
}

// checkURI checks that Mapper.URI inverts m's path of u: a URI of the same
// class, with the same path.
func checkURI(t *testing.T, m *Mapper, u string) {
	t.Helper()
	p, err := m.Path(u)
	if err != nil || strings.Contains(p, longMark) {
		return // a shortened name keeps a hash, not the whole name
	}
	scheme, _, _ := strings.Cut(u, ":")
	back, err := m.URI(p, asciiLower(scheme))
	if err != nil {
		t.Fatalf("Path(%q) = %q, whose URI fails: %v", u, p, err)
	}
	if again, err := m.Path(back); err != nil || again != p {
		t.Fatalf("Path(%q) = %q, URI %q, whose path is %q (%v)", u, p, back, again, err)
	}
	if got, want := equivKey(back), equivKey(u); got != want {
		t.Fatalf("Path(%q) = %q, URI %q of another resource:\n%s\nwant\n%s", u, p, back, got, want)
	}
}

// FuzzNamesKept checks the short cuts of segmentName and authorityName
// against the encoders they skip: a name they keep as it is must be what
// appendName or appendHost would have written.
func FuzzNamesKept(f *testing.F) {
	for _, s := range []string{"a", "data", "Ab.txt", "with space", "a%20b", "é", "\x7f", "[::1]", ".h", "a?b", "x/y", ""} {
		f.Add(s, "")
		f.Add(s, "8080")
	}
	f.Fuzz(func(t *testing.T, s, port string) {
		if s == "" || s == "." || s == ".." {
			return // names of their own (indexName, emptyName, the dot escapes)
		}
		if got, want := segmentName(s, true, MappingVersion), string(appendName(nil, s, false)); got != want {
			t.Fatalf("segmentName(%q) = %q, appendName gives %q", s, got, want)
		}
		if strings.HasPrefix(s, ".") {
			return // escaped as %2E before appendHost
		}
		p := parsedURI{host: s, port: port}
		want := string(appendHost(nil, s))
		if port != "" {
			want += ":" + port
		}
		if got := p.authorityName(MappingVersion); got != want {
			t.Fatalf("authorityName of host %q port %q = %q, appendHost gives %q", s, port, got, want)
		}
	})
}
