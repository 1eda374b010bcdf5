package main

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/mirror"
)

// maxRenameConflictsLogged bounds the conflicts logged one by one.
const maxRenameConflictsLogged = 100

// renameOlderNames gives the files an earlier version of the mapping named
// their current names (mirror.Rename), once per set, and logs what it did:
// a mirror made by an earlier version keeps working, with no download.
func renameOlderNames(ctx context.Context, m *mirror.Mirror, st mirror.RenameState, dest string, d *deps) error {
	rep, err := m.Rename(ctx, st)
	if err != nil {
		return fmt.Errorf("give the files of %s their current names: %w", dest, err)
	}
	for i, c := range rep.Conflicts {
		if i == maxRenameConflictsLogged {
			d.log.Warn().Int("more", len(rep.Conflicts)-i).Msg("more files kept their old names")
			break
		}
		d.log.Warn().Str("uri", c.URI).Str("path", c.From).Str("new_path", c.To).Str("cause", c.Reason).
			Msg("file kept its old name: something else is at its new one; the resource is fetched again to the new name, and the old file is extra until a --delete")
	}
	if n := rep.Renamed + rep.Recorded; n > 0 || len(rep.Conflicts) > 0 {
		d.log.Info().Int("files", n).Int("conflicts", len(rep.Conflicts)).Int("mapping_version", mirror.MappingVersion).
			Msg("renamed the files an earlier version named to their current names")
	}
	if rep.Pending > 0 {
		d.log.Info().Int("sets", rep.Pending).
			Msg("files of sets synced with other --map options keep their old names until a run with those options")
	}
	return nil
}

// warnOlderNames tells a read-only command that some files may still bear
// the names an earlier version gave them: it cannot rename them, and sees
// them as missing at their current names (and as extra at their old ones).
func warnOlderNames(ctx context.Context, e *env, d *deps) {
	older, err := e.store.OlderNames(ctx)
	if err != nil || len(older) == 0 {
		return
	}
	d.log.Warn().Int("sets", len(older)).Int("mapping_version", mirror.MappingVersion).
		Msg("files of this mirror may bear the names an earlier version of resync-dest gave them: the next sync, baseline or incremental run renames them; until then they are reported as missing and extra")
}
