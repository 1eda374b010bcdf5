package state

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// newScratch creates a new temporary SQLite file in dir (os.TempDir()
// when dir is ""), named resync-dest-<kind>-*.db, and opens it for one
// connection. Nothing in it must survive a crash: no fsync, and no other
// process shares the file; journal and cacheKiB are the kind's own
// choices. A process that dies leaves the file behind; on an error here it
// is removed. The name returned is absolute, for the caller's Close.
func newScratch(dir, kind, journal, cacheKiB string) (*sql.DB, string, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, "resync-dest-"+kind+"-*.db")
	if err != nil {
		return nil, "", fmt.Errorf("create %s: %w", kind, err)
	}
	name := f.Name()
	db, abs, err := openScratch(f, journal, cacheKiB)
	if err != nil {
		os.Remove(name)
		return nil, "", fmt.Errorf("create %s %s: %w", kind, name, err)
	}
	return db, abs, nil
}

func openScratch(f *os.File, journal, cacheKiB string) (*sql.DB, string, error) {
	if err := f.Close(); err != nil {
		return nil, "", err
	}
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return nil, "", err
	}
	db := openPool(1, fileDSN(abs, url.Values{
		"_journal_mode": {journal},
		"_synchronous":  {"OFF"},
		"_locking_mode": {"EXCLUSIVE"},
		"_cache_size":   {cacheKiB}, // negative: KiB, so memory stays flat however much is written
	}))
	return db, abs, nil
}
