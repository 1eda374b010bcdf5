package mirror

import (
	"strings"
	"testing"
)

// PathIn(1, ...) is where the first naming rules stored a resource: every
// byte outside RFC 3986's pchar escaped.
func TestMapperPathInVersion1(t *testing.T) {
	mp, err := ParseMap("http://h/data/=local", "/dest")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMapper([]Map{mp})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("%C3%A9", 40) // 240 bytes escaped, 80 raw
	tests := []struct{ uri, v1, v2 string }{
		{"http://h/with%20space.txt", "h/with%20space.txt", "h/with space.txt"},
		{"http://h/Piña.txt", "h/Pi%C3%B1a.txt", "h/Piña.txt"},
		{"http://h/a/b", "h/a/b", "h/a/b"},
		{"http://h/a?q=a b/c?d", "h/a?q=a%20b%2Fc%3Fd", "h/a?q=a b%2Fc?d"},
		{"http://%C3%A9.example/x", "%C3%A9.example/x", "é.example/x"},
		{"http://a]b/x", "a%5Db/x", "a%5Db/x"},
		{"http://h/data/dir%20x/f", "local/dir%20x/f", "local/dir x/f"},
		{"http://h/" + long, "h/" + longName(strings.Repeat("%C3%A9", 30), long), "h/" + strings.Repeat("é", 40)},
		{"http://h/a\"b<>", "h/a%22b%3C%3E", "h/a\"b<>"},
	}
	for _, tt := range tests {
		v1, err1 := m.PathIn(1, tt.uri)
		v2, err2 := m.PathIn(2, tt.uri)
		cur, err3 := m.Path(tt.uri)
		if err1 != nil || err2 != nil || err3 != nil || v1 != tt.v1 || v2 != tt.v2 || cur != v2 {
			t.Errorf("%s: version 1 %q (%v), version 2 %q (%v), Path %q (%v); want %q and %q",
				tt.uri, v1, err1, v2, err2, cur, err3, tt.v1, tt.v2)
		}
	}
	if _, err := m.PathIn(3, "http://h/x"); err == nil {
		t.Error("PathIn(3) of a program whose latest version is 2: no error")
	}
}
