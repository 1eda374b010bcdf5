package s3mirror

import (
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
)

// The object metadata Publish stores with each object (x-amz-meta-...):
// what was verified against the Source before the PUT.
const (
	metaLength  = "resync-length"  // decimal
	metaMD5     = "resync-md5"     // hex
	metaSHA256  = "resync-sha256"  // hex
	metaLastMod = "resync-lastmod" // the Source's lastmod, RFC 3339 UTC; absent when none
)

// meta reads one of our metadata values, whatever case the service gave
// its name in.
func meta(oi minio.ObjectInfo, name string) string {
	for k, v := range oi.UserMetadata {
		k = strings.ToLower(k)
		k = strings.TrimPrefix(k, "x-amz-meta-")
		if k == name {
			return v
		}
	}
	return ""
}

// info is an object as an fs.FileInfo: a regular file.
type info struct {
	name string
	size int64
	mod  time.Time
}

func newInfo(rel string, oi minio.ObjectInfo) info {
	mod := oi.LastModified
	if s := meta(oi, metaLastMod); s != "" {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			mod = t
		}
	}
	return info{name: path.Base(rel), size: oi.Size, mod: mod}
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return 0o644 }
func (i info) ModTime() time.Time { return i.mod }
func (i info) IsDir() bool        { return false }
func (i info) Sys() any           { return nil }
