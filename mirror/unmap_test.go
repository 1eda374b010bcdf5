package mirror

import (
	"strings"
	"testing"
)

// URI inverts Path: in the default layout, below a map and below a map
// onto the root; a name the mapping never gives still gets a URI below a
// map.
func TestMapperURI(t *testing.T) {
	mapper := func(maps ...string) *Mapper {
		t.Helper()
		var ms []Map
		for _, s := range maps {
			mp, err := ParseMap(s, "/dest")
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, mp)
		}
		m, err := NewMapper(ms)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	plain := mapper()
	maps := mapper("http://example.org/data/=local/data", "https://example.org/img/=img")
	root := mapper("https://src/data/=.")
	tests := []struct {
		m             *Mapper
		rel, scheme   string
		want, wantErr string
		notRoundTrip  bool // a name the mapping never gives
	}{
		{m: plain, rel: "h/with space.txt", scheme: "http", want: "http://h/with%20space.txt"},
		{m: plain, rel: "h/Piña.txt", scheme: "https", want: "https://h/Pi%C3%B1a.txt"},
		{m: plain, rel: "h:8080/a/%index", scheme: "http", want: "http://h:8080/a/"},
		{m: plain, rel: "h/%index?x=1", scheme: "http", want: "http://h/?x=1"},
		{m: plain, rel: "h/a/%empty/b", scheme: "http", want: "http://h/a//b"},
		{m: plain, rel: "h/a?x=1&y=2", scheme: "http", want: "http://h/a?x=1&y=2"},
		{m: plain, rel: "h/a?x=%2541", scheme: "http", want: "http://h/a?x=%41"},
		{m: plain, rel: "h/a?b%2Fc?d", scheme: "http", want: "http://h/a?b/c?d"},
		{m: plain, rel: "h/what%3F", scheme: "http", want: "http://h/what%3F"},
		{m: plain, rel: "h/a%2Fb", scheme: "http", want: "http://h/a%2Fb"},
		{m: plain, rel: "h/100%25", scheme: "http", want: "http://h/100%25"},
		{m: plain, rel: "h/%2E%2E/x", scheme: "http", want: "http://h/%2E%2E/x"},
		{m: plain, rel: "h/a#b", scheme: "http", want: "http://h/a%23b"},
		{m: plain, rel: "h/a%09b", scheme: "http", want: "http://h/a%09b"},
		{m: plain, rel: "[::1]:8080/x", scheme: "http", want: "http://[::1]:8080/x"},
		{m: plain, rel: "[fe80::1%25en0]/x", scheme: "http", want: "http://[fe80::1%25en0]/x"},
		{m: plain, rel: "%2Eresync-dest/x", scheme: "http", want: "http://.resync-dest/x"},
		{m: plain, rel: "é.example/x", scheme: "http", want: "http://%C3%A9.example/x"},
		{m: plain, rel: "h/100%.txt", scheme: "http", want: "http://h/100%25.txt", notRoundTrip: true},
		{m: plain, rel: "h", scheme: "http", wantErr: "not a file's path"},
		{m: plain, rel: "a/b/c", scheme: "http", want: "http://a/b/c"},
		{m: plain, rel: "h:x/y", scheme: "http", wantErr: "not a host's directory"},
		{m: maps, rel: "local/data/set1/r.xml", scheme: "http", want: "http://example.org/data/set1/r.xml"},
		{m: maps, rel: "local/data/%index", scheme: "http", want: "http://example.org/data/"},
		{m: maps, rel: "img/p q.png", scheme: "http", want: "https://example.org/img/p%20q.png"},
		{m: maps, rel: "example.org/other", scheme: "https", want: "https://example.org/other"},
		{m: maps, rel: "local/x", scheme: "http", want: "http://local/x"},
		{m: root, rel: "a b/c.txt", scheme: "http", want: "https://src/data/a%20b/c.txt"},
		{m: root, rel: "%index", scheme: "http", want: "https://src/data/"},
		{m: root, rel: ".htaccess", scheme: "http", want: "https://src/data/.htaccess"},
		{m: root, rel: "extra file", scheme: "http", want: "https://src/data/extra%20file"},
		{m: root, rel: "100%.txt", scheme: "http", want: "https://src/data/100%25.txt", notRoundTrip: true},
		{m: root, rel: "a%~0123", scheme: "http", want: "https://src/data/a%25~0123", notRoundTrip: true},
	}
	for _, tt := range tests {
		got, err := tt.m.URI(tt.rel, tt.scheme)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("URI(%q) = %q, %v; want an error saying %q", tt.rel, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("URI(%q) = %q, %v; want %q", tt.rel, got, err, tt.want)
			continue
		}
		back, err := tt.m.Path(got)
		if tt.notRoundTrip {
			if err == nil && back == tt.rel {
				t.Errorf("Path(URI(%q)) = %q: the name is one the mapping gives after all", tt.rel, back)
			}
			continue
		}
		if err != nil || back != tt.rel {
			t.Errorf("Path(URI(%q) = %q) = %q, %v; want the path back", tt.rel, got, back, err)
		}
	}
}
