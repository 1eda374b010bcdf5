package incremental_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/incremental"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

func TestDeletions(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline() // 40 resources
	rs := h.Src.Resources(0)
	at := h.Src.At()
	var muts []fixtures.Mutation
	var gone []string
	for _, r := range rs[:6] { // 15% of the set
		muts = append(muts, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
		gone = append(gone, r.URI)
	}
	muts = append(muts, fixtures.Mutation{Kind: fixtures.Update, Path: rs[6].Path})
	if err := h.Src.Apply(at.Add(time.Second), muts...); err != nil {
		t.Fatal(err)
	}
	before := h.Files()

	// --delete within the default --max-delete (10%): a safety stop before
	// anything is changed.
	_, err := h.run(func(o *incremental.Options) { o.Delete = true })
	if !errors.Is(err, resourcesync.ErrSafetyStop) || !strings.Contains(err.Error(), "max-delete") {
		t.Fatalf("err = %v, want the deletion guard", err)
	}
	if after := h.Files(); len(after) != len(before) || !bytes.Equal(after[h.PathOf(rs[6].URI)], before[h.PathOf(rs[6].URI)]) {
		t.Fatalf("the guard tripped but the mirror changed")
	}
	if !h.state().Cursor.Equal(at) {
		t.Errorf("the cursor moved")
	}

	// Without --delete: reported, recorded with a note, files kept.
	sum := h.mustRun(nil)
	if sum.WouldDelete != 6 || sum.Deleted != 0 || sum.Updated != 1 || sum.Applied != 7 {
		t.Fatalf("without --delete: %+v", sum)
	}
	h.assertIdentical(gone...)
	for _, u := range gone {
		if _, ok, _ := h.DB.Held(context.Background(), h.SetID, u); !ok {
			t.Errorf("%s kept on disk but dropped from the state", u)
		}
	}

	// With --delete and room for it.
	var more []fixtures.Mutation
	for _, r := range rs[7:10] {
		more = append(more, fixtures.Mutation{Kind: fixtures.Delete, Path: r.Path})
	}
	if err := h.Src.Apply(at.Add(2*time.Second), more...); err != nil {
		t.Fatal(err)
	}
	sum = h.mustRun(func(o *incremental.Options) { o.Delete, o.MaxDelete = true, transfer.DeleteLimit{Count: 3} })
	if sum.Deleted != 3 || sum.Applied != 3 {
		t.Fatalf("with --delete: %+v", sum)
	}
	h.assertIdentical(gone...)
	for _, r := range rs[7:10] {
		if _, ok, _ := h.DB.Held(context.Background(), h.SetID, r.URI); ok {
			t.Errorf("%s deleted but still held in the state", r.URI)
		}
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.baseline()
	h.advance(12)
	h.Reopen(true)
	before := fixtures.TreeSnapshot(t, h.Dest, false)
	var plan bytes.Buffer
	sum, err := h.run(func(o *incremental.Options) { withDelete(o); o.DryRun, o.Plan = true, &plan })
	if err != nil {
		t.Fatal(err)
	}
	if after := fixtures.TreeSnapshot(t, h.Dest, false); after != before {
		t.Fatalf("a dry run changed the mirror or the state:\n%s\n---\n%s", before, after)
	}
	if sum.Listed == 0 || sum.Applied != 12 || plan.Len() == 0 {
		t.Errorf("%+v\nplan:\n%s", sum, plan.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(plan.String()), "\n") {
		if !strings.HasPrefix(line, "create ") && !strings.HasPrefix(line, "update ") && !strings.HasPrefix(line, "delete ") {
			t.Errorf("plan line %q", line)
		}
	}
	h.Reopen(false)
	h.mustRun(withDelete)
	h.assertIdentical()
}
