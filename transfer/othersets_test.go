package transfer_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// holdersStore counts the PathHolders lookups of a state.
type holdersStore struct {
	transfer.Store
	asked atomic.Int64
}

func (s *holdersStore) PathHolders(ctx context.Context, p string) ([]int64, error) {
	s.asked.Add(1)
	return s.Store.PathHolders(ctx, p)
}

// A deletion asks which sets hold its path only when another set holds
// something: in a mirror of one set, no lookup; once another set holds a
// resource at a deleted path, its file is kept, and the other deleted.
func TestEngineAsksHoldersOnlyWithOtherSets(t *testing.T) {
	h := newEngineHarness(t)
	rs := h.Src.Resources(0)[:3]
	p := &planner{}
	for _, r := range rs {
		p.units = append(p.units, unit(r, r.LastMod))
	}
	if err := h.run(p, nil, nil); err != nil || h.counts.Created != 3 {
		t.Fatalf("%v %+v", err, h.counts)
	}
	store := &holdersStore{Store: h.DB}
	h.store = store
	deleteAll := func(o *transfer.RunOptions) { o.Delete, o.MaxDelete = true, transfer.DeleteLimit{Count: 100} }
	exists := func(r int) bool {
		path, err := h.Mirror.Path(rs[r].URI)
		if err != nil {
			t.Fatal(err)
		}
		_, err = os.Lstat(filepath.Join(h.Dest, filepath.FromSlash(path)))
		return err == nil
	}

	if err := h.run(&planner{units: []*transfer.Unit{{URI: rs[0].URI, Gone: true}}}, nil, deleteAll); err != nil {
		t.Fatal(err)
	}
	if exists(0) || store.asked.Load() != 0 {
		t.Fatalf("one set: file there %v, PathHolders asked %d times", exists(0), store.asked.Load())
	}

	// Another set holds rs[1]'s path.
	set, err := h.DB.EnsureSet(context.Background(), h.Src.URL()+"/other/capabilitylist.xml", h.Src.SourceDescriptionURL())
	if err != nil {
		t.Fatal(err)
	}
	other := set.ID
	var path1 string
	path1, err = h.Mirror.Path(rs[1].URI)
	if err != nil {
		t.Fatal(err)
	}
	shared := resourcesync.Held{URI: rs[1].URI, Path: path1, Length: rs[1].Size, Fixity: rs[1].Fixity}
	if err := h.DB.Commit(context.Background(), other, &resourcesync.Batch{Held: []resourcesync.Held{shared}}); err != nil {
		t.Fatal(err)
	}
	p = &planner{units: []*transfer.Unit{{URI: rs[1].URI, Gone: true}, {URI: rs[2].URI, Gone: true}}}
	if err := h.run(p, nil, deleteAll); err != nil {
		t.Fatal(err)
	}
	if !exists(1) || exists(2) || store.asked.Load() != 2 {
		t.Errorf("two sets: rs[1] kept %v (want true), rs[2] kept %v (want false), PathHolders asked %d times (want 2)",
			exists(1), exists(2), store.asked.Load())
	}
}
