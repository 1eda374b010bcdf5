package transfer

import (
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestMayRemove(t *testing.T) {
	var tree resourcesync.Tree
	tree.Add("h/set/a/1.txt")
	tree.Add("h/set/b/2.txt") // the tree is h/set
	for _, tc := range []struct {
		name    string
		holders []int64
		held    bool
		path    string
		want    bool
	}{
		{"held by this set, inside", []int64{1}, true, "h/set/a/1.txt", true},
		{"held by this set, outside", []int64{1}, true, "h/elsewhere/x", true},
		{"never held, inside", nil, false, "h/set/a/stray", true},
		{"never held, outside", nil, false, "h/notes/user.txt", false},
		{"never held, a sibling of the tree", nil, false, "h/set-b/x", false},
		{"held by another set too", []int64{1, 2}, true, "h/set/a/1.txt", false},
		{"held by another set only", []int64{2}, false, "h/set/a/1.txt", false},
	} {
		if got := MayRemove(1, tc.holders, tc.held, tree, tc.path); got != tc.want {
			t.Errorf("%s: MayRemove(%v, %v, %s) = %v, want %v", tc.name, tc.holders, tc.held, tc.path, got, tc.want)
		}
	}
	if MayRemove(1, nil, false, resourcesync.Tree{}, "h/set/a/1.txt") {
		t.Error("an empty tree (a set holding nothing) lets a file it never wrote go")
	}
}
