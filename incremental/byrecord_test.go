package incremental

import (
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// byRecord: only a backlog unit whose changes say nothing of the
// resource's collections - none, or deletions without a collection link -
// is judged by the state's record.
func TestByRecord(t *testing.T) {
	coll := []resourcesync.Link{{Rel: resourcesync.RelCollection, Href: "http://example.com/c"}}
	meta := []resourcesync.Link{{Rel: resourcesync.RelDescribedBy, Href: "http://example.com/m"}}
	del := func(links []resourcesync.Link) resourcesync.Pending {
		return resourcesync.Pending{Change: resourcesync.ChangeDeleted, Links: links}
	}
	upd := func(links []resourcesync.Link) resourcesync.Pending {
		return resourcesync.Pending{Change: resourcesync.ChangeUpdated, Links: links}
	}
	unit := func(ps ...resourcesync.Pending) *resourcesync.BacklogUnit {
		bu := &resourcesync.BacklogUnit{URI: "http://example.com/r", Pending: ps}
		if len(ps) > 0 {
			bu.Final = &ps[len(ps)-1]
		}
		return bu
	}
	done := unit(del(nil))
	done.Pending = nil // the deletion applied, a failure since
	for _, tt := range []struct {
		name string
		bu   *resourcesync.BacklogUnit
		want bool
	}{
		{"a failure retried that no change names", &resourcesync.BacklogUnit{URI: "http://example.com/r", Retry: true}, true},
		{"a bare deletion", unit(del(nil)), true},
		{"a deletion with links but no collection link", unit(del(meta)), true},
		{"two bare deletions", unit(del(nil), del(nil)), true},
		{"a final deletion done, none pending", done, true},
		{"a deletion naming a collection", unit(del(coll)), false},
		{"an update naming a collection, then a bare deletion", unit(upd(coll), del(nil)), false},
		{"an update naming none, then a bare deletion", unit(upd(nil), del(nil)), false},
		{"an update naming none", unit(upd(nil)), false},
	} {
		if got := byRecord(tt.bu); got != tt.want {
			t.Errorf("%s: byRecord = %v, want %v", tt.name, got, tt.want)
		}
	}
}
