package s3mirror

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/minio/minio-go/v7"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// HashFile reads the object at rel once and returns its digests for every
// algorithm in algs (resourcesync names) and its length: the bytes the
// bucket holds, not the metadata stored with them. A missing object
// matches fs.ErrNotExist; errors name rel.
func (m *Mirror) HashFile(rel string, algs []string) (resourcesync.Fixity, int64, error) {
	if err := checkRel("hash", rel); err != nil {
		return nil, 0, err
	}
	for _, a := range algs {
		if _, ok := resourcesync.KnownAlg(a); !ok {
			return nil, 0, fmt.Errorf("hash %s: unknown algorithm %q", rel, a)
		}
	}
	ctx, cancel := m.request()
	defer cancel()
	obj, err := m.cl.GetObject(ctx, m.loc.Bucket, m.loc.key(rel), minio.GetObjectOptions{})
	if err != nil {
		return nil, 0, &fs.PathError{Op: "hash", Path: rel, Err: objectError(err)}
	}
	defer obj.Close()
	v := resourcesync.NewVerifier(nil, 0, false, algs...)
	n, err := io.Copy(v, obj)
	if err != nil {
		return nil, 0, &fs.PathError{Op: "hash", Path: rel, Err: objectError(err)}
	}
	return v.Sums(), n, nil
}

// Walk calls fn for every object under dir ("" is the whole mirror) in
// byte order of its path - the order S3 lists keys in, and sort.Strings
// gives the paths - so that callers can merge it with a sorted list. It
// skips .resync-dest/ and keys ending in "/" (the folders some tools
// make). An error from fn stops the walk and is returned (fs.SkipAll stops
// it with nil); a listing error wraps resourcesync.ErrLocal when the
// bucket cannot be read at all.
func (m *Mirror) Walk(dir string, fn func(rel string, info fs.FileInfo) error) error {
	prefix := m.loc.base()
	if dir != "" {
		if err := checkRel("walk", dir); err != nil {
			return err
		}
		prefix += dir + "/"
	}
	// No overall timeout: fn may take long (an audit hashes as it goes);
	// each page's request is bounded by the transport.
	ctx, cancel := context.WithCancel(m.ctx)
	defer cancel()
	base := m.loc.base()
	for oi := range m.cl.ListObjects(ctx, m.loc.Bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if oi.Err != nil {
			return fmt.Errorf("walk %s: %w", m.loc.String()+"/"+dir, local(oi.Err))
		}
		rel := strings.TrimPrefix(oi.Key, base)
		if rel == "" || strings.HasSuffix(rel, "/") || rel == stateDir || strings.HasPrefix(rel, stateDir+"/") {
			continue
		}
		if err := fn(rel, newInfo(rel, oi)); err != nil {
			if errors.Is(err, fs.SkipAll) {
				return nil
			}
			return err
		}
	}
	return nil
}
