package mirror

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Walk calls fn for every file under dir ("" is the whole mirror) in
// byte order of the full slash-separated path - the order sort.Strings
// gives the paths - so that callers can merge it with a sorted list. It
// skips .resync-dest/ and temp files and never follows a symlink (dir
// itself included): symlinks
// and other irregular files are reported with their Lstat info so callers
// can flag them (check info.Mode()). A dir that does not exist yields
// nothing. An error from fn stops the walk and is returned (fs.SkipAll
// stops it with nil); entries changed while walking may or may not be
// seen. It is safe for concurrent use.
func (m *Mirror) Walk(dir string, fn func(rel string, info fs.FileInfo) error) error {
	if dir != "" {
		if err := checkRel("walk", dir); err != nil {
			return err
		}
		err := m.parents(dir, false)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("walk %s: %w", dir, err)
		}
	}
	err := m.walkDir(dir, func(rel string, d fs.DirEntry) error {
		if isTempName(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed since the directory was read
		}
		if err != nil {
			return fmt.Errorf("walk %s: %w", rel, err)
		}
		return fn(rel, info)
	})
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// walkDir calls visit for every entry that is not a directory under dir,
// in byte order of the full path, never entering .resync-dest or a symlink.
func (m *Mirror) walkDir(dir string, visit func(rel string, d fs.DirEntry) error) error {
	name := dir
	if name == "" {
		name = "."
	}
	ents, err := m.fsys.ReadDir(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && dir != "" {
			return nil // pruned since its parent was read
		}
		return fmt.Errorf("walk %s: %w", name, err)
	}
	// A directory sorts as name+"/": "a-b" < "a.txt" < "a/x" in byte order,
	// while a plain name sort would put "a" first.
	type keyed struct {
		key string
		d   fs.DirEntry
	}
	ks := make([]keyed, len(ents))
	for i, e := range ents {
		ks[i] = keyed{key: e.Name(), d: e}
		if e.IsDir() {
			ks[i].key += "/"
		}
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].key < ks[j].key })
	for _, k := range ks {
		rel := k.d.Name()
		if dir != "" {
			rel = dir + "/" + rel
		}
		if k.d.IsDir() {
			if rel == stateDir {
				continue
			}
			if err := m.walkDir(rel, visit); err != nil {
				return err
			}
			continue
		}
		if err := visit(rel, k.d); err != nil {
			return err
		}
	}
	return nil
}

// HashFile reads the regular file at rel (reached without following a
// symlink) once and returns its digests for
// every algorithm in algs (resourcesync names such as "md5", "sha-256", in
// that order) and its length. It fails for an unknown algorithm, for a
// symlink or anything else that is not a regular file, and on read errors;
// errors name rel. It is safe for concurrent use.
func (m *Mirror) HashFile(rel string, algs []string) (resourcesync.Fixity, int64, error) {
	if err := checkRel("hash", rel); err != nil {
		return nil, 0, err
	}
	for _, a := range algs {
		if _, ok := resourcesync.KnownAlg(a); !ok {
			return nil, 0, fmt.Errorf("hash %s: unknown algorithm %q", rel, a)
		}
	}
	if err := m.parents(path.Dir(rel), false); err != nil {
		return nil, 0, fmt.Errorf("hash %s: %w", rel, err)
	}
	fi, err := m.fsys.Lstat(rel)
	if err != nil {
		return nil, 0, fmt.Errorf("hash %s: %w", rel, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("hash %s: not a regular file (%s)", rel, fi.Mode().Type())
	}
	f, err := m.fsys.OpenFile(rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("hash %s: %w", rel, err)
	}
	defer f.Close()
	v := resourcesync.NewVerifier(nil, 0, false, algs...)
	n, err := io.Copy(v, f)
	if err != nil {
		return nil, 0, fmt.Errorf("hash %s: %w", rel, err)
	}
	return v.Sums(), n, nil
}
