package mirror

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// longName is what rule 7 makes of name, computed independently.
func longName(keep, name string) string {
	sum := sha256.Sum256([]byte(name))
	return keep + "%~" + hex.EncodeToString(sum[:16])
}

func TestMapperPath(t *testing.T) {
	a201 := strings.Repeat("a", 201)
	// 179 a's then an escape: a cut at 180 would split "%25".
	split1 := strings.Repeat("a", 179) + "%25" + strings.Repeat("b", 30)
	split2 := strings.Repeat("a", 178) + "%25" + strings.Repeat("b", 30)
	// A cut at 180 would split "é" (2 bytes) or "€" (3 bytes).
	splitE := strings.Repeat("a", 179) + "é" + strings.Repeat("b", 30)
	splitEuro := strings.Repeat("a", 178) + "€" + strings.Repeat("b", 30)
	longQuery := "http://h/x?" + strings.Repeat("q", 250)
	tooLong := "http://h" + strings.Repeat("/"+strings.Repeat("s", 100), 38)

	tests := []struct {
		name    string
		uri     string
		want    string // "" when an ErrUnmappable is wanted
		wantErr string // a part of the error message
	}{
		// Rule 1: what is accepted.
		{"ftp", "ftp://h/x", "", "neither http nor https"},
		{"scheme-relative", "//h/x", "", "not an absolute URI"},
		{"relative", "/x", "", "not an absolute URI"},
		{"no host", "http:///x", "", "no host"},
		{"opaque", "http:x", "", "no host"},
		{"port only", "http://:80/x", "", "no host"},
		{"userinfo", "http://u:p@h/x", "", "userinfo"},
		{"empty userinfo", "http://@h/x", "", "userinfo"},
		{"bad escape", "http://h/%zz", "", "invalid URL escape"},
		{"short escape", "http://h/a%2", "", "invalid URL escape"},
		{"bad query escape", "http://h/a?%zz", "", `invalid escape "%zz"`},
		{"short query escape", "http://h/a?x%2", "", `invalid escape "%2"`},
		{"raw NUL", "http://h/a\x00b", "", "NUL"},
		{"escaped NUL", "http://h/a%00b", "", "NUL"},
		{"escaped NUL in query", "http://h/a?x=%00", "", "NUL"},
		{"control character", "http://h/a\x01", "", "control character"},
		{"fragment dropped", "http://h/a#frag", "h/a", ""},
		{"empty fragment", "http://h/a#", "h/a", ""},
		{"fragment with ?", "http://h/a#b?c", "h/a", ""},
		{"upper-case scheme", "HTTP://H/a", "h/a", ""},

		// Rule 2: the authority directory.
		{"host case", "http://Example.ORG/x", "example.org/x", ""},
		{"http default port", "http://h:80/x", "h/x", ""},
		{"https default port", "https://h:443/x", "h/x", ""},
		{"https shares with http", "https://h/x", "h/x", ""},
		{"https port on http", "http://h:443/x", "h:443/x", ""},
		{"http port on https", "https://h:80/x", "h:80/x", ""},
		{"other port", "http://h:8080/x", "h:8080/x", ""},
		{"port leading zeros", "http://h:08080/x", "h:8080/x", ""},
		{"default port leading zero", "http://h:080/x", "h/x", ""},
		{"empty port", "http://h:/x", "h/x", ""},
		{"port out of range", "http://h:99999/x", "", "out of range"},
		{"ipv6 with port", "http://[::1]:8080/x", "[::1]:8080/x", ""},
		{"ipv6", "http://[::1]/x", "[::1]/x", ""},
		{"ipv6 case and zone", "http://[FE80::1%25En0]/x", "[fe80::1%25en0]/x", ""},
		{"leading dot host", "http://.resync-dest/x", "%2Eresync-dest/x", ""},
		{"dot-dot host", "http://../x", "%2E./x", ""},
		{"non-ascii host", "http://%C3%A9.example/x", "é.example/x", ""},
		{"raw non-ascii host", "http://é.example/x", "é.example/x", ""},
		{"bracket in reg-name", "http://a]b/x", "a%5Db/x", ""},
		{"space in host", "http://a%20b/x", "", "invalid URL escape"},
		{"sub-delims in host", "http://h_x~!$&'()*+,;=/x", "h_x~!$&'()*+,;=/x", ""},

		// Rule 3: segments.
		{"escaped slash", "http://h/a%2Fb", "h/a%2Fb", ""},
		{"lower-case escape", "http://h/a%2fb", "h/a%2Fb", ""},
		{"escaped unreserved", "http://h/%7Euser/%41", "h/~user/A", ""},
		{"escaped percent", "http://h/a%25b", "h/a%25b", ""},
		{"raw space", "http://h/with space.txt", "h/with space.txt", ""},
		{"escaped space", "http://h/with%20space.txt", "h/with space.txt", ""},
		{"escaped slash beside raw space", "http://h/a%2Fb c", "h/a%2Fb c", ""},
		{"utf-8 escaped", "http://h/Pi%C3%B1a.txt", "h/Piña.txt", ""},
		{"utf-8 raw", "http://h/Piña.txt", "h/Piña.txt", ""},
		{"utf-8 lower-case escapes", "http://h/caf%c3%a9", "h/café", ""},
		{"four-byte utf-8", "http://h/%F0%9F%98%80", "h/😀", ""},
		{"replacement character kept", "http://h/%EF%BF%BD", "h/\uFFFD", ""},
		{"invalid utf-8", "http://h/%FF%FE", "h/%FF%FE", ""},
		{"truncated utf-8", "http://h/a%C3", "h/a%C3", ""},
		{"surrogate", "http://h/%ED%A0%80", "h/%ED%A0%80", ""},
		{"overlong encoding", "http://h/%C0%AF", "h/%C0%AF", ""},
		{"tab", "http://h/a%09b", "h/a%09b", ""},
		{"C0 control", "http://h/a%1Bb", "h/a%1Bb", ""},
		{"DEL", "http://h/a%7Fb", "h/a%7Fb", ""},
		{"C1 control", "http://h/a%C2%85b", "h/a%C2%85b", ""},
		{"escaped ? in a segment", "http://h/what%3F", "h/what%3F", ""},
		{"escaped # in a segment", "http://h/a%23b", "h/a#b", ""},
		{"safe set", "http://h/!$&'()*+,;=@:-._~", "h/!$&'()*+,;=@:-._~", ""},
		{"escaped safe set", "http://h/%21%24%26%27%28%29%2A%2B%2C%3B%3D%40%3A", "h/!$&'()*+,;=@:", ""},
		{"other ascii kept", "http://h/a\"b<>^`{|}\\", "h/a\"b<>^`{|}\\", ""},
		{"escaped other ascii", "http://h/%22%3C%3E%5E%60%7B%7C%7D%5C", "h/\"<>^`{|}\\", ""},
		{"plus stays", "http://h/a+b", "h/a+b", ""},

		// Rule 4: dot segments.
		{"escaped dot", "http://h/a/%2E/b", "h/a/%2E/b", ""},
		{"escaped dot-dot", "http://h/a/%2e%2E/b", "h/a/%2E%2E/b", ""},
		{"literal dot-dot", "http://h/../x", "h/%2E%2E/x", ""},
		{"literal dot", "http://h/./x", "h/%2E/x", ""},
		{"dot-dot last", "http://h/a/..", "h/a/%2E%2E", ""},
		{"leading dot name", "http://h/.htaccess", "h/.htaccess", ""},
		{"state dir name below the top", "http://h/.resync-dest/x", "h/.resync-dest/x", ""},
		{"escaped dot name", "http://h/%2Ehtaccess", "h/.htaccess", ""},
		{"three dots", "http://h/...", "h/...", ""},

		// Rule 5: empty segments.
		{"no path", "http://h", "h/%index", ""},
		{"root", "http://h/", "h/%index", ""},
		{"directory", "http://h/a/", "h/a/%index", ""},
		{"empty middle", "http://h/a//b", "h/a/%empty/b", ""},
		{"empty middle and last", "http://h//", "h/%empty/%index", ""},
		{"literal %index", "http://h/%25index", "h/%25index", ""},
		{"literal %empty", "http://h/%25empty/", "h/%25empty/%index", ""},
		{"literal %tmp-", "http://h/%25tmp-0123456789abcdef", "h/%25tmp-0123456789abcdef", ""},
		{"literal %~", "http://h/a%25~b", "h/a%25~b", ""},

		// Rule 6: queries.
		{"query", "http://h/a?x=1", "h/a?x=1", ""},
		{"escaped question mark", "http://h/a%3Fx=1", "h/a%3Fx=1", ""},
		{"empty query", "http://h/a?", "h/a?", ""},
		{"empty query and fragment", "http://h/a?#f", "h/a?", ""},
		{"query on directory", "http://h/a/?x=1", "h/a/%index?x=1", ""},
		{"query on root", "http://h?x", "h/%index?x", ""},
		{"slash and ? in query", "http://h/a?b/c?d", "h/a?b%2Fc?d", ""},
		{"query kept verbatim", "http://h/a?x=%41", "h/a?x=%2541", ""},
		{"ampersand", "http://h/a?x=1&y=2", "h/a?x=1&y=2", ""},
		{"escaped ampersand differs", "http://h/a?x=1%26y=2", "h/a?x=1%2526y=2", ""},
		{"space in query", "http://h/a?q=a b", "h/a?q=a b", ""},
		{"utf-8 in query", "http://h/a?q=Piña", "h/a?q=Piña", ""},
		{"invalid utf-8 in query", "http://h/a?q=\xff", "h/a?q=%FF", ""},

		// Rule 7: long names and paths.
		{"200 bytes kept", "http://h/" + strings.Repeat("a", 200), "h/" + strings.Repeat("a", 200), ""},
		{"201 bytes shortened", "http://h/" + a201, "h/" + longName(strings.Repeat("a", 180), a201), ""},
		{"no split after %", "http://h/" + split1, "h/" + longName(strings.Repeat("a", 179), split1), ""},
		{"no split after %X", "http://h/" + split2, "h/" + longName(strings.Repeat("a", 178), split2), ""},
		{"no split in a 2-byte rune", "http://h/" + splitE, "h/" + longName(strings.Repeat("a", 179), splitE), ""},
		{"no split in a 3-byte rune", "http://h/" + splitEuro, "h/" + longName(strings.Repeat("a", 178), splitEuro), ""},
		{"utf-8 counts its bytes", "http://h/" + strings.Repeat("%C3%A9", 100), "h/" + strings.Repeat("é", 100), ""},
		{"utf-8 shortened", "http://h/" + strings.Repeat("é", 101), "h/" + longName(strings.Repeat("é", 90), strings.Repeat("é", 101)), ""},
		{"long query", longQuery, "h/" + longName("x?"+strings.Repeat("q", 178), "x?"+strings.Repeat("q", 250)), ""},
		{"long host", "http://" + a201 + "/x", longName(strings.Repeat("a", 180), a201) + "/x", ""},
		{"path too long", tooLong, "", "longer than 3800"},

		// Rule 9: case and Unicode twins stay apart.
		{"upper case", "http://h/A", "h/A", ""},
		{"NFD", "http://h/e%CC%81", "h/e\u0301", ""},
		{"NFC", "http://h/%C3%A9", "h/\u00e9", ""},
	}
	m, err := NewMapper(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.Path(tt.uri)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Path(%q) = %q, want an error", tt.uri, got)
				}
				if !errors.Is(err, ErrUnmappable) {
					t.Errorf("Path(%q) error %v does not match ErrUnmappable", tt.uri, err)
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Path(%q) error %q does not say %q", tt.uri, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Path(%q): %v", tt.uri, err)
			}
			if got != tt.want {
				t.Errorf("Path(%q)\n got %q\nwant %q", tt.uri, got, tt.want)
			}
			checkSafe(t, got)
		})
	}
}

func TestMapperMaps(t *testing.T) {
	var maps []Map
	for _, s := range []string{
		"http://example.org/data/=mirror/data",
		"https://Example.org:443/data/special=special",
		"http://other:8080=other-mirror",
	} {
		mp, err := ParseMap(s, "/dest")
		if err != nil {
			t.Fatalf("ParseMap(%q): %v", s, err)
		}
		maps = append(maps, mp)
	}
	m, err := NewMapper(maps)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		uri, want, wantErr string
	}{
		{"http://example.org/data/x", "mirror/data/x", ""},
		{"https://example.org/data/x", "mirror/data/x", ""},
		{"http://EXAMPLE.org:80/d%61ta/x", "mirror/data/x", ""},
		{"http://example.org/data/a/b/", "mirror/data/a/b/%index", ""},
		{"http://example.org/data/", "mirror/data/%index", ""},
		{"http://example.org/data/x?q=1", "mirror/data/x?q=1", ""},
		{"http://example.org/data/special/y", "special/y", ""}, // the longest prefix wins
		{"http://example.org/data/special", "mirror/data/special", ""},
		{"http://example.org/data", "example.org/data", ""}, // not below the directory prefix
		{"http://example.org/data?x", "example.org/data?x", ""},
		{"http://example.org/datax/y", "example.org/datax/y", ""},
		{"http://example.org:8080/data/x", "example.org:8080/data/x", ""},
		{"http://other:8080/a", "other-mirror/a", ""},
		{"http://other:8080", "other-mirror/%index", ""},
		{"http://other/a", "other/a", ""},
		{"http://mirror/x", "mirror/x", ""},
		{"http://mirror/data/x", "", "would map into --map directory mirror/data"},
		{"http://mirror/data", "", "would map into --map directory mirror/data"},
		{"http://special/", "", "would map into --map directory special"},
		{"http://other-mirror/a", "", "would map into --map directory other-mirror"},
	}
	for _, tt := range tests {
		got, err := m.Path(tt.uri)
		if tt.want == "" {
			if !errors.Is(err, ErrUnmappable) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Path(%q) = %q, %v; want ErrUnmappable saying %q", tt.uri, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Path(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
		}
	}
}

func TestParseMap(t *testing.T) {
	tests := []struct {
		in      string
		want    Map
		wantErr string
	}{
		{"http://h/a=dir", Map{"http://h/a/", "dir"}, ""},
		{"http://h/a/=dir/sub/", Map{"http://h/a/", "dir/sub"}, ""},
		{"HTTP://H:80/a=x", Map{"http://h/a/", "x"}, ""},
		{"https://H:443=x", Map{"https://h/", "x"}, ""},
		{"http://[::1]:8080/=v6", Map{"http://[::1]:8080/", "v6"}, ""},
		{"http://h=x=y", Map{"http://h/", "x=y"}, ""},
		{"http://h/=a//b/./c", Map{"http://h/", "a/b/c"}, ""},
		{"http://h/=./a", Map{"http://h/", "a"}, ""},
		{"http://h/=.", Map{"http://h/", ""}, ""},
		{"http://h/data=./", Map{"http://h/data/", ""}, ""},
		{"http://h/=/dest", Map{"http://h/", ""}, ""},
		{"http://h/=/dest/", Map{"http://h/", ""}, ""},
		{"http://h/=/dest/sub/dir", Map{"http://h/", "sub/dir"}, ""},
		{"http://h/=/dest/./sub/../x", Map{"http://h/", "x"}, ""},
		{"http://h/=.hidden", Map{"http://h/", ".hidden"}, ""},
		{"http://h/=a/.resync-dest", Map{"http://h/", "a/.resync-dest"}, ""},
		{"nope", Map{}, "want URI_PREFIX=LOCAL_DIR"},
		{"ftp://h/=x", Map{}, "neither http nor https"},
		{"http://u@h/=x", Map{}, "userinfo"},
		{"http://h/a?q=d", Map{}, "no query or fragment"},
		{"http://h/a#f=d", Map{}, "no query or fragment"},
		{"http://h/=", Map{}, "is empty; give . for the mirror's root"},
		{"http://h/=/abs", Map{}, "/abs is outside the mirror /dest (--dest)"},
		{"http://h/=/destination", Map{}, "outside the mirror /dest"},
		{"http://h/=/dest/../x", Map{}, "outside the mirror /dest"},
		{"http://h/=/", Map{}, "outside the mirror /dest"},
		{"http://h/=/dest/.resync-dest", Map{}, "holds the state"},
		{"http://h/=a/../b", Map{}, `contains ".."`},
		{"http://h/=..", Map{}, `contains ".."`},
		{"http://h/=.resync-dest", Map{}, "holds the state"},
		{"http://h/=.resync-dest/x", Map{}, "holds the state"},
		{"http://h/=a\x00b", Map{}, "NUL"},
		{"http://h/=a/%tmp-0123456789abcdef", Map{}, "temp file"},
		{"http://h/=" + strings.Repeat("d", 256), Map{}, "longer than 255"},
	}
	for _, tt := range tests {
		got, err := ParseMap(tt.in, "/dest")
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseMap(%q) = %+v, %v; want an error saying %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseMap(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestNewMapperRejects(t *testing.T) {
	tests := []struct {
		name    string
		maps    []Map
		wantErr string
	}{
		{"same prefix", []Map{{"http://h/a/", "x"}, {"https://H:443/a", "y"}}, "same prefix"},
		{"equal dirs", []Map{{"http://h/a/", "x"}, {"http://h/b/", "x/"}}, "equal or nested"},
		{"nested dirs", []Map{{"http://h/a/", "x"}, {"http://h/b/", "x/y"}}, "equal or nested"},
		{"nested dirs reversed", []Map{{"http://h/a/", "x/y"}, {"http://h/b/", "x"}}, "equal or nested"},
		{"bad dir", []Map{{"http://h/a/", "../x"}}, `contains ".."`},
		{"bad prefix", []Map{{"h/a", "x"}}, "not an absolute URI"},
		{"root and another", []Map{{"http://h/a/", "."}, {"http://h/b/", "x"}},
			"map http://h/a/=. maps onto the mirror's root, which leaves no room for map http://h/b/=x"},
		{"another and root", []Map{{"http://h/b/", "x"}, {"http://h/a/", ""}},
			"map http://h/a/=. maps onto the mirror's root, which leaves no room for map http://h/b/=x"},
		{"two roots", []Map{{"http://h/a/", ""}, {"http://g/", "."}}, "maps onto the mirror's root"},
	}
	for _, tt := range tests {
		_, err := NewMapper(tt.maps)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: NewMapper error %v, want one saying %q", tt.name, err, tt.wantErr)
		}
	}
	// Siblings sharing a name prefix are not nested.
	if _, err := NewMapper([]Map{{"http://h/a/", "x"}, {"http://h/b/", "xy"}}); err != nil {
		t.Errorf("NewMapper(x, xy): %v", err)
	}
}

// checkSafe fails the test unless p satisfies FuzzMapperSafe's properties.
func checkSafe(t testing.TB, p string) {
	t.Helper()
	if reason := unsafePath(p); reason != "" {
		t.Fatalf("path %q is unsafe: %s", p, reason)
	}
}

// A map onto the mirror's root takes the whole mirror: what lies outside
// its prefix maps nowhere, and nothing maps into .resync-dest.
func TestMapperRootMap(t *testing.T) {
	mp, err := ParseMap("http://src/data/=.", "/dest")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMapper([]Map{mp})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		uri, want, wantErr string
	}{
		{"http://src/data/a/b.txt", "a/b.txt", ""},
		{"https://SRC:443/data/with%20space.txt", "with space.txt", ""},
		{"http://src/data/Pi%C3%B1a.txt", "Piña.txt", ""},
		{"http://src/data/", "%index", ""},
		{"http://src/data/?page=2", "%index?page=2", ""},
		{"http://src/data/.htaccess", ".htaccess", ""},
		{"http://src/data/.well-known/x", ".well-known/x", ""},
		{"http://src/data/.resync-destx/y", ".resync-destx/y", ""},
		{"http://src/data/.resync-dest?x", ".resync-dest?x", ""},
		{"http://src/data/a/.resync-dest/y", "a/.resync-dest/y", ""},
		{"http://src/data/..", "%2E%2E", ""},
		{"http://src/data/%2e", "%2E", ""},
		{"http://src/data/%25tmp-0123456789abcdef", "%25tmp-0123456789abcdef", ""},
		{"http://src/data/.resync-dest/state.db", "", "it would land in .resync-dest, which holds the state"},
		{"http://src/data/.resync-dest", "", "it would land in .resync-dest"},
		{"http://src/data/.resync-dest/", "", "it would land in .resync-dest"},
		{"http://src/data/%2Eresync-dest/x", "", "it would land in .resync-dest"},
		{"http://src/data", "", "outside http://src/data/, the prefix mapped onto the mirror's root"},
		{"http://src/other/x", "", "outside http://src/data/"},
		{"http://elsewhere/data/x", "", "outside http://src/data/"},
		{"http://src:8080/data/x", "", "outside http://src/data/"},
	}
	for _, tt := range tests {
		got, err := m.Path(tt.uri)
		if tt.wantErr != "" {
			if !errors.Is(err, ErrUnmappable) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Path(%q) = %q, %v; want ErrUnmappable saying %q", tt.uri, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Path(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
			continue
		}
		checkSafe(t, got)
	}
}
