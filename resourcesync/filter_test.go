package resourcesync

import (
	"errors"
	"strings"
	"testing"
)

func TestFilter(t *testing.T) {
	const (
		a   = "http://src.example/dataset1/res/a.txt"
		b   = "http://src.example/dataset1/res/b.pdf"
		c   = "http://src.example/dataset2/c.txt"
		sp  = "http://src.example/dataset1/with space.txt"
		esc = "http://src.example/dataset1/with%20space.txt"
	)
	tests := []struct {
		name             string
		include, exclude []string
		takes, leaves    []string
		why              string // in the error of the first left out
	}{
		{"none takes everything", nil, nil, []string{a, b, c, sp}, nil, ""},
		{"exclude matches anywhere", nil, []string{`\.pdf`}, []string{a, c}, []string{b}, "matches --exclude \\.pdf"},
		{"exclude anchored", nil, []string{`^http://src\.example/dataset2/`}, []string{a, b}, []string{c}, "--exclude"},
		{"include: only what matches one", []string{`\.txt$`, `dataset2`}, nil, []string{a, c, sp}, []string{b}, "matches no --include"},
		{"excludes first, whatever the order", []string{`dataset1`}, []string{`a\.txt`}, []string{b, sp}, []string{a, c}, "--exclude a\\.txt"},
		{"matched against the URI as listed", nil, []string{`%20`}, []string{sp}, []string{esc}, "%20"},
		{"case matters unless asked", nil, []string{`(?i)\.PDF$`, `A\.TXT`}, []string{a, c}, []string{b}, "(?i)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFilter(tt.include, tt.exclude)
			if err != nil {
				t.Fatal(err)
			}
			if f.Empty() != (len(tt.include)+len(tt.exclude) == 0) {
				t.Errorf("Empty() = %v", f.Empty())
			}
			for _, u := range tt.takes {
				if err := f.Check(u); err != nil {
					t.Errorf("Check(%s) = %v, want nil", u, err)
				}
			}
			for i, u := range tt.leaves {
				err := f.Check(u)
				if !errors.Is(err, ErrLeftOut) || !strings.Contains(err.Error(), u) {
					t.Errorf("Check(%s) = %v, want ErrLeftOut naming it", u, err)
				}
				if i == 0 && err != nil && !strings.Contains(err.Error(), tt.why) {
					t.Errorf("Check(%s) = %v, want it to say %q", u, err, tt.why)
				}
			}
		})
	}
}

func TestParseFilterErrors(t *testing.T) {
	tests := []struct {
		name             string
		include, exclude []string
		want             []string
	}{
		{"bad include", []string{`(`}, nil, []string{"--include", `"("`, "not a regular expression", "missing closing )"}},
		{"bad exclude", nil, []string{`ok`, `a[`}, []string{"--exclude", `"a["`, "missing closing ]"}},
		{"empty", nil, []string{""}, []string{"--exclude", "empty pattern"}},
		{"perl-only syntax", []string{`(?=x)`}, nil, []string{"--include", "(?="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFilter(tt.include, tt.exclude)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestFilterString(t *testing.T) {
	f, err := ParseFilter([]string{`i1`, `i2`}, []string{`e1`})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.String(), "--exclude e1 --include i1 --include i2"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// FuzzFilter: any pattern either compiles or is refused with an error
// naming its flag; a compiled filter decides any URI without panicking,
// the same way every time, and a URI it leaves out wraps ErrLeftOut.
func FuzzFilter(f *testing.F) {
	f.Add(`\.pdf$`, `^http://`, "http://h/a.pdf")
	f.Add(`(?i)DATA`, ``, "http://h/data/x")
	f.Add(`(`, `[`, "http://h/")
	f.Add(`a{1001}`, `\p{Greek}`, "http://h/α")
	f.Fuzz(func(t *testing.T, include, exclude, uri string) {
		var inc, exc []string
		if include != "" {
			inc = []string{include}
		}
		if exclude != "" {
			exc = []string{exclude}
		}
		flt, err := ParseFilter(inc, exc)
		if err != nil {
			if !strings.Contains(err.Error(), "--include") && !strings.Contains(err.Error(), "--exclude") {
				t.Fatalf("error %q names no flag", err)
			}
			return
		}
		e1, e2 := flt.Check(uri), flt.Check(uri)
		if (e1 == nil) != (e2 == nil) || (e1 != nil && !errors.Is(e1, ErrLeftOut)) {
			t.Fatalf("Check(%q) = %v then %v", uri, e1, e2)
		}
		if flt.Empty() && e1 != nil {
			t.Fatalf("an empty filter left out %q", uri)
		}
	})
}
