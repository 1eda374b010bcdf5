package resourcesync

import (
	"reflect"
	"testing"
)

func TestMirrors(t *testing.T) {
	links := []Link{
		{Rel: RelDuplicate, Href: "http://m/nopri"},
		{Rel: RelDuplicate, Href: "gsiftp://grid/x", Pri: 1},
		{Rel: RelDuplicate, Href: "https://m/b", Pri: 2},
		{Rel: RelDescribedBy, Href: "http://m/meta", Pri: 1},
		{Rel: RelDuplicate, Href: "HTTP://m/a", Pri: 1},
		{Rel: RelDuplicate, Href: "http:///nohost", Pri: 1},
		{Rel: RelDuplicate, Href: "http://m/b2", Pri: 2},
		{Rel: RelDuplicate, Href: "%zz", Pri: 1},
	}
	var got []string
	for _, l := range Mirrors(links) {
		got = append(got, l.Href)
	}
	want := []string{"HTTP://m/a", "https://m/b", "http://m/b2", "http://m/nopri"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Mirrors = %q, want %q", got, want)
	}
	if m := Mirrors(nil); m != nil {
		t.Errorf("Mirrors(nil) = %v", m)
	}
}
