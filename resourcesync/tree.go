package resourcesync

import (
	"slices"
	"strings"
)

// Tree is the mapped tree of a set of resources: for each top-level
// directory of the mirror (an authority such as "example.org" or a --map
// directory) that holds a listed path, the deepest directory holding every
// listed path under it. baseline --delete and audit look for files the
// Source does not list only inside it, so that one set never claims the
// files of another set stored elsewhere in the same mirror.
//
// Paths are mirror-relative and slash-separated. The zero value is an
// empty tree, ready to use. A Tree is not safe for concurrent use; copies
// share their roots.
type Tree struct {
	roots map[string]string // top-level element -> deepest common directory
}

// Add widens the tree to hold path.
func (t *Tree) Add(path string) {
	if t.roots == nil {
		t.roots = make(map[string]string)
	}
	top, _, _ := strings.Cut(path, "/")
	parent := path[:max(strings.LastIndexByte(path, '/'), 0)]
	cur, ok := t.roots[top]
	if !ok {
		t.roots[top] = parent
		return
	}
	if cur != parent {
		t.roots[top] = commonDir(cur, parent)
	}
}

// commonDir is the longest common prefix of two slash-separated
// directories, element by element.
func commonDir(a, b string) string {
	n, i := 0, 0 // n: length of the common prefix that ends an element
	for ; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			n = i
		}
	}
	if (i == len(a) || a[i] == '/') && (i == len(b) || b[i] == '/') {
		n = i // one is the other, or both end an element here
	}
	return a[:n]
}

// Contains reports whether path lies inside the tree.
func (t Tree) Contains(path string) bool {
	for _, root := range t.roots {
		if root == "" || path == root || strings.HasPrefix(path, root+"/") {
			return true
		}
	}
	return false
}

// Empty reports whether nothing was added.
func (t Tree) Empty() bool { return len(t.roots) == 0 }

// Roots returns the directories that make up the tree, in the order in
// which walking each of them in turn visits files in byte order of their
// full paths (the order of a sorted list of paths): by root+"/", since
// "a-b/x" sorts before "a/x" although "a" sorts before "a-b". The roots
// never overlap: when one of them is the whole mirror (""), it is the only
// one.
func (t Tree) Roots() []string {
	out := make([]string, 0, len(t.roots))
	for _, root := range t.roots {
		if root == "" {
			return []string{""}
		}
		out = append(out, root)
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(a+"/", b+"/") })
	return out
}
