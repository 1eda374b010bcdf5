package mirror

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// VersionTimeFormat is the time in the name of a version kept.
const VersionTimeFormat = "20060102T150405Z"

// Versions keeps the versions of resources a run replaces or deletes
// (--keep-versions): each one a copy under Dir, at the path its resource
// maps to in the mirror followed by "@" and the version's time in UTC
// (VersionTimeFormat), written to a temp file, made durable and renamed.
// Dir is outside the mirror's tree (by default DEST/.resync-dest/versions),
// so nothing there is taken for mirror content. Safe for concurrent use
// with distinct rel.
type Versions struct {
	Dir string
}

// name is where the version of rel made at is kept.
func (v Versions) name(rel string, at time.Time) string {
	return filepath.Join(v.Dir, filepath.FromSlash(rel)) + "@" + at.UTC().Format(VersionTimeFormat)
}

// Kept reports whether the version of rel made at is kept already (false
// when that cannot be told: Keep then says).
func (v Versions) Kept(rel string, at time.Time) bool {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return false
	}
	_, err := os.Lstat(v.name(rel, at))
	return err == nil
}

// Keep copies the version read from r, of the file at mirror path rel
// made at, and returns where it is kept. A version already kept under the
// same name is left as it is. Errors name rel.
func (v Versions) Keep(rel string, at time.Time, r io.Reader) (string, error) {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", fmt.Errorf("keep the version of %s: not a path inside the mirror", rel)
	}
	name := v.name(rel, at)
	if _, err := os.Lstat(name); err == nil {
		return name, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("keep the version of %s: %w", rel, err)
	}
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("keep the version of %s: %w", rel, err)
	}
	tmp, err := os.CreateTemp(dir, ".keep-*")
	if err != nil {
		return "", fmt.Errorf("keep the version of %s: %w", rel, err)
	}
	_, err = io.Copy(tmp, r)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", fmt.Errorf("keep the version of %s: %w", rel, err)
	}
	return name, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
