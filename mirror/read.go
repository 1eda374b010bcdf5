package mirror

import (
	"fmt"
	"io"
	"os"
	"path"
)

// Open opens the regular file at rel (reached without following a
// symlink) for reading: the copy held, which a patch is applied to. It
// fails for a symlink or anything else that is not a regular file; errors
// name rel. It is safe for concurrent use.
func (m *Mirror) Open(rel string) (io.ReadCloser, error) {
	if err := checkRel("open", rel); err != nil {
		return nil, err
	}
	if err := m.parents(path.Dir(rel), false); err != nil {
		return nil, fmt.Errorf("open %s: %w", rel, err)
	}
	fi, err := m.fsys.Lstat(rel)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", rel, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("open %s: not a regular file (%s)", rel, fi.Mode().Type())
	}
	f, err := m.fsys.OpenFile(rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", rel, err)
	}
	return f, nil
}
