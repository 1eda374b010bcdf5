package state

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

func BenchmarkTmpChangesRecordPrune(b *testing.B) {
	const n, size = 180_000, 256
	db := openAt(b, b.TempDir()+"/state.db")
	ctx := runContext(b)
	if os.Getenv("DROPIDX") != "" {
		if _, err := db.write.Exec(`DROP INDEX changes_set_time`); err != nil {
			b.Fatal(err)
		}
	}
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		s := ensureSet(b, db, fmt.Sprintf("http://example.org/%d/capabilitylist.xml", time.Now().UnixNano()))
		start := time.Now()
		for st := 0; st < n; st += size {
			var bt Batch
			for i := st; i < min(n, st+size); i++ {
				bt.Changes = append(bt.Changes, resourcesync.ChangeRecord{URI: benchHeld((i * 7919) % n).URI, Change: resourcesync.ChangeUpdated, Time: t0.Add(time.Duration(i) * time.Second), List: "http://example.org/changelist.xml", Position: i})
			}
			if err := db.Commit(ctx, s.ID, &bt); err != nil {
				b.Fatal(err)
			}
		}
		rec := time.Since(start)
		c := t0.Add(time.Duration(n+1) * time.Second)
		if err := db.Commit(ctx, s.ID, &Batch{Cursor: &c}); err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		k, err := db.PruneChanges(ctx, s.ID, c)
		if err != nil || k != n {
			b.Fatal(k, err)
		}
		b.Logf("record %s prune %s", rec, time.Since(start))
	}
}
