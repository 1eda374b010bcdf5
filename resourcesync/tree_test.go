package resourcesync

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestTree(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		roots []string
		in    []string
		out   []string
	}{
		{name: "empty", roots: []string{}, out: []string{"h/a", ""}},
		{
			name:  "one file",
			paths: []string{"h/a/b/f.txt"},
			roots: []string{"h/a/b"},
			in:    []string{"h/a/b/g", "h/a/b/c/d", "h/a/b"},
			out:   []string{"h/a/bc", "h/a/f", "h/x", "g/a/b/f"},
		},
		{
			name:  "deepest common directory, element by element",
			paths: []string{"h/ab/x/1", "h/ab/y/2", "h/ac/3"},
			roots: []string{"h"},
			in:    []string{"h/zz"},
			out:   []string{"hx/a"},
		},
		{
			name:  "a directory and its subdirectory",
			paths: []string{"h/a/1", "h/a/b/2"},
			roots: []string{"h/a"},
			in:    []string{"h/a/c/3"},
			out:   []string{"h/ab/1"},
		},
		{
			name:  "prefix that is not a directory",
			paths: []string{"h/a/1", "h/ab/2"},
			roots: []string{"h"},
		},
		{
			name:  "roots in the order of the files under them",
			paths: []string{"a/x/1", "a-b/y/2", "a.c/z/3", "b/w/4"},
			roots: []string{"a-b/y", "a.c/z", "a/x", "b/w"},
			in:    []string{"a/x/9", "b/w/q/r"},
			out:   []string{"a/y/1", "c/1"},
		},
		{
			name:  "a path without a directory covers the mirror",
			paths: []string{"h/a/1", "top"},
			roots: []string{""},
			in:    []string{"anything/at/all"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tr Tree
			for _, p := range tc.paths {
				tr.Add(p)
			}
			if got := tr.Roots(); !reflect.DeepEqual(got, tc.roots) {
				t.Errorf("Roots() = %q, want %q", got, tc.roots)
			}
			if tr.Empty() != (len(tc.paths) == 0) {
				t.Errorf("Empty() = %v", tr.Empty())
			}
			for _, p := range append(slices.Clone(tc.paths), tc.in...) {
				if !tr.Contains(p) {
					t.Errorf("Contains(%q) = false", p)
				}
			}
			for _, p := range tc.out {
				if tr.Contains(p) {
					t.Errorf("Contains(%q) = true", p)
				}
			}
		})
	}
}

// TestTreeCommonDir checks commonDir against the element-by-element
// definition.
func TestTreeCommonDir(t *testing.T) {
	dirs := []string{"", "h", "h/a", "h/ab", "h/a/b", "h/a/bc", "h/ac/b", "hx", "h/a/b/c", "x/a"}
	for _, a := range dirs {
		for _, b := range dirs {
			if got, want := commonDir(a, b), splitCommon(a, b); got != want {
				t.Errorf("commonDir(%q, %q) = %q, want %q", a, b, got, want)
			}
		}
	}
}

func splitCommon(a, b string) string {
	ae, be := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(ae) && n < len(be) && ae[n] == be[n] {
		n++
	}
	return strings.Join(ae[:n], "/")
}

// FuzzTreeRoots checks the property audit relies on: walking the roots in
// order, each in byte order, visits the contained paths in byte order.
func FuzzTreeRoots(f *testing.F) {
	f.Add("a/x/1\na-b/y/2\na.c/z/3\nb/w/4")
	f.Add("h/a/1\nh/ab/2\nh/a/b/3")
	f.Fuzz(func(t *testing.T, list string) {
		var tr Tree
		var paths []string
		for _, p := range strings.Split(list, "\n") {
			if p == "" || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains(p, "//") {
				continue
			}
			paths = append(paths, p)
			tr.Add(p)
		}
		var walked []string
		for _, root := range tr.Roots() {
			var under []string
			for _, p := range paths {
				if root == "" || strings.HasPrefix(p, root+"/") {
					under = append(under, p)
				}
			}
			slices.Sort(under)
			walked = append(walked, under...)
		}
		sorted := slices.Clone(paths)
		slices.Sort(sorted)
		if !slices.Equal(slices.Compact(walked), slices.Compact(sorted)) {
			t.Fatalf("walk order %q, sorted %q", walked, sorted)
		}
	})
}
