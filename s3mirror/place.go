package s3mirror

import (
	"fmt"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Sync and Place are the writer's pipelined publish (transfer.Publisher;
// the local mirror's Sync makes the staged bytes and the renames before it
// durable with one syncfs). An object is durable once its PUT or DELETE is
// acknowledged, so Sync has nothing to flush: it only says whether the
// bucket may still be written - the lock held, the fence not ended - so
// that nothing is recorded after the lease was lost during the uploads
// Place made.

// Sync fails, wrapping resourcesync.ErrLocal, when the Mirror can no
// longer be written; nothing may then be recorded.
func (m *Mirror) Sync() error {
	if m.readOnly {
		return nil
	}
	if err := m.usable(); err != nil {
		return fmt.Errorf("sync: %w: %w", resourcesync.ErrLocal, err)
	}
	return nil
}

// Place uploads the files staged under tickets as Publish does and
// returns one error per ticket; an upload the bucket refused for a cause
// that stops the run carries resourcesync.ErrLocal. A fatal error found
// after the uploads (the lease lost) is the next Sync's.
func (m *Mirror) Place(tickets []string) []error {
	errs, _ := m.Publish(tickets)
	return errs
}
